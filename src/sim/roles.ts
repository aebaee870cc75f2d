import type { AssistantMessage, ChatMessage } from './messages.js';

/** Token usage of one model call (absent for scripted roles); `retries`: HTTP retries before it succeeded. */
export interface Usage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cost_usd: number;
  readonly retries?: number;
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
  respond(messages: readonly ChatMessage[]): Promise<AgentTurn>;
}

/** One user turn. */
export interface UserTurn {
  readonly content: string;
  readonly usage?: Usage;
}

/** What the user simulator sees: only text exchanged with the agent (never tool calls or results), as in τ². */
export interface VisibleMessage {
  readonly role: 'agent' | 'user';
  readonly content: string;
}

/** The user-simulator role. Implementations: the scripted user (per domain) and the LLM user. */
export interface UserSimulator {
  respond(visible: readonly VisibleMessage[]): Promise<UserTurn>;
}

/** A role failure that should end the episode with a recorded reason (not a crash). */
export class RoleError extends Error {
  readonly role: 'agent' | 'user';
  readonly kind: 'infrastructure' | 'invalid_output';
  constructor(
    role: 'agent' | 'user',
    kind: 'infrastructure' | 'invalid_output',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RoleError';
    this.role = role;
    this.kind = kind;
  }
}
