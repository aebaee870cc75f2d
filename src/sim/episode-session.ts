import { JsonSyntaxError, parsePyJson } from '../core/py-json-parse.js';
import type { PyValue } from '../core/py-value.js';
import type { EntityRef } from '../env/change-tracking.js';
import type { Episode } from '../env/episode.js';
import { canonicalCallKey } from './call-key.js';
import {
  AGENT_GREETING,
  type AssistantMessage,
  type ChatMessage,
  hasStopToken,
  type ToolMessage,
} from './messages.js';
import type { ToolOutputSimulator } from './model-tools/tool-model.js';
import { visiblePrefix } from './prefix/conversation-prefix.js';
import {
  AbortedError,
  addUsage,
  RoleError,
  type Usage,
  type UserSimulator,
  type VisibleMessage,
} from './roles.js';

/**
 * How an episode ended: τ²'s termination reasons plus cove's `repeated_tool_call` guard and `tools_error` (the
 * model playing the tool outputs gave no valid output, `--tool-outputs model`).
 */
export type TerminationReason =
  | 'user_stop'
  | 'agent_stop'
  | 'max_steps'
  | 'too_many_errors'
  | 'agent_error'
  | 'user_error'
  | 'tools_error'
  | 'infrastructure_error'
  | 'repeated_tool_call';

/** Loop limits (τ² defaults). */
export interface EpisodeLimits {
  /** @defaultValue 200 (τ²'s CLI default) */
  readonly maxSteps?: number;
  /** Cumulative tool errors that end the episode. @defaultValue 10 */
  readonly maxErrors?: number;
  /** End the episode when the agent makes the same tool call (same name, same arguments by meaning) this many
   * times in a row; `null` turns the guard off (as under `text: tau2`). @defaultValue 5 */
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
  /** The longest run of consecutive identical calls (name + canonical arguments), guard or no guard. */
  readonly identicalCallRun?: number;
  /** Token usage per role; `tools` only when a model played the tool outputs. */
  readonly usage: { readonly agent: Usage; readonly user: Usage; readonly tools?: Usage };
  /** Token usage of each model-generated message, by its index in `messages` (scripted roles report none). */
  readonly messageUsage: readonly ({ readonly message_index: number } & Usage)[];
  /** Behaviour events the user simulator enacted (scripted users only; docs/conversations.md). */
  readonly enactedEvents?: readonly string[];
}

/** What one step returns: the messages it added (tool results, or the user's reply) and whether the episode ended. */
export interface StepResult {
  readonly messages: readonly ChatMessage[];
  readonly done: boolean;
  readonly termination?: TerminationReason;
}

/** Options of an {@link EpisodeSession}. */
export interface SessionOptions {
  readonly limits?: EpisodeLimits;
  /** Aborts a pending user-simulator call; the session then throws {@link AbortedError}. */
  readonly signal?: AbortSignal;
  /**
   * A conversation the episode continues instead of the greeting (`cove generate --from`): its messages (marked
   * `cove_prefix`, ending with a reply of the agent) open the episode and count as no step; its tool calls are
   * not the agent's (the caller replayed them on `env`'s base).
   */
  readonly prefix?: readonly ChatMessage[];
  /**
   * Tool outputs played by a model (`--tool-outputs model`): every call of a tool it handles is answered by it and
   * never reaches `env`, whose state therefore never changes. @defaultValue the environment executes every call
   */
  readonly toolOutputs?: ToolOutputSimulator;
}

const ZERO: Usage = { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0, retries: 0 };

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
 * One episode driven from outside, turn by turn, with τ²'s half-duplex loop rules (τ²'s `orchestrator/orchestrator.py`): the
 * agent's fixed greeting opens, the user simulator answers ({@link start}); each {@link stepAgent} takes one
 * assistant message and returns either its tool results (all calls run in order on the isolated `env`, one step
 * for all of them) or, for a text message, the user simulator's reply. `maxSteps` and `maxErrors` end the
 * episode after any step without a pending tool call (errors are checked last, so they win); a user text with a
 * stop token ends it (the text stays in the final user turn); the repeated-call guard compares calls by name and
 * canonical arguments. The in-process loop ({@link runEpisode}) and external callers (an RL trainer over HTTP)
 * drive the same object. Role failures end the episode with a recorded reason; nothing else is thrown except
 * {@link AbortedError} when `signal` aborts and usage errors (stepping a finished episode).
 */
