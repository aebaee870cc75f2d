import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The indexed part of a file: its inode, length, and a hash of its last 64 kB. */
export interface Prefix {
  readonly ino: number;
  readonly bytes: number;
  readonly tail: string;
}

const PREFIX_TAIL = 64 * 1024;

function tailHash(fd: number, bytes: number): string {
  const buf = Buffer.alloc(Math.min(PREFIX_TAIL, bytes));
  const got = readSync(fd, buf, 0, buf.length, bytes - buf.length);
  return createHash('sha256').update(buf.subarray(0, got)).digest('hex');
}

/** What the first `bytes` bytes of a file are (see {@link samePrefix}), `undefined` when it cannot be read. */
export function prefixOf(file: string, bytes: number): Prefix | undefined {
  try {
    const fd = openSync(file, 'r');
    try {
      return { ino: fstatSync(fd).ino, bytes, tail: tailHash(fd, bytes) };
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Whether a file still starts with the bytes of `prefix`: same inode, at least as long, same last 64 kB. */
export function samePrefix(file: string, prefix: Prefix): boolean {
  try {
    const fd = openSync(file, 'r');
    try {
      const s = fstatSync(fd);
      return s.ino === prefix.ino && s.size >= prefix.bytes && tailHash(fd, prefix.bytes) === prefix.tail;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
