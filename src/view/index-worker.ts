import { parentPort, workerData } from 'node:worker_threads';
import type { TaskFacts } from './facts.js';
import { encodeFacts, type FactsColumns, type PackedStrings, packStrings } from './facts-columns.js';
import { indexRange } from './range-index.js';

/** What `parallel-index.ts` gives an indexing worker: a byte range of a file (starting at a line start). */
export interface IndexWorkerData {
  readonly file: string;
  readonly tasks: readonly (TaskFacts | undefined)[];
  readonly start: number;
  /** End of the range (a line start, or the file's size); absent: to the end of the file. */
  readonly end?: number;
}

/** A message of an indexing worker: one segment (facts by column, lines numbered from the range's start), or the end. */
export type IndexWorkerMessage =
  | {
      readonly type: 'segment';
      readonly count: number;
      readonly offsets: Float64Array<ArrayBuffer>;
      readonly ints: Int32Array<ArrayBuffer>;
      /** The facts by column, but `ids` and `taskIds` (empty here): those come packed. */
      readonly columns: FactsColumns;
      readonly ids: PackedStrings;
      readonly taskIds: PackedStrings;
      readonly malformed: { line: number; reason: string }[];
      readonly blank: number;
      readonly done: number;
      readonly read: number;
    }
  | { readonly type: 'end' };

// a worker thread indexing its byte range (see parallel-index.ts); facts go back by column, arrays transferred
const port = parentPort;
if (port !== null) {
  const data = workerData as IndexWorkerData;
  await indexRange(data.file, data.tasks, {
    start: data.start,
    ...(data.end === undefined ? {} : { end: data.end }),
    firstLine: 0,
    blocking: true,
    onSegment: (s) => {
      const all = encodeFacts(s.facts);
      const columns = { ...all, ids: [], taskIds: [] };
      const ids = packStrings(all.ids);
      const taskIds = packStrings(all.taskIds);
      const message: IndexWorkerMessage = {
        type: 'segment',
        count: s.count,
        offsets: s.offsets,
        ints: s.ints,
        columns,
        ids,
        taskIds,
        malformed: s.malformed,
        blank: s.blank,
        done: s.done,
        read: s.read,
      };
      port.postMessage(message, [s.offsets.buffer, s.ints.buffer, columns.numbers.buffer, columns.at.buffer]);
    },
  });
  port.postMessage({ type: 'end' } satisfies IndexWorkerMessage);
}
