import { AGENT_GREETING, type ChatMessage } from '../messages.js';
import type { VisibleMessage } from '../roles.js';

/**
 * A conversation an episode continues instead of starting with the greeting (`cove generate --from`): its
 * messages in the OpenAI chat shape, each marked `cove_prefix: true`, ending with a reply of the agent; the
 * episode's tool outputs in it come from replaying its calls on the episode's database.
 */
export interface ConversationPrefix {
  /** The conversation's `id` in the file. */
  readonly id: string;
  /** Its position in the file (tasks are paired with prefixes round-robin by task index). */
  readonly index: number;
  readonly messages: readonly ChatMessage[];
  /** The customer the prefix's tool calls identified (the tasks paired with it are about them), if any. */
  readonly userId?: string;
}

/**
 * What the user simulator has seen of a prefix: the user texts and the agent's text replies (an assistant
 * message with tool calls is not shown, as in the episode loop).
 */
export function visiblePrefix(messages: readonly ChatMessage[]): VisibleMessage[] {
  return messages.flatMap((m): VisibleMessage[] => {
    if (m.role === 'user') return [{ role: 'user', content: m.content }];
    if (m.role === 'assistant' && (m.tool_calls?.length ?? 0) === 0 && m.content !== null)
      return [{ role: 'agent', content: m.content }];
    return [];
  });
}

/** The greeting as the scripted roles expect to see it first. */
export const GREETING_VISIBLE: VisibleMessage = { role: 'agent', content: AGENT_GREETING };
export const GREETING_MESSAGE: ChatMessage = { role: 'assistant', content: AGENT_GREETING };

/** True for a message of a conversation prefix. */
export function isPrefixMessage(m: ChatMessage): boolean {
  return m.role !== 'system' && m.cove_prefix === true;
}

/** The number of leading prefix messages of a conversation. */
export function prefixLength(messages: readonly ChatMessage[]): number {
  let n = 0;
  while (n < messages.length && isPrefixMessage(messages[n] as ChatMessage)) n++;
  return n;
}
