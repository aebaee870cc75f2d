import { ConfigError, InputFileError } from '../core/errors.js';
import { JsonSyntaxError, parsePyJson } from '../core/py-json-parse.js';
import type { PyDict } from '../core/py-value.js';
import type { Domain } from '../domains/domain.js';
import { deriveBase } from '../env/derive-base.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import type { Semantics } from '../env/tool.js';
import type { ChatMessage } from '../sim/messages.js';
import type { ConversationPrefix } from '../sim/prefix/conversation-prefix.js';
import type { PrefixEntry, PrefixFile } from '../sim/prefix/prefix-file.js';
import type { IdentifyRead } from '../tasks/constraint.js';
import { type IdentifyingCall, identifyReads, lastIdentifiedUser } from '../tasks/identified-user.js';
import type { RunTask } from '../tasks/task.js';

/** A conversation prefix with the database state after its tool calls (`cove generate --from`). */
export interface PrefixState {
  readonly prefix: ConversationPrefix;
  /** The run's base with the prefix's tool calls applied: the episodes of its tasks fork it, and those tasks
   * are drawn from it. */
  readonly base: EnvironmentBase;
  /** Canonical sha256 of that state. */
  readonly stateSha256: string;
  /**
   * The customer the prefix's tool calls identified (the last one, by the identify reads the domain's kinds
   * declare): the tasks paired with the prefix are drawn for that customer. Absent when no call identifies one.
   */
  readonly userId?: string;
}

/** How a task names its prefix (`cove.prefix` of a generated task; also on each trajectory record). */
export interface PrefixRef {
  readonly id: string;
  readonly index: number;
}

/**
 * The prefixes of a run, each replayed on the run's base. Task `i` is paired with prefix `i mod count`
 * (round-robin by task index), recorded as `cove.prefix` in the task.
 */
export class PrefixStates {
  readonly file: string;
  readonly sha256: string;
  readonly states: readonly PrefixState[];

  constructor(file: PrefixFile, states: readonly PrefixState[]) {
    this.file = file.file;
    this.sha256 = file.sha256;
    this.states = states;
  }

  /** The prefix paired with task index `index`. */
  forIndex(index: number): PrefixState {
    return this.states[index % this.states.length] as PrefixState;
  }

  /** The prefix a task names (`cove.prefix`), or `undefined` for a task without one.
   * @throws {ConfigError} when the task names a prefix this file does not hold at that position. */
  of(task: RunTask): PrefixState | undefined {
    const ref = (task.cove as { prefix?: PrefixRef } | undefined)?.prefix;
    if (ref === undefined) return undefined;
    const state = this.states[ref.index];
    if (state?.prefix.id !== ref.id) {
      throw new ConfigError(
        `task ${task.id} continues conversation '${ref.id}' (number ${ref.index + 1}), which ${this.file} does not hold there`,
      );
    }
    return state;
  }

  /** Closes every derived base. */
  close(): void {
    for (const s of this.states) s.base.close();
  }
}

/** `task` paired with `state`'s prefix (`cove.prefix`). */
export function withPrefix<T extends RunTask>(task: T, state: PrefixState): T {
  if (task.cove === undefined) return task;
  const prefix: PrefixRef = { id: state.prefix.id, index: state.prefix.index };
  return { ...task, cove: { ...task.cove, prefix } };
}

/**
 * Replays every conversation's tool calls, in order, on a fork of `base`, keeping the state after them as the
 * prefix's base, and builds the prefix messages (marked `cove_prefix: true`; each tool message holds what the
 * replay returned, so the conversation matches the database it continues on).
 * @throws {InputFileError} naming the file, the line, the conversation's id and the call when a call names a tool
 *   the domain lacks, has arguments that are not a JSON object, or fails on the database.
 */
export function replayPrefixes(
  domain: Domain,
  base: EnvironmentBase,
  file: PrefixFile,
  semantics: Semantics,
): PrefixStates {
  const known = new Set(domain.tools.map((t) => t.name));
  const reads = identifyReads(domain.synthesis?.kinds ?? []);
  const states: PrefixState[] = [];
  try {
    for (const entry of file.entries)
      states.push(replayOne(domain.name, known, reads, base, file.file, entry, semantics));
  } catch (e) {
    for (const s of states) s.base.close();
    throw e;
  }
  return new PrefixStates(file, states);
}

function replayOne(
  domainName: string,
  known: ReadonlySet<string>,
  reads: readonly IdentifyRead[],
  base: EnvironmentBase,
  file: string,
  entry: PrefixEntry,
  semantics: Semantics,
): PrefixState {
  const outputs = new Map<string, string>();
  const done: IdentifyingCall[] = [];
  const derived = deriveBase(
    base,
    (episode) => {
      for (const call of entry.calls) {
        const message = entry.messages[call.messageIndex];
        const j =
          message?.role === 'assistant' ? (message.tool_calls ?? []).findIndex((c) => c.id === call.id) : 0;
        const fail = (field: string, reason: string): never => {
          throw new InputFileError(
            file,
            `line ${entry.line}, $.messages[${call.messageIndex}].tool_calls[${j}]${field}`,
            `conversation '${entry.id}', call '${call.id}' to ${call.name}: ${reason}`,
          );
        };
        if (!known.has(call.name))
          fail('.function.name', `the ${domainName} domain has no tool ${call.name}`);
        let args: ReturnType<typeof parsePyJson> | undefined;
        try {
          args = parsePyJson(call.arguments);
        } catch (e) {
          if (!(e instanceof JsonSyntaxError)) throw e;
          fail('.function.arguments', `the arguments are not JSON (${e.message})`);
        }
        if (!(args instanceof Map)) fail('.function.arguments', 'the arguments are not a JSON object');
        const result = episode.call(call.name, args as NonNullable<typeof args>);
        if (result.error) fail('', `replaying it on the run's database failed: ${result.content}`);
        outputs.set(call.id, result.content);
        done.push({ name: call.name, args: args as PyDict, result: result.content });
      }
    },
    { semantics },
  );
  const names = new Map(entry.calls.map((c) => [c.id, c.name]));
  const messages = entry.messages.map((m): ChatMessage => {
    switch (m.role) {
      case 'user':
        return { role: 'user', content: m.content, cove_prefix: true };
      case 'tool':
        return {
          role: 'tool',
          tool_call_id: m.tool_call_id,
          name: names.get(m.tool_call_id) ?? m.name ?? '',
          content: outputs.get(m.tool_call_id) ?? m.content,
          cove_prefix: true,
        };
      default:
        return {
          role: 'assistant',
          content: m.content ?? null,
          ...(m.tool_calls === undefined || m.tool_calls.length === 0
            ? {}
            : {
                tool_calls: m.tool_calls.map((c) => ({
                  id: c.id,
                  type: 'function' as const,
                  function: { name: c.function.name, arguments: c.function.arguments },
                })),
              }),
          cove_prefix: true,
        };
    }
  });
  const identified = lastIdentifiedUser(reads, done);
  const userId = identified === undefined ? {} : { userId: identified.userId };
  return {
    prefix: { id: entry.id, index: entry.index, messages, ...userId },
    base: derived,
    stateSha256: derived.hashes().canonical_sha256,
    ...userId,
  };
}
