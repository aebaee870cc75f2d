import type { MockScript } from '../server/mock-llm/app.js';
import type { AssistantMessage, ChatMessage } from '../sim/messages.js';
import type { Agent, AgentTurn, UserSimulator, UserTurn, VisibleMessage } from '../sim/roles.js';

/** A chat-completions server on 127.0.0.1 that answers from a script (`cove mock-llm --mode script`, in-process). */
export interface ScriptedChatServer {
  /** `http://127.0.0.1:<port>/v1`: give it as a role's base URL (no API key needed on loopback). */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts a real OpenAI-compatible HTTP server answering from `script` (the n-th model call of a role in a
 * conversation gets its n-th turn, the last one repeating; `tasks` holds per-task scripts keyed by the task id
 * sent in `x-cove-task-id`), so code that calls models can be tested against the real protocol.
 */
export async function startScriptedChatServer(script: MockScript): Promise<ScriptedChatServer> {
  const { createMockLlmApp } = await import('../server/mock-llm/app.js');
  const { serveApp } = await import('../server/serve.js');
  const { app } = createMockLlmApp({ mode: 'script', script });
  const server = await serveApp(app, { port: 0 });
  return { baseUrl: `${server.url}/v1`, close: () => server.close() };
}

/** An agent that plays a fixed list of assistant messages, one per turn (the last one repeats). */
export class ScriptedAgent implements Agent {
  readonly #turns: readonly AssistantMessage[];
  #next = 0;
  constructor(turns: readonly AssistantMessage[]) {
    if (turns.length === 0) throw new Error('ScriptedAgent needs at least one turn');
    this.#turns = turns;
  }
  async respond(_messages: readonly ChatMessage[]): Promise<AgentTurn> {
    const message = this.#turns[Math.min(this.#next++, this.#turns.length - 1)] as AssistantMessage;
    return { message };
  }
}

/** A user simulator that says a fixed list of lines, one per turn (the last one repeats). */
export class ScriptedLines implements UserSimulator {
  readonly #lines: readonly string[];
  #next = 0;
  constructor(lines: readonly string[]) {
    if (lines.length === 0) throw new Error('ScriptedLines needs at least one line');
    this.#lines = lines;
  }
  async respond(_visible: readonly VisibleMessage[]): Promise<UserTurn> {
    return { content: this.#lines[Math.min(this.#next++, this.#lines.length - 1)] as string };
  }
}
