import type { AssistantMessage, ChatMessage } from './messages.js';

export { AbortedError } from '../core/errors.js';
export { RoleError } from '../llm/role-error.js';

/** Token usage of one model call (absent for scripted roles); `retries`: HTTP retries before it succeeded. */
export interface Usage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cost_usd: number;
  readonly retries?: number;
}

/** The sum of two usages; `undefined` stands for none. */
export function addUsage(a: Usage, b: Usage | undefined): Usage {
  if (b === undefined) return a;
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    cost_usd: a.cost_usd + b.cost_usd,
    retries: (a.retries ?? 0) + (b.retries ?? 0),
  };
}

/** One agent turn: a text message, or one or more tool calls (text alongside calls is allowed, as in τ²). */
export interface AgentTurn {
  readonly message: AssistantMessage;
  readonly usage?: Usage;
}

/**
 * The agent role: given the conversation so far (no system message; the agent adds its own), produce the next
 * assistant message. Implementations: the oracle agent (scripted, per domain) and the LLM agent.
 */
export interface Agent {
  respond(messages: readonly ChatMessage[], signal?: AbortSignal): Promise<AgentTurn>;
  /**
   * Told, before the first turn, that an earlier part of the conversation (a prefix, `cove generate --from`)
   * already identified the customer `userId`: a scripted agent then does not ask who they are.
   */
  knowUser?(userId: string): void;
}

/** One user turn. */
export interface UserTurn {
  readonly content: string;
  readonly usage?: Usage;
  /** The user ends the conversation with this turn (the JSON user's `is_task_complete`), like a stop token in
   * `content` does. */
  readonly stop?: boolean;
}

/** What the user simulator sees: only text exchanged with the agent (never tool calls or results), as in τ². */
export interface VisibleMessage {
  readonly role: 'agent' | 'user';
  readonly content: string;
}

/** The user-simulator role. Implementations: the scripted user (per domain) and the LLM user. */
export interface UserSimulator {
  respond(visible: readonly VisibleMessage[], signal?: AbortSignal): Promise<UserTurn>;
  /** The behaviour events the user enacted so far (docs/conversations.md); scripted users report them, model
   * users do not. */
  enactedEvents?(): readonly string[];
  /**
   * Told, before the first turn, that the agent already identified this customer earlier in the conversation
   * (`cove generate --from`): a scripted user then does not give its identity unasked.
   */
  knownToAgent?(): void;
}
