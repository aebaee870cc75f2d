import { pyJsonDumps } from '../../core/py-json.js';
import { toPyValue } from '../../core/py-value.js';
import type { AssistantMessage, ChatMessage } from '../messages.js';
import type { Agent, AgentTurn } from '../roles.js';

/**
 * The domain-neutral half of a scripted (oracle) agent (docs/conversations.md): it keeps the customer's texts, makes
 * one tool call per turn and hands each call's result back to the domain with the lookup it was made for, and
 * offers the conversation window of the current request. A domain's oracle supplies `decide` (what to do next)
 * and `ingest` (what a tool result teaches it). It reads nothing but the conversation's messages.
 */
export abstract class ScriptedAgent<Lookup> implements Agent {
  /** Every customer text so far, in order. */
  protected readonly userTexts: string[] = [];
  /** Index in {@link userTexts} where the conversation about the current request starts. */
  protected window = 0;
  #seen = 0;
  #calls = 0;
  #pending: { id: string; lookup: Lookup } | undefined;
  /** {@link said} per start index, for the texts so far (cleared when a customer text arrives). */
  readonly #saidFrom = new Map<number, string>();

  async respond(messages: readonly ChatMessage[]): Promise<AgentTurn> {
    let userSpoke = false;
    for (const m of messages.slice(this.#seen)) {
      if (m.role === 'user') {
        this.userTexts.push(m.content);
        this.#saidFrom.clear();
        userSpoke = true;
      } else if (m.role === 'tool' && m.tool_call_id === this.#pending?.id) {
        const lookup = this.#pending.lookup;
        this.#pending = undefined;
        this.ingest(lookup, m.content);
      }
    }
    this.#seen = messages.length;
    return { message: this.decide(userSpoke) };
  }

  /** The customer an earlier part of the conversation identified; a domain's oracle that identifies users
   * overrides this to skip asking (the default ignores it). */
  knowUser(_userId: string): void {}

  /** Learns from the result of the call made for `lookup` (τ² tool errors start with `Error`). */
  protected abstract ingest(lookup: Lookup, content: string): void;

  /** The next message; `userSpoke`: a customer text arrived since the last turn (else a tool result did). */
  protected abstract decide(userSpoke: boolean): AssistantMessage;

  /** One tool call (ids `call_1`, `call_2`, … per episode); its result comes back through {@link ingest}. */
  protected call(lookup: Lookup, name: string, args: Record<string, unknown>): AssistantMessage {
    const id = `call_${++this.#calls}`;
    this.#pending = { id, lookup };
    return {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id,
          type: 'function',
          function: { name, arguments: pyJsonDumps(toPyValue(args), { ensureAscii: false }) },
        },
      ],
    };
  }

  protected say(text: string): AssistantMessage {
    return { role: 'assistant', content: text };
  }

  /** The customer's texts from index `from` on, joined and lower-cased. */
  protected said(from = 0): string {
    let text = this.#saidFrom.get(from);
    if (text === undefined) {
      text = this.userTexts.slice(from).join('\n').toLowerCase();
      this.#saidFrom.set(from, text);
    }
    return text;
  }

  /** The customer's last text, lower-cased. */
  protected lastSaid(): string {
    return (this.userTexts[this.userTexts.length - 1] ?? '').toLowerCase();
  }
}
