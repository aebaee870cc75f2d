import { open } from 'node:fs/promises';
import {
  countMessages,
  coveFacts,
  type EpisodeFacts,
  type MalformedLine,
  type MessageCounts,
  recordProblem,
  type TaskFacts,
} from './facts.js';

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

const NL = 0x0a;
const MESSAGES = Buffer.from(',"messages":[');
const TOOLS = Buffer.from('],"tools":[');
const TAIL = Buffer.from('],"termination_reason":');
/** Messages as cove writes them: `role` is the first key, and `{"role":"` is rare enough to search fast. */
const ROLE = Buffer.from('{"role":"');
const U = 'u'.charCodeAt(0);
const T = 't'.charCodeAt(0);

/** The fields the facts need, in one object shape for every record (keeps the reader's code monomorphic). */
function pick(head: Record<string, unknown>, tail: Record<string, unknown>): Record<string, unknown> {
  return {
    id: head.id,
    task_id: head.task_id,
    task_index: head.task_index,
    domain: head.domain,
    trial: head.trial,
    agent: head.agent,
    user: head.user,
    termination_reason: tail.termination_reason,
    verification: tail.verification,
    evaluation: tail.evaluation,
    usage: tail.usage,
    leaks: tail.leaks,
    invalid_tool_arguments: tail.invalid_tool_arguments,
    unknown_tool_calls: tail.unknown_tool_calls,
    failure: tail.failure,
  };
}

/**
 * Reads the fields of a record line without parsing its messages and tools (most of its bytes): cove writes
 * records with `JSON.stringify` in a fixed key order, `{…head…, "messages": […], "tools": […],
 * "termination_reason": …tail…}`, and in valid JSON the byte sequences searched for can only be those keys (a
 * quote inside a string is always escaped). The tools text of the previous record, kept in `state`, is checked
 * first (one byte comparison instead of a search). Returns `undefined` when the line does not have that layout;
 * the caller then parses the whole line.
 */
function fastFields(
  buf: Buffer,
  start: number,
  end: number,
  state: { tools?: Buffer },
): { fields: Record<string, unknown>; counts: MessageCounts; ms: number; me: number } | undefined {
  const line = buf.subarray(start, end);
  const m = line.indexOf(MESSAGES);
  if (m < 0) return undefined;
  const t = line.lastIndexOf(TAIL);
  if (t < m) return undefined;
  // the records of a run mostly carry the same tools: compare with the last ones instead of searching back
  let tools = -1;
  const known = state.tools;
  if (
    known !== undefined &&
    t - known.length > m &&
    line.compare(known, 0, known.length, t - known.length, t) === 0
  )
    tools = t - known.length;
  if (tools < 0) {
    tools = line.lastIndexOf(TOOLS, t);
    if (tools < m) return undefined;
    state.tools = Buffer.from(line.subarray(tools, t));
  }
  let head: unknown;
  let tail: unknown;
  try {
    head = JSON.parse(`${line.toString('utf8', 0, m)}}`);
    tail = JSON.parse(`{${line.toString('utf8', t + 2)}`);
  } catch {
    return undefined;
  }
  let userTurns = 0;
  let toolCalls = 0;
  let messages = 0;
  const ms = m + MESSAGES.length - 1;
  const region = line.subarray(0, tools);
  let at = region.indexOf(ROLE, ms);
  while (at >= 0) {
    messages++;
    const c = region[at + ROLE.length];
    if (c === U) userTurns++;
    else if (c === T) toolCalls++;
    at = region.indexOf(ROLE, at + ROLE.length);
  }
  // messages written with another key order: let the caller parse the line
  if (messages === 0 && line[ms + 1] !== 0x5d) return undefined;
  return {
    fields: pick(head as Record<string, unknown>, tail as Record<string, unknown>),
    counts: { userTurns, messages, toolCalls },
    ms,
    me: tools + 1,
  };
}

