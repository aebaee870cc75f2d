import { JsonSyntaxError, parsePyJson } from '../core/py-json-parse.js';
import type { PyValue } from '../core/py-value.js';
import type { EntityRef } from '../env/change-tracking.js';
import type { Episode } from '../env/episode.js';
import { AGENT_GREETING, type ChatMessage, hasStopToken, type ToolMessage } from './messages.js';
import { type Agent, RoleError, type Usage, type UserSimulator, type VisibleMessage } from './roles.js';

/** How an episode ended: τ²'s termination reasons plus cove's `repeated_tool_call` guard. */
export type TerminationReason =
  | 'user_stop'
  | 'agent_stop'
  | 'max_steps'
  | 'too_many_errors'
  | 'agent_error'
  | 'user_error'
  | 'infrastructure_error'
  | 'repeated_tool_call';

/** Loop limits (τ² defaults). */
export interface EpisodeLimits {
  /** @defaultValue 200 (τ²'s CLI default) */
  readonly maxSteps?: number;
  /** Cumulative tool errors that end the episode. @defaultValue 10 */
  readonly maxErrors?: number;
  /** End the episode when the agent makes the identical tool call this many times in a row; `null` turns the
   * guard off (as under `text: tau2`). @defaultValue 5 */
  readonly repeatedCallLimit?: number | null;
}

/** One executed tool call of the agent. */
export interface ExecutedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  /** False when the arguments were not a valid JSON object (cove's own tool error was returned). */
  readonly argumentsValid: boolean;
  readonly error: boolean;
  readonly changed: readonly EntityRef[];
  /** Index of the tool message in `messages`. */
  readonly messageIndex: number;
}

/** Everything an episode produced. */
export interface EpisodeOutcome {
  /** The conversation, greeting first, in the OpenAI chat shape (no system message). */
  readonly messages: ChatMessage[];
  readonly termination: TerminationReason;
  /** Why a role failed, for error terminations. */
  readonly terminationDetail?: string;
  readonly steps: number;
  readonly toolErrors: number;
  readonly toolCalls: readonly ExecutedToolCall[];
  readonly usage: { readonly agent: Usage; readonly user: Usage };
  /** Token usage of each model-generated message, by its index in `messages` (scripted roles report none). */
  readonly messageUsage: readonly ({ readonly message_index: number } & Usage)[];
}

const ZERO: Usage = { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0, retries: 0 };
const add = (a: Usage, b: Usage | undefined): Usage =>
  b === undefined
    ? a
    : {
        prompt_tokens: a.prompt_tokens + b.prompt_tokens,
        completion_tokens: a.completion_tokens + b.completion_tokens,
        cost_usd: a.cost_usd + b.cost_usd,
        retries: (a.retries ?? 0) + (b.retries ?? 0),
      };

/** cove's answer to tool-call arguments that are not a JSON object (a documented deviation: τ² aborts the run). */
export function invalidArgumentsError(detail: string): string {
  return `Error: cove: the tool-call arguments are not a valid JSON object (${detail})`;
}

function parseArguments(text: string): { value: PyValue } | { error: string } {
  try {
    const value = parsePyJson(text);
    return value instanceof Map ? { value } : { error: 'expected a JSON object' };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { error: e.message };
    throw e;
  }
}

/**
 * Runs one episode with τ²'s half-duplex loop (`tau2-spec.md` §7.1): the agent greets, the user answers, the
 * agent's tool calls run in order on the isolated `episode` (one step for all of them), `maxSteps` and
 * `maxErrors` end the episode after any step without a pending tool call (errors are checked last, so they
 * win), a user text with a stop token ends it (its text stays in the final user turn). Role failures end it with
 * `agent_error`, `user_error` or `infrastructure_error` and a recorded reason; nothing is thrown.
 */
