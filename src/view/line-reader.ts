import {
  countMessages,
  coveFacts,
  type EpisodeFacts,
  type MessageCounts,
  recordProblem,
  type TaskFacts,
} from './facts.js';

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

/** What one line of a trajectories file is: blank, malformed (with the reason), or a record's facts. */
export type LineOutcome =
  | { readonly kind: 'blank' }
  | { readonly kind: 'malformed'; readonly reason: string }
  | {
      readonly kind: 'record';
      readonly facts: EpisodeFacts;
      /** Bytes of the `messages` array relative to the line's start, `-1` when not located. */
      readonly messagesStart: number;
      readonly messagesEnd: number;
    };

/**
 * Reads the line `buf[start, end)` (without its newline; a trailing `\r` is ignored) of a trajectories file: the
 * fast read of {@link fastFields} when the line has cove's layout, else a parse of the whole line.
 * @param line the line's number in its file, stored in its facts.
 * @param state carried from line to line (the last record's tools text).
 */
export function readLine(
  buf: Buffer,
  start: number,
  endRaw: number,
  line: number,
  tasks: readonly (TaskFacts | undefined)[],
  state: { tools?: Buffer },
): LineOutcome {
  let end = endRaw;
  if (end > start && buf[end - 1] === 0x0d) end--;
  let s = start;
  while (s < end && (buf[s] === 0x20 || buf[s] === 0x09)) s++;
  if (s === end) return { kind: 'blank' };
  const fast = fastFields(buf, s, end, state);
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
  if (problem !== undefined) return { kind: 'malformed', reason: problem };
  const taskIndex = typeof fields.task_index === 'number' ? fields.task_index : -1;
  return {
    kind: 'record',
    facts: coveFacts(line, fields, counts, tasks[taskIndex]),
    messagesStart: ms,
    messagesEnd: me,
  };
}
