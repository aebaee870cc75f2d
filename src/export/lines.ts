import { createReadStream } from 'node:fs';

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
 * holding one chunk and one line in memory at a time.
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
  }
  if (carry.length > 0) {
    number++;
    yield { text: carry.toString('utf8'), number, offset, bytes: carry.length };
  }
}
