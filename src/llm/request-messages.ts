/** A message sent to the chat-completions API (OpenAI shape). */
export type ApiMessage = Record<string, unknown> & { role: string };

/**
 * The `messages` of a chat-completions request that only ever grows (an episode's history), kept with its JSON
 * text: each message is serialized once, when it is pushed, instead of once per request. The text is exactly
 * `JSON.stringify(messages)`.
 */
export class RequestMessages {
  readonly #messages: ApiMessage[] = [];
  #json = '';

  /** Number of messages. */
  get length(): number {
    return this.#messages.length;
  }

  /** The messages, in order (read-only view). */
  get messages(): readonly ApiMessage[] {
    return this.#messages;
  }

  push(message: ApiMessage): void {
    const text = JSON.stringify(message);
    this.#json = this.#messages.length === 0 ? text : `${this.#json},${text}`;
    this.#messages.push(message);
  }

  /** `JSON.stringify` of the messages array. */
  json(): string {
    return `[${this.#json}]`;
  }
}

/** Serializes a messages array, plain or incremental. */
export function messagesJson(messages: readonly ApiMessage[] | RequestMessages): string {
  return messages instanceof RequestMessages ? messages.json() : JSON.stringify(messages);
}