export async function runEpisode(
  episode: Episode,
  agent: Agent,
  user: UserSimulator,
  limits: EpisodeLimits = {},
): Promise<EpisodeOutcome> {
  const maxSteps = limits.maxSteps ?? 200;
  const maxErrors = limits.maxErrors ?? 10;
  const repeatLimit = limits.repeatedCallLimit === undefined ? 5 : limits.repeatedCallLimit;
  const messages: ChatMessage[] = [{ role: 'assistant', content: AGENT_GREETING }];
  const visible: VisibleMessage[] = [{ role: 'agent', content: AGENT_GREETING }];
  const toolCalls: ExecutedToolCall[] = [];
  let steps = 0;
  let toolErrors = 0;
  let agentUsage = ZERO;
  let userUsage = ZERO;
  let lastCall = '';
  const messageUsage: ({ message_index: number } & Usage)[] = [];
  let repeats = 0;

  const finish = (termination: TerminationReason, terminationDetail?: string): EpisodeOutcome => ({
    messages,
    termination,
    ...(terminationDetail === undefined ? {} : { terminationDetail }),
    steps,
    toolErrors,
    toolCalls,
    usage: { agent: agentUsage, user: userUsage },
    messageUsage,
  });
  const limitReached = (): TerminationReason | undefined =>
    toolErrors >= maxErrors ? 'too_many_errors' : steps >= maxSteps ? 'max_steps' : undefined;
  const failure = (e: unknown, role: 'agent' | 'user'): EpisodeOutcome => {
    if (e instanceof RoleError) {
      return finish(e.kind === 'infrastructure' ? 'infrastructure_error' : `${e.role}_error`, e.message);
    }
    return finish(`${role}_error`, e instanceof Error ? e.message : String(e));
  };

  for (;;) {
    let userText: string;
    try {
      const turn = await user.respond(visible);
      userUsage = add(userUsage, turn.usage);
      userText = turn.content;
      if (turn.usage !== undefined) messageUsage.push({ message_index: messages.length, ...turn.usage });
    } catch (e) {
      return failure(e, 'user');
    }
    steps++;
    messages.push({ role: 'user', content: userText });
    visible.push({ role: 'user', content: userText });
    const stopped = hasStopToken(userText);
    const limit = limitReached();
    if (limit !== undefined) return finish(limit);
    if (stopped) return finish('user_stop');

    for (;;) {
      let message: ChatMessage;
      try {
        const turn = await agent.respond(messages);
        agentUsage = add(agentUsage, turn.usage);
        message = turn.message;
        if (turn.usage !== undefined) messageUsage.push({ message_index: messages.length, ...turn.usage });
      } catch (e) {
        return failure(e, 'agent');
      }
      const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
      const text = message.role === 'assistant' ? message.content : null;
      if (calls.length === 0 && (text === null || text.trim() === '')) {
        return finish('agent_error', 'the agent sent a message with neither text nor tool calls');
      }
      steps++;
      messages.push(message);
      if (calls.length === 0) {
        visible.push({ role: 'agent', content: text ?? '' });
        const l = limitReached();
        if (l !== undefined) return finish(l);
        break;
      }
      for (const call of calls) {
        const parsed = parseArguments(call.function.arguments);
        const result =
          'error' in parsed
            ? { content: invalidArgumentsError(parsed.error), error: true, changed: [] as EntityRef[] }
            : episode.call(call.function.name, parsed.value);
        if (result.error) toolErrors++;
        const toolMessage: ToolMessage = {
          role: 'tool',
          tool_call_id: call.id,
          name: call.function.name,
          content: result.content,
        };
        messages.push(toolMessage);
        toolCalls.push({
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
          argumentsValid: !('error' in parsed),
          error: result.error,
          changed: result.changed,
          messageIndex: messages.length - 1,
        });
        const signature = `${call.function.name}\u0000${call.function.arguments}`;
        repeats = signature === lastCall ? repeats + 1 : 1;
        lastCall = signature;
      }
      steps++;
      if (repeatLimit !== null && repeats >= repeatLimit) {
        return finish(
          'repeated_tool_call',
          `the agent repeated the identical ${lastCall.split('\u0000')[0]} call ${repeats} times`,
        );
      }
      const l = limitReached();
      if (l !== undefined) return finish(l);
    }
  }
}
