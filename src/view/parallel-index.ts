import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { EpisodeFacts, TaskFacts } from './facts.js';
import { decodeFacts, unpackStrings } from './facts-columns.js';
import type { IndexWorkerData, IndexWorkerMessage } from './index-worker.js';
import { IndexBuilder, indexJsonl, type JsonlIndex, resumable } from './jsonl-index.js';
import { type IndexSegment, indexRange } from './range-index.js';

/** Files smaller than this are indexed in this thread (starting workers would cost more than it saves). */
const MIN_PARALLEL_BYTES = 64 * 1024 * 1024;
/** The head of the file, indexed in this thread while the workers start, so the first page comes at once. */
const HEAD_BYTES = 2 * 1024 * 1024;

/** Options of {@link buildIndex}. */
export interface BuildIndexOptions {
  /** An index of the file's first `from.bytes` bytes (a run still going): only the rest is read, in this thread. */
  readonly from?: JsonlIndex;
  /** Called after each segment appended: bytes indexed so far (all ranges), and the builder (its part so far). */
  readonly onProgress?: (bytesDone: number, builder: IndexBuilder) => void;
  /** Worker threads to use; default `os.availableParallelism()`. Below 2, the file is indexed in this thread. */
  readonly workers?: number;
  /** Smallest file split between workers (default 64 MB). */
  readonly minParallelBytes?: number;
  readonly headBytes?: number;
}

/**
 * The start of the first line at or after `position`: the byte after the first newline at or after
 * `position - 1` (the file's size when there is none).
 */
export function lineStartAt(file: string, position: number): number {
  if (position <= 0) return 0;
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(64 * 1024);
    let at = position - 1;
    for (;;) {
      const got = readSync(fd, buf, 0, buf.length, at);
      if (got === 0) return at;
      const nl = buf.subarray(0, got).indexOf(0x0a);
      if (nl >= 0) return at + nl + 1;
      at += got;
    }
  } finally {
    closeSync(fd);
  }
}

/** Starts a worker indexing a byte range (`index-worker.ts`). */
function startWorker(data: IndexWorkerData): Worker {
  const self = import.meta.url;
  if (self.endsWith('.ts')) {
    // run from the TypeScript sources (tests, bench): the worker loads them through tsx, as this thread does
    const tsx = import.meta.resolve('tsx/esm/api');
    const entry = new URL('./index-worker.ts', self).href;
    const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
    return new Worker(code, { eval: true, workerData: data });
  }
  return new Worker(new URL('./index-worker.js', self), { workerData: data });
}

/** A byte range's segments as they arrive, appended once every earlier range is. */
interface Range {
  readonly start: number;
  readonly queue: { segment: IndexSegment; columns?: Parameters<typeof decodeFacts>[0] }[];
  ended: boolean;
  /** Lines before the range (known once every earlier range is appended). */
  lineBase: number;
  done: number;
}

/**
 * Builds the index of a trajectories.jsonl file (see `indexJsonl` for what it holds). A large file is split
 * into byte ranges at line starts: its head is indexed in this thread (so the first answers need not wait for
 * anything else), the rest by `os.availableParallelism()` worker threads, one range each; their segments are
 * appended in file order (a range's lines are renumbered once the ranges before it are in), so
 * `onProgress`'s builder always holds the index of a prefix of the file. A small file, or one continued from an
 * earlier index, is indexed in this thread.
 * @throws when the file cannot be read, or a worker fails.
 */
export async function buildIndex(
  file: string,
  tasks: readonly (TaskFacts | undefined)[],
  options: BuildIndexOptions = {},
): Promise<JsonlIndex> {
  const size = statSync(file).size;
  const workers = options.workers ?? availableParallelism();
  const from = options.from !== undefined && resumable(options.from) ? options.from : undefined;
  if (from !== undefined || workers < 2 || size < (options.minParallelBytes ?? MIN_PARALLEL_BYTES)) {
    return indexJsonl(file, tasks, {
      ...(from === undefined ? {} : { from }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    });
  }
  // split points at line starts: the head, then equal parts of the rest
  const head = lineStartAt(file, Math.min(options.headBytes ?? HEAD_BYTES, size));
  if (head >= size)
    return indexJsonl(
      file,
      tasks,
      options.onProgress === undefined ? {} : { onProgress: options.onProgress },
    );
  const starts = [0, head];
  for (let k = 1; k < workers; k++) {
    const s = lineStartAt(file, head + Math.floor(((size - head) * k) / workers));
    if (s > (starts[starts.length - 1] as number) && s < size) starts.push(s);
  }
  const ranges: Range[] = starts.map((start) => ({
    start,
    queue: [],
    ended: false,
    lineBase: 0,
    done: start,
  }));
  const builder = new IndexBuilder();
  let current = 0;
  const pool: Worker[] = [];
  let fail: (e: Error) => void = () => undefined;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  // a worker may fail while this thread still reads the head: the rejection is awaited below
  finished.catch(() => undefined);
  /** Appends what can be: the queued segments of the current range, then of the next ones once it ended. */
  const drain = () => {
    while (current < ranges.length) {
      const range = ranges[current] as Range;
      for (const { segment, columns } of range.queue) {
        const facts: EpisodeFacts[] =
          columns === undefined ? segment.facts : decodeFacts(columns, range.lineBase);
        builder.append(segment, range.lineBase, facts);
      }
      range.queue.length = 0;
      if (!range.ended) break;
      current++;
      const next = ranges[current];
      if (next !== undefined) next.lineBase = builder.lines;
    }
    let done = 0;
    for (const r of ranges) done += r.done - r.start;
    options.onProgress?.(done, builder);
    if (current === ranges.length) finish();
  };
  try {
    ranges.forEach((range, r) => {
      if (r === 0) return;
      const end = ranges[r + 1]?.start;
      const worker = startWorker({ file, tasks, start: range.start, ...(end === undefined ? {} : { end }) });
      pool.push(worker);
      worker.on('message', (m: IndexWorkerMessage) => {
        if (m.type === 'end') range.ended = true;
        else {
          const segment: IndexSegment = {
            count: m.count,
            offsets: m.offsets,
            ints: m.ints,
            facts: [],
            malformed: m.malformed,
            blank: m.blank,
            done: m.done,
            read: m.read,
          };
          const columns = { ...m.columns, ids: unpackStrings(m.ids), taskIds: unpackStrings(m.taskIds) };
          range.queue.push({ segment, columns });
          range.done = m.done;
        }
        try {
          drain();
        } catch (e) {
          fail(e as Error);
        }
      });
      worker.on('error', (e) => fail(new Error(`indexing ${file} from byte ${range.start}: ${e.message}`)));
      worker.on('exit', (code) => {
        if (!range.ended) fail(new Error(`indexing ${file}: a worker stopped (exit code ${code})`));
      });
    });
    const first = ranges[0] as Range;
    await indexRange(file, tasks, {
      start: 0,
      end: ranges[1]?.start ?? size,
      firstLine: 0,
      onSegment: (segment) => {
        first.queue.push({ segment });
        first.done = segment.done;
        drain();
      },
    });
    first.ended = true;
    drain();
    await finished;
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return builder.finish();
}
