import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { InputFileError } from '../core/errors.js';
import { firstInvalidUtf8 } from '../io/read-input.js';
import { MAX_LINE_BYTES } from '../io/read-jsonl.js';

/** A line of a file with where it sits, so it can be read again later without keeping it in memory. */
export interface FileLine {
  readonly text: string;
  /** 1-based line number. */
  readonly number: number;
  /** Byte offset of the line's first byte. */
  readonly offset: number;
  /** Byte length without the line break. */
  readonly bytes: number;
}

/**
 * Streams a file's lines with their byte offsets (`\n` or `\r\n` breaks; a last line without a break counts),
 * holding one chunk and one line in memory at a time. Every line must be UTF-8 and at most {@link MAX_LINE_BYTES}
 * long (the checks every input file gets, docs/input-files.md).
 * @throws {InputFileError} naming the line and the byte offset of a byte that is not UTF-8 or of an over-long line
 */
export async function* fileLines(file: string): AsyncGenerator<FileLine> {
  let carry: Buffer = Buffer.alloc(0);
  let offset = 0;
  let number = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    let buffer = carry.length === 0 ? (chunk as Buffer) : Buffer.concat([carry, chunk as Buffer]);
    let start = 0;
    for (;;) {
      const end = buffer.indexOf(10, start);
      if (end === -1) break;
      const stop = end > start && buffer[end - 1] === 13 ? end - 1 : end;
      number++;
      checkLine(file, number, offset + start, buffer.subarray(start, stop));
      yield {
        text: buffer.toString('utf8', start, stop),
        number,
        offset: offset + start,
        bytes: stop - start,
      };
      start = end + 1;
    }
    offset += start;
    buffer = buffer.subarray(start);
    carry = Buffer.from(buffer);
    if (carry.length > MAX_LINE_BYTES) checkLine(file, number + 1, offset, carry);
  }
  if (carry.length > 0) {
    number++;
    checkLine(file, number, offset, carry);
    yield { text: carry.toString('utf8'), number, offset, bytes: carry.length };
  }
}

function checkLine(file: string, number: number, offset: number, bytes: Buffer): void {
  if (bytes.length > MAX_LINE_BYTES) {
    throw new InputFileError(
      file,
      `line ${number} (byte ${offset})`,
      `is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB, the most cove reads in one line; cove never writes such a line: remove it`,
    );
  }
  if (!isUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    throw new InputFileError(
      file,
      `line ${number} (byte ${offset + at})`,
      `not valid UTF-8 (byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')}); the line is damaged: remove it, ` +
        'or resume the run with cove generate, which sets damaged lines aside',
    );
  }
}
