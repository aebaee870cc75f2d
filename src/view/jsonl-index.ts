import { open } from 'node:fs/promises';
import type { EpisodeFacts, MalformedLine, TaskFacts } from './facts.js';
import { type IndexSegment, indexRange } from './range-index.js';

/** Where one line of a JSONL file lies (bytes), and where its `messages` array lies inside it. */
export interface LineSpan {
  readonly offset: number;
  readonly length: number;
  /** Bytes of the `messages` array (relative to `offset`), used by text search; `-1` when not located. */
  readonly messagesStart: number;
  readonly messagesEnd: number;
}

/** Line spans kept in typed arrays (a hundred thousand objects would burden the garbage collector). */
export class SpanTable {
  #offsets = new Float64Array(1024);
  #ints = new Int32Array(3 * 1024);
  #count = 0;

  get count(): number {
    return this.#count;
  }

  push(offset: number, length: number, messagesStart: number, messagesEnd: number): void {
    if (this.#count === this.#offsets.length) {
      const offsets = new Float64Array(this.#offsets.length * 2);
      offsets.set(this.#offsets);
      this.#offsets = offsets;
      const ints = new Int32Array(this.#ints.length * 2);
      ints.set(this.#ints);
      this.#ints = ints;
    }
    const i = this.#count++;
    this.#offsets[i] = offset;
    this.#ints[3 * i] = length;
    this.#ints[3 * i + 1] = messagesStart;
    this.#ints[3 * i + 2] = messagesEnd;
  }

  /** Appends `count` spans laid out as {@link SpanTable.arrays} gives them. */
  append(offsets: Float64Array, ints: Int32Array, count: number): void {
    let size = this.#offsets.length;
    while (size < this.#count + count) size *= 2;
    if (size > this.#offsets.length) {
      const grown = new Float64Array(size);
      grown.set(this.#offsets.subarray(0, this.#count));
      this.#offsets = grown;
      const grownInts = new Int32Array(3 * size);
      grownInts.set(this.#ints.subarray(0, 3 * this.#count));
      this.#ints = grownInts;
    }
    this.#offsets.set(offsets.subarray(0, count), this.#count);
    this.#ints.set(ints.subarray(0, 3 * count), 3 * this.#count);
    this.#count += count;
  }

  /** The spans as typed arrays (views of the table's own memory, `count` entries): offsets, and 3 ints each. */
  arrays(): { offsets: Float64Array; ints: Int32Array } {
    return { offsets: this.#offsets.subarray(0, this.#count), ints: this.#ints.subarray(0, 3 * this.#count) };
  }

  /** A table over arrays laid out as {@link SpanTable.arrays} gives them (taken over, not copied). */
  static fromArrays(
    offsets: Float64Array<ArrayBuffer>,
    ints: Int32Array<ArrayBuffer>,
    count: number,
  ): SpanTable {
    if (offsets.length < count || ints.length < 3 * count) throw new RangeError('span arrays too short');
    const table = new SpanTable();
    table.#offsets = offsets.length > 0 ? offsets : new Float64Array(1);
    table.#ints = ints.length > 0 ? ints : new Int32Array(3);
    table.#count = count;
    return table;
  }

  /** A copy that later pushes do not share. */
  copy(): SpanTable {
    const { offsets, ints } = this.arrays();
    return SpanTable.fromArrays(offsets.slice(), ints.slice(), this.#count);
  }

  /** The span of line `i` (0-based). @throws {RangeError} past the last line. */
  get(i: number): LineSpan {
    if (!Number.isInteger(i) || i < 0 || i >= this.#count) throw new RangeError(`no line ${i}`);
    return {
      offset: this.#offsets[i] as number,
      length: this.#ints[3 * i] as number,
      messagesStart: this.#ints[3 * i + 1] as number,
      messagesEnd: this.#ints[3 * i + 2] as number,
    };
  }
}

/** The index of a trajectories.jsonl file: one span per line, facts per record, malformed lines. */
export interface JsonlIndex {
  readonly spans: SpanTable;
  /** Facts of the readable records, in file order; a record superseded by a later line with its id is left out. */
  readonly facts: EpisodeFacts[];
  readonly malformed: MalformedLine[];
  /** Lines left out because a later line has the same `id` (a re-run episode, README: resume). */
  superseded: number;
  /** Bytes of the file indexed. */
  bytes: number;
  /** Lines without content (blank). */
  blank: number;
}

/**
 * Builds a {@link JsonlIndex} from the segments of a file's byte ranges, handed over in file order: appends their
 * spans, renumbers their lines, and lets a later line with the same `id` supersede an earlier one, as in a run
 * folder being resumed. While it builds, {@link IndexBuilder.snapshot} gives the index of the part so far.
 */
export class IndexBuilder {
  readonly #index: JsonlIndex;
  readonly #byId: Map<string, number>;
  #snapshot: JsonlIndex | undefined;
  #covered: number;

  /** @param from an index of the file's first `from.bytes` bytes, continued (copied: it stays as it was). */
  constructor(from?: JsonlIndex) {
    this.#index =
      from === undefined
        ? { spans: new SpanTable(), facts: [], malformed: [], superseded: 0, bytes: 0, blank: 0 }
        : {
            spans: from.spans.copy(),
            facts: [...from.facts],
            malformed: [...from.malformed],
            superseded: from.superseded,
            bytes: from.bytes,
            blank: from.blank,
          };
    this.#byId = new Map(this.#index.facts.map((f, i) => [f.id, i]));
    this.#covered = this.#index.bytes;
  }

  /** Lines indexed so far. */
  get lines(): number {
    return this.#index.spans.count;
  }

  /** Episodes (facts) indexed so far. */
  get episodes(): number {
    return this.#index.facts.length;
  }

  /** Bytes of the file read so far (from its start; a last line without newline included). */
  get bytes(): number {
    return this.#index.bytes;
  }

  /** Bytes of the file, from its start, whose lines are all indexed so far. */
  get covered(): number {
    return this.#covered;
  }

  /**
   * Appends the next segment of the file.
   * @param lineBase added to the segment's line numbers (the lines before its range, for a worker's segment).
   * @param facts the segment's facts with their lines renumbered, when the caller decoded them itself.
   */
  append(segment: IndexSegment, lineBase = 0, facts: readonly EpisodeFacts[] = segment.facts): void {
    const index = this.#index;
    index.spans.append(segment.offsets, segment.ints, segment.count);
    for (const m of segment.malformed)
      index.malformed.push(lineBase === 0 ? m : { line: m.line + lineBase, reason: m.reason });
    index.blank += segment.blank;
    index.bytes = segment.read;
    this.#covered = segment.done;
    for (const f of facts) {
      const earlier = this.#byId.get(f.id);
      if (earlier !== undefined) {
        index.facts[earlier] = f;
        index.superseded++;
      } else {
        this.#byId.set(f.id, index.facts.length);
        index.facts.push(f);
      }
    }
    this.#snapshot = undefined;
  }

  /**
   * The index of the part of the file appended so far: its own facts and malformed lists (later appends do not
   * change them), the span table shared (lines already there do not change). Made once per append.
   */
  snapshot(): JsonlIndex {
    if (this.#snapshot !== undefined) return this.#snapshot;
    const i = this.#index;
    const facts = [...i.facts];
    if (i.superseded > 0) facts.sort((a, b) => a.line - b.line);
    this.#snapshot = {
      spans: i.spans,
      facts,
      malformed: [...i.malformed],
      superseded: i.superseded,
      bytes: i.bytes,
      blank: i.blank,
    };
    return this.#snapshot;
  }

  /** The finished index (no more appends). */
  finish(): JsonlIndex {
    // a superseded record keeps the file position of its latest line: keep facts in file order
    if (this.#index.superseded > 0) this.#index.facts.sort((a, b) => a.line - b.line);
    return this.#index;
  }
}

/**
 * Builds the index of a trajectories.jsonl file in one streaming pass in this thread (chunks of `chunkBytes`),
 * never holding more than a chunk and the facts. Each line becomes a span; a readable record also becomes facts
 * (its difficulty looked up in `tasks` by `task_index`); an unreadable one (not JSON, or not a trajectory
 * record) becomes a {@link MalformedLine} naming the reason. A later line with the same `id` supersedes an
 * earlier one, as in a run folder being resumed. (`parallel-index.ts` splits a large file between workers.)
 * @param onProgress called after each chunk with the bytes indexed so far and the builder.
 * @throws when the file cannot be opened or read.
 */
export async function indexJsonl(
  file: string,
  tasks: readonly (TaskFacts | undefined)[],
  options: {
    chunkBytes?: number;
    onProgress?: (bytes: number, builder: IndexBuilder) => void;
    /** An index of this file's first `from.bytes` bytes, continued instead of read again (see {@link resumable}). */
    from?: JsonlIndex;
  } = {},
): Promise<JsonlIndex> {
  const from = options.from !== undefined && resumable(options.from) ? options.from : undefined;
  const builder = new IndexBuilder(from);
  await indexRange(file, tasks, {
    start: builder.bytes,
    firstLine: builder.lines,
    ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
    onSegment: (segment) => {
      builder.append(segment);
      options.onProgress?.(segment.done, builder);
    },
  });
  return builder.finish();
}

/**
 * Whether an index can be continued from its end when its file grew: its last line ended with a newline (a line
 * still being written when it was built must be read again whole).
 */
export function resumable(index: JsonlIndex): boolean {
  const n = index.spans.count;
  if (n === 0) return index.bytes === 0;
  const last = index.spans.get(n - 1);
  return index.bytes === last.offset + last.length + 1;
}

/**
 * Reads lines of a file by their spans (one read per contiguous run of spans).
 * @returns the text of each span, in the order given.
 */
export async function readSpans(file: string, spans: readonly LineSpan[]): Promise<string[]> {
  if (spans.length === 0) return [];
  const handle = await open(file, 'r');
  try {
    const out: string[] = [];
    for (const span of spans) {
      const buf = Buffer.allocUnsafe(span.length);
      const { bytesRead } = await handle.read(buf, 0, span.length, span.offset);
      out.push(buf.toString('utf8', 0, bytesRead).replace(/\r$/, ''));
    }
    return out;
  } finally {
    await handle.close();
  }
}
