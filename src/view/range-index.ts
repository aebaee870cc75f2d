import { readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { EpisodeFacts, MalformedLine, TaskFacts } from './facts.js';
import { readLine } from './line-reader.js';

/**
 * The lines of one read of a byte range of a trajectories file, in file order: their spans (file offsets,
 * and per line its length and `messages` bounds, as `SpanTable` keeps them), the facts of its records and its
 * malformed lines. Lines are numbered from the first line of the range plus the `firstLine` the range was
 * indexed with (0 in a worker, which does not know how many lines come before its range).
 */
export interface IndexSegment {
  readonly count: number;
  readonly offsets: Float64Array<ArrayBuffer>;
  /** 3 ints per line: length, `messages` start and end (relative to the line, `-1` when not located). */
  readonly ints: Int32Array<ArrayBuffer>;
  readonly facts: EpisodeFacts[];
  readonly malformed: MalformedLine[];
  readonly blank: number;
  /** File offset past the segment's last complete line: the range is indexed up to here. */
  readonly done: number;
  /** File offset past the last byte read (includes a last line without newline, read at the end of the file). */
  readonly read: number;
}

const NL = 0x0a;

/**
 * Indexes the lines of a file that start in `[start, end)` (`start` must be the start of a line; without `end`,
 * up to the end of the file as it is when read), reading chunks of `chunkBytes` and handing over one
 * {@link IndexSegment} per chunk, so a caller can answer from the part already indexed.
 * @param firstLine number of the range's first line (0 when not known: the caller renumbers).
 * @throws when the file cannot be opened or read.
 */
export async function indexRange(
  file: string,
  tasks: readonly (TaskFacts | undefined)[],
  options: {
    start: number;
    end?: number;
    firstLine: number;
    chunkBytes?: number;
    /** Read with blocking calls (a worker thread that has nothing else to do; skips the thread pool's hops). */
    blocking?: boolean;
    onSegment: (segment: IndexSegment) => void;
  },
): Promise<void> {
  const limit = options.end ?? Number.POSITIVE_INFINITY;
  const scan: { tools?: Buffer } = {};
  let line = options.firstLine;
  const handle = await open(file, 'r');
  try {
    let buf = Buffer.allocUnsafe(options.chunkBytes ?? 8 * 1024 * 1024);
    let filled = 0; // bytes in buf
    let base = options.start; // file offset of buf[0]
    let eof = false;
    while (!eof) {
      if (filled === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const want = Math.min(buf.length - filled, limit - (base + filled));
      let bytesRead = 0;
      if (want > 0 && options.blocking === true)
        bytesRead = readSync(handle.fd, buf, filled, want, base + filled);
      else if (want > 0) ({ bytesRead } = await handle.read(buf, filled, want, base + filled));
      if (bytesRead === 0) eof = true;
      filled += bytesRead;
      const offsets: number[] = [];
      const ints: number[] = [];
      const facts: EpisodeFacts[] = [];
      const malformed: MalformedLine[] = [];
      let blank = 0;
      const add = (from: number, to: number) => {
        const outcome = readLine(buf, from, to, line, tasks, scan);
        offsets.push(base + from);
        if (outcome.kind === 'record') {
          ints.push(to - from, outcome.messagesStart, outcome.messagesEnd);
          facts.push(outcome.facts);
        } else {
          ints.push(to - from, -1, -1);
          if (outcome.kind === 'blank') blank++;
          else malformed.push({ line, reason: outcome.reason });
        }
        line++;
      };
      let at = 0;
      for (;;) {
        const nl = buf.indexOf(NL, at);
        if (nl < 0 || nl >= filled) break;
        add(at, nl);
        at = nl + 1;
      }
      // a last line without newline, at the end of the file (a bounded range ends after a newline)
      if (eof && options.end === undefined && at < filled) {
        add(at, filled);
        at = filled;
      }
      buf.copy(buf, 0, at, filled);
      base += at;
      filled -= at;
      options.onSegment({
        count: offsets.length,
        offsets: Float64Array.from(offsets),
        ints: Int32Array.from(ints),
        facts,
        malformed,
        blank,
        done: base,
        read: base + filled,
      });
    }
  } finally {
    await handle.close();
  }
}
