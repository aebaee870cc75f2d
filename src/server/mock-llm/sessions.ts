import { deriveSeed, Rng } from '../../core/rng.js';
import type { Domain } from '../../domains/domain.js';
import type { EnvironmentBase } from '../../env/environment-base.js';
import type { Semantics } from '../../env/tool.js';
import type { ChatMessage } from '../../sim/messages.js';
import type { VisibleMessage } from '../../sim/roles.js';
import type { CoveTask } from '../../tasks/cove-task.js';
import { oracleToolReply, type ToolRequest } from './tool-oracle.js';

/**
 * A cheap fingerprint of one message (role, text length and ends, tool calls, tool-call id): enough to tell the
 * conversations of one task apart without serialising whole histories on every request.
 */
function fingerprint(message: unknown): string {
  const m = message as {
    role?: string;
    content?: string | null;
    tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
    tool_call_id?: string;
  };
  const text = m.content ?? '';
  const calls = (m.tool_calls ?? [])
    .map((c) => `${c.id}:${c.function?.name}:${c.function?.arguments}`)
    .join('|');
  return `${m.role}\u0001${text.length}\u0001${text.slice(0, 48)}\u0001${text.slice(-48)}\u0001${calls}\u0001${m.tool_call_id ?? ''}`;
}

function samePrefix(a: readonly string[], b: readonly string[], length: number): boolean {
  if (a.length < length || b.length < length) return false;
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A role instance behind the API, fed with growing conversations. */
interface Session<T> {
  readonly respond: (messages: readonly never[]) => Promise<T>;
  /** Fingerprints of the request messages the instance has consumed. */
  prints: string[];
  /** The reply to exactly those messages: a retried request gets it again (requests are idempotent). */
  last?: T;
}

/** Live sessions kept per task and role; older ones are dropped. */
const MAX_SESSIONS = 16;

/**
 * Plays the domain's oracle agent and scripted user behind the HTTP API, statelessly from the client's point of
 * view: a request's conversation goes to the live role instance furthest along it (its consumed messages are a
 * prefix of the request), which first plays the turns it has not played yet; with none, a new instance seeded
 * from the task id replays the earlier turns. Role instances are deterministic, so replays reach the state a
 * live instance had. A request repeated after a timeout or an error answer gets the same reply again.
 */
export class RoleSessions {
  readonly #domain: Domain;
  readonly #tasks: ReadonlyMap<string, CoveTask>;
  readonly #sessions = new Map<string, Session<unknown>[]>();
  readonly #loadBase: (() => { base: EnvironmentBase; semantics: Semantics }) | undefined;
  #base: { base: EnvironmentBase; semantics: Semantics } | undefined;

  /** `loadBase` opens the tasks' DB, once, when the first tool-model request comes (`x-cove-role: tools`). */
  constructor(
    domain: Domain,
    tasks: ReadonlyMap<string, CoveTask>,
    loadBase?: () => { base: EnvironmentBase; semantics: Semantics },
  ) {
    this.#domain = domain;
    this.#tasks = tasks;
    this.#loadBase = loadBase;
  }

  /** The tool output the tasks' DB gives for a tool-model request (see {@link oracleToolReply}). */
  toolTurn(request: ToolRequest): string {
    if (this.#base === undefined) {
      if (this.#loadBase === undefined) throw new Error('this mock server has no DB for tool outputs');
      this.#base = this.#loadBase();
    }
    return oracleToolReply(this.#domain, this.#base.base, this.#base.semantics, request);
  }

  task(taskId: string): CoveTask | undefined {
    return this.#tasks.get(taskId);
  }

  async #turn<T>(
    key: string,
    messages: readonly unknown[],
    create: () => Session<T>,
    playedAt: (i: number) => boolean,
  ): Promise<T> {
    const sessions = (this.#sessions.get(key) ?? []) as Session<T>[];
    this.#sessions.set(key, sessions as Session<unknown>[]);
    const prints = messages.map(fingerprint);
    const repeat = sessions.find(
      (s) =>
        s.prints.length === prints.length &&
        s.last !== undefined &&
        samePrefix(s.prints, prints, prints.length),
    );
    if (repeat?.last !== undefined) return repeat.last;
    let session = sessions
      .filter((s) => s.prints.length < prints.length && samePrefix(s.prints, prints, s.prints.length))
      .sort((a, b) => b.prints.length - a.prints.length)[0];
    if (session === undefined) {
      session = create();
      sessions.push(session);
      if (sessions.length > MAX_SESSIONS) sessions.shift();
    }
    for (let i = Math.max(1, session.prints.length + 1); i < messages.length; i++) {
      if (playedAt(i)) await session.respond(messages.slice(0, i) as never[]);
    }
    const reply = await session.respond(messages as never[]);
    session.prints = prints;
    session.last = reply;
    return reply;
  }

  #simulation() {
    const sim = this.#domain.simulation;
    if (sim === undefined) throw new Error(`domain ${this.#domain.name} has no scripted roles`);
    return sim;
  }

  /** The oracle agent's next message for a conversation (greeting first, no system message). */
  agentTurn(taskId: string, history: readonly ChatMessage[]): Promise<ChatMessage> {
    const task = this.#tasks.get(taskId) as CoveTask;
    return this.#turn(
      `agent\u0000${taskId}`,
      history,
      () => {
        const rng = new Rng(deriveSeed(0, 'mock-llm', 'agent', taskId));
        const agent = this.#simulation().createOracleAgent(task.cove, rng);
        return {
          respond: async (m) => (await agent.respond(m as readonly ChatMessage[])).message,
          prints: [],
        };
      },
      // the agent spoke at every assistant message after the greeting
      (i) => history[i]?.role === 'assistant',
    );
  }

  /** The scripted user's next text for what it has seen (agent and own texts). */
  userTurn(taskId: string, visible: readonly VisibleMessage[]): Promise<string> {
    const task = this.#tasks.get(taskId) as CoveTask;
    return this.#turn(
      `user\u0000${taskId}`,
      visible,
      () => {
        const rng = new Rng(deriveSeed(0, 'mock-llm', 'user', taskId));
        const user = this.#simulation().createScriptedUser(task.cove, rng);
        return {
          respond: async (m) => (await user.respond(m as readonly VisibleMessage[])).content,
          prints: [],
        };
      },
      (i) => visible[i]?.role === 'user',
    );
  }
}