export class EpisodeSession {
  readonly env: Episode;
  readonly #user: UserSimulator;
  readonly #signal: AbortSignal | undefined;
  readonly #toolOutputs: ToolOutputSimulator | undefined;
  readonly #maxSteps: number;
  readonly #maxErrors: number;
  readonly #repeatLimit: number | null;
  readonly messages: ChatMessage[];
  readonly #visible: VisibleMessage[];
  readonly toolCalls: ExecutedToolCall[] = [];
  readonly messageUsage: ({ message_index: number } & Usage)[] = [];
  #steps = 0;
  #toolErrors = 0;
  #agentUsage = ZERO;
  #userUsage = ZERO;
  #toolsUsage = ZERO;
  #lastCall = '';
  #repeats = 0;
  #longestRun = 0;
  #started = false;
  #termination: TerminationReason | undefined;
  #detail: string | undefined;

  constructor(env: Episode, user: UserSimulator, options: SessionOptions = {}) {
    this.env = env;
    this.#user = user;
    this.#signal = options.signal;
    const prefix = options.prefix ?? [];
    this.messages = prefix.length > 0 ? [...prefix] : [{ role: 'assistant', content: AGENT_GREETING }];
    this.#visible = prefix.length > 0 ? visiblePrefix(prefix) : [{ role: 'agent', content: AGENT_GREETING }];
    this.#toolOutputs = options.toolOutputs;
    this.#maxSteps = options.limits?.maxSteps ?? 200;
    this.#maxErrors = options.limits?.maxErrors ?? 10;
    this.#repeatLimit =
      options.limits?.repeatedCallLimit === undefined ? 5 : options.limits.repeatedCallLimit;
  }

  /** True once the episode has ended. */
  get done(): boolean {
    return this.#termination !== undefined;
  }

  /** How the episode ended, once it has. */
  get termination(): TerminationReason | undefined {
    return this.#termination;
  }

