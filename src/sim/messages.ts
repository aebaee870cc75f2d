/**
 * Conversation messages in the OpenAI chat shape (docs/design.md §6): tool-call arguments are JSON strings, tool
 * results are `role: "tool"` messages linked by `tool_call_id`.
 */

export interface ToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
  /** Never set: a conversation prefix holds no system message. */
  readonly cove_prefix?: undefined;
}

export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
  /** Set on the messages of a conversation prefix (`cove generate --from`): given, not generated; weight 0 in
   * every training export. */
  readonly cove_prefix?: true;
}

export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string | null;
  readonly tool_calls?: readonly ToolCall[];
  /** Reasoning text when the model server returned one (kept, never shown to the user). */
  readonly reasoning_content?: string;
  /** Set on the messages of a conversation prefix (`cove generate --from`): given, not generated; weight 0 in
   * every training export. */
  readonly cove_prefix?: true;
}

export interface ToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly name: string;
  readonly content: string;
  /** Set on the messages of a conversation prefix (`cove generate --from`): given, not generated; weight 0 in
   * every training export. */
  readonly cove_prefix?: true;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** τ²'s fixed opening line of the agent (τ²'s `orchestrator/orchestrator.py`). */
export const AGENT_GREETING = 'Hi! How can I help you today?';

/** User stop tokens (substring match on text messages, τ²'s `orchestrator/orchestrator.py`). */
export const STOP_TOKENS = ['###STOP###', '###TRANSFER###', '###OUT-OF-SCOPE###'] as const;

/** True when a user text contains a stop token. */
export function hasStopToken(text: string): boolean {
  return STOP_TOKENS.some((t) => text.includes(t));
}

/** The texts of the assistant messages (τ²'s communicate rule reads these, tool-call messages included). */
export function agentTexts(messages: readonly ChatMessage[]): string[] {
  return messages.flatMap((m) => (m.role === 'assistant' && m.content !== null ? [m.content] : []));
}
