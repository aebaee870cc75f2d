import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { InputFileError } from '../core/errors.js';
import { MAX_JSON_DEPTH } from './read-input.js';

/**
 * Line-by-line reading of a JSON Lines file of any size with bounded memory per line (run folders'
 * `trajectories.jsonl` grows past what one string may hold). What a line holds — UTF-8, JSON, nesting — is the
 * caller's to check, with {@link jsonNestingExceeds} for depth. Limits: docs/input-files.md.
 */

/** Longest line read, in bytes (64 MiB: far above any episode cove writes, well inside V8's string limit). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const CHUNK_BYTES = 8 * 1024 * 1024;

/** One complete (newline-terminated) line: 1-based number, byte offset of its start, its bytes without `\n`. */
export interface JsonlLine {
  readonly line: number;
  readonly offset: number;
  readonly bytes: Buffer;
}

/**
 * Calls `onLine` for each complete line of `file`, in order, reading a chunk at a time. Bytes after the last
 * newline (a torn write) are not a line. Returns the file's size and the bytes up to and including the last
 * newline.
 * @throws {InputFileError} for a file that is not a regular file or cannot be read, and for a line longer than
 *   `maxLineBytes` (naming the line, its byte offset and the limit).
 */
export function readJsonlLines(
  file: string,
  onLine: (line: JsonlLine) => void,
  options: { readonly maxLineBytes?: number; readonly what?: string } = {},
): { size: number; completeBytes: number } {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const what = options.what === undefined ? '' : ` (${options.what})`;
  let fd: number;
  try {
    if (!statSync(file).isFile()) throw new InputFileError(file, '$', `is not a regular file${what}`);
    fd = openSync(file, 'r');
  } catch (e) {
    if (e instanceof InputFileError) throw e;
    throw new InputFileError(file, '$', `cannot be read${what} (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  const chunk = Buffer.alloc(CHUNK_BYTES);
  let pieces: Buffer[] = [];
  let pending = 0; // bytes of the current line read so far
  let lineStart = 0;
  let position = 0;
  let lineNo = 0;
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, position);
      if (n === 0) break;
      let from = 0;
      while (from < n) {
        const nl = chunk.indexOf(10, from);
        const end = nl === -1 || nl >= n ? n : nl;
        pending += end - from;
        if (pending > maxLineBytes) {
          throw new InputFileError(
            file,
            `line ${lineNo + 1} (byte ${lineStart})`,
            `is longer than ${maxLineBytes / 1024 / 1024} MB, the most cove reads in one line${what}; cove never ` +
              'writes such a line: remove it from the file, or use another folder',
          );
        }
        pieces.push(Buffer.from(chunk.subarray(from, end)));
        if (end === n) break;
        lineNo++;
        onLine({
          line: lineNo,
          offset: lineStart,
          bytes: pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces),
        });
        lineStart = position + end + 1;
        pieces = [];
        pending = 0;
        from = end + 1;
      }
      position += n;
    }
  } finally {
    closeSync(fd);
  }
  return { size: position, completeBytes: lineStart };
}

/**
 * Whether the JSON text nests lists and objects deeper than `max` (brackets inside strings do not count). A scan,
 * not a parse: it says nothing of the text's syntax.
 */
export function jsonNestingExceeds(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