  /**
   * Opens the conversation: the greeting and the user simulator's first message (the episode may already be over
   * when the user stops at once). @returns every message so far.
   */
  async start(): Promise<readonly ChatMessage[]> {
    if (this.#started) throw new Error('episode already started');
    this.#started = true;
    await this.#userTurn();
    return [...this.messages];
  }

  /**
   * Applies one assistant message: executes its tool calls and returns their tool messages, or passes its text
   * to the user simulator and returns the user's reply. An empty message (no text, no tool call) ends the episode
   * with `agent_error`. `usage` is the token usage of the model call that produced it, if any.
   * @throws {Error} when the episode has not started or is already done.
   */
  async stepAgent(message: AssistantMessage, usage?: Usage): Promise<StepResult> {
    if (!this.#started) throw new Error('call start() before stepAgent()');
    if (this.done) throw new Error(`the episode is over (${this.#termination})`);
    const from = this.messages.length;
    this.#agentUsage = addUsage(this.#agentUsage, usage);
    const calls = message.tool_calls ?? [];
    const text = message.content;
    if (calls.length === 0 && (text === null || text.trim() === '')) {
      this.#finish('agent_error', 'the agent sent a message with neither text nor tool calls');
      return this.#result(from);
    }
    if (usage !== undefined) this.messageUsage.push({ message_index: this.messages.length, ...usage });
    this.#steps++;
    this.messages.push(message);
    if (calls.length === 0) {
      this.#visible.push({ role: 'agent', content: text ?? '' });
      if (!this.#checkLimits()) await this.#userTurn();
      return this.#result(from);
    }
    for (const call of calls) {
      await this.#executeCall(call);
      if (this.done) return this.#result(from); // the tool model failed
    }
    this.#steps++;
    if (this.#repeatLimit !== null && this.#repeats >= this.#repeatLimit) {
      this.#finish(
        'repeated_tool_call',
        `the agent repeated the identical ${this.#lastCall.split('\u0000')[0]} call ${this.#repeats} times`,
      );
    } else this.#checkLimits();
    return this.#result(from);
  }

  /** Ends the episode because the agent failed (a model error, an invalid reply): `agent_error` or `infrastructure_error`. */
  failAgent(error: unknown): void {
    if (this.done) return;
    if (error instanceof AbortedError) throw error;
    if (error instanceof RoleError) {
      this.#finish(
        error.kind === 'infrastructure' ? 'infrastructure_error' : `${error.role}_error`,
        error.message,
      );
    } else this.#finish('agent_error', error instanceof Error ? error.message : String(error));
  }

  /** Everything the episode produced so far (its termination is `undefined`-free only once done). */
  outcome(): EpisodeOutcome {
    if (this.#termination === undefined) throw new Error('the episode is not over');
    return {
      messages: this.messages,
      termination: this.#termination,
      ...(this.#detail === undefined ? {} : { terminationDetail: this.#detail }),
      steps: this.#steps,
      toolErrors: this.#toolErrors,
      toolCalls: this.toolCalls,
      identicalCallRun: this.#longestRun,
      usage: {
        agent: this.#agentUsage,
        user: this.#userUsage,
        ...(this.#toolOutputs === undefined ? {} : { tools: this.#toolsUsage }),
      },
      messageUsage: this.messageUsage,
      ...(this.#user.enactedEvents === undefined ? {} : { enactedEvents: this.#user.enactedEvents() }),
    };
  }

  /** Releases the episode's database (rolls it back). Idempotent. */
  close(): void {
    this.env.close();
  }

  #result(from: number): StepResult {
    return {
      messages: this.messages.slice(from),
      done: this.done,
      ...(this.#termination === undefined ? {} : { termination: this.#termination }),
    };
  }

  #finish(termination: TerminationReason, detail?: string): void {
    this.#termination = termination;
    this.#detail = detail;
  }

  /** Ends the episode on `max_steps` / `too_many_errors` (errors win); true when it ended. */
  #checkLimits(): boolean {
    const limit =
      this.#toolErrors >= this.#maxErrors
        ? 'too_many_errors'
        : this.#steps >= this.#maxSteps
          ? 'max_steps'
          : undefined;
    if (limit !== undefined) this.#finish(limit);
    return limit !== undefined;
  }

  async #userTurn(): Promise<void> {
    let content: string;
    let stop = false;
    try {
      this.#signal?.throwIfAborted();
      const turn = await this.#user.respond(this.#visible, this.#signal);
      this.#userUsage = addUsage(this.#userUsage, turn.usage);
      content = turn.content;
      stop = turn.stop === true;
      if (turn.usage !== undefined)
        this.messageUsage.push({ message_index: this.messages.length, ...turn.usage });
    } catch (e) {
      if (this.#signal?.aborted === true || e instanceof AbortedError)
        throw new AbortedError('the episode was aborted');
      if (e instanceof RoleError)
        this.#finish(e.kind === 'infrastructure' ? 'infrastructure_error' : `${e.role}_error`, e.message);
      else this.#finish('user_error', e instanceof Error ? e.message : String(e));
      return;
    }
    this.#steps++;
    this.messages.push({ role: 'user', content });
    this.#visible.push({ role: 'user', content });
    const stopped = stop || hasStopToken(content);
    if (!this.#checkLimits() && stopped) this.#finish('user_stop');
  }

  /** A call's result from the tool model, or `undefined` when the model failed (the episode is then over). */
  async #simulate(
    simulator: ToolOutputSimulator,
    call: NonNullable<AssistantMessage['tool_calls']>[number],
  ): Promise<{ content: string; error: boolean; changed: EntityRef[] } | undefined> {
    const earlier = this.toolCalls.map((c) => ({
      name: c.name,
      arguments: c.arguments,
      output: (this.messages[c.messageIndex] as ToolMessage).content,
    }));
    try {
      this.#signal?.throwIfAborted();
      const out = await simulator.simulate(
        { name: call.function.name, arguments: call.function.arguments },
        { earlier, conversation: this.#visible },
        this.#signal,
      );
      this.#toolsUsage = addUsage(this.#toolsUsage, out.usage);
      if (out.usage !== undefined)
        this.messageUsage.push({ message_index: this.messages.length, ...out.usage });
      return { content: out.content, error: out.error, changed: [] };
    } catch (e) {
      if (this.#signal?.aborted === true || e instanceof AbortedError)
        throw new AbortedError('the episode was aborted');
      if (e instanceof RoleError)
        this.#finish(e.kind === 'infrastructure' ? 'infrastructure_error' : 'tools_error', e.message);
      else this.#finish('tools_error', e instanceof Error ? e.message : String(e));
      return undefined;
    }
  }

  async #executeCall(call: NonNullable<AssistantMessage['tool_calls']>[number]): Promise<void> {
    const parsed = parseArguments(call.function.arguments);
    const simulator = this.#toolOutputs;
    const result =
      'error' in parsed
        ? { content: invalidArgumentsError(parsed.error), error: true, changed: [] as EntityRef[] }
        : simulator?.handles(call.function.name) === true
          ? await this.#simulate(simulator, call)
          : this.env.call(call.function.name, parsed.value);
    if (result === undefined) return;
    if (result.error) this.#toolErrors++;
    const toolMessage: ToolMessage = {
      role: 'tool',
      tool_call_id: call.id,
      name: call.function.name,
      content: result.content,
    };
    this.messages.push(toolMessage);
    this.toolCalls.push({
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      argumentsValid: !('error' in parsed),
      error: result.error,
      changed: result.changed,
      messageIndex: this.messages.length - 1,
    });
    const signature = canonicalCallKey(
      call.function.name,
      'error' in parsed ? call.function.arguments : parsed.value,
    );
    this.#repeats = signature === this.#lastCall ? this.#repeats + 1 : 1;
    if (this.#repeats > this.#longestRun) this.#longestRun = this.#repeats;
    this.#lastCall = signature;
  }
}
