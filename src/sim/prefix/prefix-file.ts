import { z } from 'zod';
import { InputFileError } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import { describeIssue, formatIssuePath } from '../../core/schema-helpers.js';
import { MAX_JSON_DEPTH, readInputText } from '../../io/read-input.js';
import { jsonNestingExceeds } from '../../io/read-jsonl.js';

/**
 * The conversations file of `cove generate --from` (docs/conversations.md, "Starting from a conversation"): JSON
 * Lines, each line `{"id": "<unique>", "messages": [...]}` with the messages in the OpenAI chat shape — a plain
 * chat without tools, or a trajectory cut after one of the agent's replies (assistant `tool_calls` answered by
 * `tool` messages). Blank lines are skipped.
 */

const toolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

const messageSchema = z.discriminatedUnion('role', [
  z.object({
    role: z.literal('user'),
    content: z.string().refine((s) => s.trim() !== '', 'must not be empty'),
  }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
  }),
  z.object({
    role: z.literal('tool'),
    tool_call_id: z.string().min(1),
    name: z.string().optional(),
    content: z.string(),
  }),
]);

const lineSchema = z.object({
  id: z
    .string()
    .min(1)
    .refine((s) => s.trim() === s, 'must not start or end with spaces'),
  messages: z.array(messageSchema).min(1),
});

type PrefixLine = z.output<typeof lineSchema>;

/** One tool call of a prefix, to be replayed on the episode's database. */
export interface PrefixCall {
  readonly id: string;
  readonly name: string;
  /** The JSON text of the arguments, as the file gives it. */
  readonly arguments: string;
  /** Index of the assistant message that made it. */
  readonly messageIndex: number;
}

/** A message of a prefix as the file gives it (before the replay fills in tool outputs). */
export type PrefixFileMessage = PrefixLine['messages'][number];

/** One conversation of the file, validated. */
export interface PrefixEntry {
  readonly id: string;
  /** 0-based position among the file's conversations (the round-robin pairing uses it). */
  readonly index: number;
  /** 1-based line number in the file (for errors). */
  readonly line: number;
  readonly messages: readonly PrefixFileMessage[];
  /** The tool calls, in order. */
  readonly calls: readonly PrefixCall[];
}

/** The whole file: its conversations and the sha256 of its bytes (part of the run's identity). */
export interface PrefixFile {
  readonly file: string;
  readonly sha256: string;
  readonly entries: readonly PrefixEntry[];
}

/** Most conversations one file may hold. */
export const MAX_PREFIXES = 100_000;

/**
 * Reads and validates a conversations file. Besides the shape, each conversation must: hold no `system` message
 * (the agent's system prompt is the run's); answer every tool call with exactly one `tool` message right after
 * the assistant message that made it (ids unique within the conversation); and end with an assistant message
 * with text and no tool calls (the user speaks next — that is where the user simulator brings up its need).
 * @throws {InputFileError} naming the file, the line and the field of the first problem.
 */
export function readPrefixFile(file: string): PrefixFile {
  const text = readInputText(file, { what: 'conversations for --from' });
  const entries: PrefixEntry[] = [];
  const ids = new Map<string, number>();
  text.split('\n').forEach((raw, n) => {
    const line = n + 1;
    const where = (path: string) => `line ${line}, ${path}`;
    if (raw.trim() === '') return;
    if (jsonNestingExceeds(raw))
      throw new InputFileError(file, where('$'), `nests deeper than ${MAX_JSON_DEPTH} levels`);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new InputFileError(file, where('$'), `is not JSON (${(e as Error).message})`);
    }
    const systemAt = systemMessageIndex(value);
    if (systemAt !== -1) {
      throw new InputFileError(
        file,
        where(`$.messages[${systemAt}].role`),
        "is 'system': a conversation prefix holds no system message (the agent's system prompt is the run's)",
      );
    }
    const parsed = lineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputFileError(
        file,
        where(issue === undefined ? '$' : formatIssuePath(issue.path)),
        issue === undefined ? 'invalid' : describeIssue(issue, value),
      );
    }
    const { id, messages } = parsed.data;
    const earlier = ids.get(id);
    if (earlier !== undefined)
      throw new InputFileError(file, where('$.id'), `'${id}' is also the id on line ${earlier}`);
    ids.set(id, line);
    if (entries.length >= MAX_PREFIXES)
      throw new InputFileError(file, where('$'), `more than ${MAX_PREFIXES} conversations`);
    entries.push({ id, index: entries.length, line, messages, calls: checkStructure(file, line, messages) });
  });
  if (entries.length === 0) throw new InputFileError(file, '$', 'holds no conversation');
  return { file, sha256: sha256Hex(text), entries };
}

function systemMessageIndex(value: unknown): number {
  if (value === null || typeof value !== 'object') return -1;
  const messages = (value as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return -1;
  return messages.findIndex(
    (m) => m !== null && typeof m === 'object' && (m as { role?: unknown }).role === 'system',
  );
}

/** Checks the order of calls and results and the last message; returns the calls. */
function checkStructure(file: string, line: number, messages: readonly PrefixFileMessage[]): PrefixCall[] {
  const fail = (i: number, field: string, reason: string): never => {
    throw new InputFileError(file, `line ${line}, $.messages[${i}]${field}`, reason);
  };
  const calls: PrefixCall[] = [];
  const seen = new Set<string>();
  let open: Map<string, PrefixCall> = new Map();
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      const call = open.get(m.tool_call_id);
      if (call === undefined) {
        fail(
          i,
          '.tool_call_id',
          `'${m.tool_call_id}' answers no open tool call of the assistant message before it`,
        );
      }
      if (m.name !== undefined && m.name !== call?.name)
        fail(i, '.name', `is '${m.name}', but call '${m.tool_call_id}' is to '${call?.name}'`);
      open.delete(m.tool_call_id);
      return;
    }
    if (open.size > 0) {
      const [first] = open.keys();
      fail(i, '', `comes before the result of tool call '${first}' (each call needs a tool message first)`);
    }
    if (m.role !== 'assistant') return;
    const text = m.content ?? null;
    const list = m.tool_calls ?? [];
    if (list.length === 0 && (text === null || text.trim() === ''))
      fail(i, '.content', 'is empty, and the message makes no tool call');
    open = new Map();
    list.forEach((c, j) => {
      if (seen.has(c.id)) fail(i, `.tool_calls[${j}].id`, `'${c.id}' is used twice in this conversation`);
      seen.add(c.id);
      const call = { id: c.id, name: c.function.name, arguments: c.function.arguments, messageIndex: i };
      open.set(c.id, call);
      calls.push(call);
    });
  });
  const last = messages.length - 1;
  if (open.size > 0) {
    const [first] = open.keys();
    fail(last, '', `ends before the result of tool call '${first}'`);
  }
  const end = messages[last];
  if (end?.role !== 'assistant' || (end.tool_calls ?? []).length > 0) {
    fail(
      last,
      '.role',
      `is '${end?.role}'${end?.role === 'assistant' ? ' with tool calls' : ''}: a prefix must end with a reply of the agent (an assistant message with text and no tool calls), so that the user speaks next`,
    );
  }
  return calls;
}