/**
 * Builds the index of a trajectories.jsonl file in one streaming pass (chunks of `chunkBytes`), never holding
 * more than a chunk and the facts. Each line becomes a span; a readable record also becomes facts (its
 * difficulty looked up in `tasks` by `task_index`); an unreadable one (not JSON, or not a trajectory record)
 * becomes a {@link MalformedLine} naming the reason. A later line with the same `id` supersedes an earlier one,
 * as in a run folder being resumed.
 * @param onProgress called after each chunk with the bytes indexed so far.
 * @throws when the file cannot be opened or read.
 */
export async function indexJsonl(
  file: string,
  tasks: readonly (TaskFacts | undefined)[],
  options: {
    chunkBytes?: number;
    onProgress?: (bytes: number, index: JsonlIndex) => void;
    /** An index of this file's first `from.bytes` bytes, continued instead of read again (see {@link resumable}). */
    from?: JsonlIndex;
  } = {},
): Promise<JsonlIndex> {
  const from = options.from !== undefined && resumable(options.from) ? options.from : undefined;
  // a copy: the earlier index (and what was computed from its facts) stays as it was
  const index: JsonlIndex =
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
  const byId = new Map<string, number>(index.facts.map((f, i) => [f.id, i]));
  /** The bytes from `],"tools":[` to the tail of the last fast-read record. */
  const scan: { tools?: Buffer } = {};
  const handle = await open(file, 'r');
  try {
    let buf = Buffer.allocUnsafe(options.chunkBytes ?? 8 * 1024 * 1024);
    let filled = 0; // bytes in buf
    let base = from?.bytes ?? 0; // file offset of buf[0]
    let eof = false;
    const addLine = (start: number, endRaw: number) => {
      let end = endRaw;
      if (end > start && buf[end - 1] === 0x0d) end--;
      const line = index.spans.count;
      let s = start;
      while (s < end && (buf[s] === 0x20 || buf[s] === 0x09)) s++;
      if (s === end) {
        index.spans.push(base + start, endRaw - start, -1, -1);
        index.blank++;
        return;
      }
      const fast = fastFields(buf, s, end, scan);
      let fields: Record<string, unknown>;
      let counts: MessageCounts;
      let ms = -1;
      let me = -1;
      let problem: string | undefined;
      if (fast !== undefined && recordProblem(fast.fields) === undefined) {
        fields = fast.fields;
        counts = fast.counts;
        ms = fast.ms + (s - start);
        me = fast.me + (s - start);
      } else {
        let value: unknown;
        try {
          value = JSON.parse(buf.toString('utf8', s, end));
        } catch (e) {
          value = undefined;
          problem = `not JSON (${(e as Error).message})`;
        }
        problem ??= recordProblem(value);
        fields = (value ?? {}) as Record<string, unknown>;
        counts = countMessages(fields.messages);
      }
      index.spans.push(base + start, endRaw - start, ms, me);
      if (problem !== undefined) {
        index.malformed.push({ line, reason: problem });
        return;
      }
      const taskIndex = typeof fields.task_index === 'number' ? fields.task_index : -1;
      const facts = coveFacts(line, fields, counts, tasks[taskIndex]);
      const earlier = byId.get(facts.id);
      if (earlier !== undefined) {
        index.facts[earlier] = facts;
        index.superseded++;
      } else {
        byId.set(facts.id, index.facts.length);
        index.facts.push(facts);
      }
    };
    while (!eof) {
      if (filled === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const { bytesRead } = await handle.read(buf, filled, buf.length - filled, base + filled);
      if (bytesRead === 0) eof = true;
      filled += bytesRead;
      let start = 0;
      for (;;) {
        const nl = buf.indexOf(NL, start);
        if (nl < 0 || nl >= filled) break;
        addLine(start, nl);
        start = nl + 1;
      }
      if (eof && start < filled) {
        addLine(start, filled);
        start = filled;
      }
      buf.copy(buf, 0, start, filled);
      base += start;
      filled -= start;
      index.bytes = base + filled;
      options.onProgress?.(base, index);
    }
  } finally {
    await handle.close();
  }
  // a superseded record keeps the file position of its latest line: keep facts in file order
  if (index.superseded > 0) index.facts.sort((a, b) => a.line - b.line);
  return index;
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
