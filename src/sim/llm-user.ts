import type { ChatModel } from '../llm/chat-model.js';
import { RequestMessages } from '../llm/request-messages.js';
import { RoleError, type UserSimulator, type UserTurn, type VisibleMessage } from './roles.js';

/** Extra attempts when the model returns an empty user turn. */
const EMPTY_RETRIES = 2;

/**
 * The user role played by a model: its system prompt holds the guidelines and the task scenario; it sees only
 * the text exchanged with the agent, with roles flipped (the agent speaks as `user`, it answers as
 * `assistant`), as τ²'s user simulator does. An empty turn is retried, then the episode ends with a recorded
 * reason (`user_error`).
 */
export class LlmUser implements UserSimulator {
  readonly #model: ChatModel;
  readonly #systemPrompt: string;
  readonly #taskId: string;
  /** The request messages so far (the visible history only grows): system prompt, then flipped turns. */
  readonly #api = new RequestMessages();

  constructor(model: ChatModel, systemPrompt: string, taskId: string) {
    this.#model = model;
    this.#systemPrompt = systemPrompt;
    this.#taskId = taskId;
  }

  async respond(visible: readonly VisibleMessage[], signal?: AbortSignal): Promise<UserTurn> {
    if (this.#api.length === 0) this.#api.push({ role: 'system', content: this.#systemPrompt });
    for (const m of visible.slice(this.#api.length - 1))
      this.#api.push({ role: m.role === 'agent' ? 'user' : 'assistant', content: m.content });
    const messages = this.#api;
    for (let attempt = 0; ; attempt++) {
      const completion = await this.#model.complete(messages, this.#taskId, undefined, signal);
      const text = completion.content?.trim() ?? '';
      if (text !== '' && completion.toolCalls.length === 0)
        return { content: completion.content ?? text, usage: completion.usage };
      if (attempt >= EMPTY_RETRIES) {
        throw new RoleError(
          'user',
          'invalid_output',
          `the user model returned ${text === '' ? 'an empty turn' : 'tool calls'} ${attempt + 1} times`,
        );
      }
    }
  }
}
