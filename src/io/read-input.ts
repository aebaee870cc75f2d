import { isUtf8 } from 'node:buffer';
import { readFileSync, statSync } from 'node:fs';
import { InputFileError } from '../core/errors.js';
import { JsonSyntaxError, parsePyJson } from '../core/py-json-parse.js';
import type { PyValue } from '../core/py-value.js';

/**
 * The one way cove reads an input file (tasks, DBs, configs, scripts, run-folder files): bounded in size, checked
 * to be UTF-8, and for JSON bounded in nesting depth, so that any malformed file gives an error naming the file,
 * where in it, and what to do — never a stack trace, a silently replaced byte or an out-of-memory crash.
 * Limits and the reasons for them: docs/input-files.md.
 */

/** Largest input file read, in bytes (256 MiB: far above τ²'s DBs of a few MB, well inside V8's string limit). */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;
/** Deepest nesting of JSON lists and objects read (τ²'s files nest fewer than 10 levels). */
export const MAX_JSON_DEPTH = 100;

/** Options of the readers. */
export interface ReadInputOptions {
  /** What the file is, for messages ("tasks file", "--config"). */
  readonly what?: string;
  /** @defaultValue {@link MAX_INPUT_BYTES} */
  readonly maxBytes?: number;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MB`;

/** Byte offset of the first byte that is not valid UTF-8 (a strict decoder's view), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let j = 1; j <= need; j++) {
      const c = bytes[i + j];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * Reads a text input file: a regular file of at most `maxBytes`, valid UTF-8 (a leading byte-order mark is
 * dropped). @throws {InputFileError} naming the file and, for bad bytes, the byte offset.
 */
export function readInputText(file: string, options: ReadInputOptions = {}): string {
  const maxBytes = options.maxBytes ?? MAX_INPUT_BYTES;
  const what = options.what === undefined ? '' : ` (${options.what})`;
  let bytes: Buffer;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) {
      throw new InputFileError(file, '$', `is a folder, not a file${what}; give the file's path`);
    }
    if (stat.size > maxBytes) {
      throw new InputFileError(
        file,
        '$',
        `is ${mb(stat.size)}; cove reads input files of at most ${mb(maxBytes)}${what} — split it, or use a smaller one`,
      );
    }
    bytes = readFileSync(file);
  } catch (e) {
    if (e instanceof InputFileError) throw e;
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    const hint =
      code === 'ENOENT'
        ? 'no such file; check the path (relative paths start at the current folder)'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied; make it readable (chmod u+r) or copy it'
          : 'cannot be read';
    throw new InputFileError(file, '$', `${hint}${what} (${code})`);
  }
  if (bytes.length > maxBytes) {
    throw new InputFileError(file, '$', `is larger than ${mb(maxBytes)}, the most cove reads${what}`);
  }
  if (!isUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    const line = bytes.subarray(0, Math.max(at, 0)).filter((b) => b === 0x0a).length + 1;
    throw new InputFileError(
      file,
      `byte ${at} (line ${line})`,
      `not valid UTF-8 (byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')})${what}; save the file as UTF-8`,
    );
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Reads a JSON input file losslessly (ints stay ints, floats stay floats, dict order kept; see
 * {@link parsePyJson}), through {@link readInputText}, nesting at most {@link MAX_JSON_DEPTH} deep.
 * @throws {InputFileError} naming the file and line/column of a syntax error or of too deep nesting.
 */
export function readJsonInput(file: string, options: ReadInputOptions = {}): PyValue {
  return parseJsonText(readInputText(file, options), file);
}

/** Parses the text of `file` as {@link readJsonInput} does. @throws {InputFileError} */
export function parseJsonText(text: string, file: string): PyValue {
  try {
    return parsePyJson(text, { maxDepth: MAX_JSON_DEPTH });
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      const deep = e.message.startsWith('Nested deeper');
      throw new InputFileError(
        file,
        `line ${e.line} column ${e.column}`,
        deep
          ? `lists and objects nest deeper than ${MAX_JSON_DEPTH} levels, the most cove reads; give a file written by cove or τ² (theirs nest fewer than 10 levels)`
          : `not valid JSON: ${e.message.replace(/: line \d+ column \d+ \(char \d+\)$/, '')} (char ${e.position}); fix the file or make it again`,
      );
    }
    throw e;
  }
}

/**
 * Reads a JSON input file into plain JS values (objects, arrays, numbers; ints beyond 2^53 as strings), with the
 * same checks as {@link readJsonInput}. @throws {InputFileError}
 */
export function readPlainJson(file: string, options: ReadInputOptions = {}): unknown {
  const text = readInputText(file, options);
  parseJsonText(text, file); // size, depth and syntax checked with positions
  return JSON.parse(text);
}
