import { createHash } from 'node:crypto';
import { deriveSeed, Rng } from '../../core/rng.js';
import type { Domain } from '../../domains/domain.js';
import type { ChatMessage } from '../../sim/messages.js';
import type { VisibleMessage } from '../../sim/roles.js';
import type { CoveTask } from '../../tasks/cove-task.js';

function prefixHash(messages: readonly unknown[], length: number): string {
  return createHash('sha256')
    .update(JSON.stringify(messages.slice(0, length)))
    .digest('hex');
}

/** A role instance behind the API, fed with growing conversations. */
interface Session<T> {
  readonly respond: (messages: readonly never[]) => Promise<T>;
  /** How many request messages the instance has consumed, and their hash. */
  seen: number;
  hash: string;
  /** The reply to exactly those messages: a retried request gets it again (requests are idempotent). */
  last?: T;
}

/** Live sessions kept per task and role; older ones are dropped. */
const MAX_SESSIONS = 16;

/**
 * Plays the domain's oracle agent and scripted user behind the HTTP API, statelessly from the client's point of
 * view: a request's conversation is matched to a live role instance whose consumed messages are a prefix of it;
 * otherwise a new instance (seeded from the task id) replays the conversation's earlier turns to rebuild its
 * state. Role instances are deterministic, so a replay reaches the state the live one had. A request repeated
 * after a timeout or an error answer gets the same reply again.
 */
export class RoleSessions {
  readonly #domain: Domain;
  readonly #tasks: ReadonlyMap<string, CoveTask>;
  readonly #sessions = new Map<string, Session<unknown>[]>();

  constructor(domain: Domain, tasks: ReadonlyMap<string, CoveTask>) {
    this.#domain = domain;
    this.#tasks = tasks;
  }

  task(taskId: string): CoveTask | undefined {
    return this.#tasks.get(taskId);
  }

  async #turn<T>(
    key: string,
    messages: readonly unknown[],
    create: () => Session<T>,
    replayedAt: (i: number) => boolean,
  ): Promise<T> {
    const sessions = (this.#sessions.get(key) ?? []) as Session<T>[];
    this.#sessions.set(key, sessions as Session<unknown>[]);
    const full = prefixHash(messages, messages.length);
    const repeat = sessions.find(
      (s) => s.seen === messages.length && s.hash === full && s.last !== undefined,
    );
    if (repeat?.last !== undefined) return repeat.last;
    // the live session furthest along this conversation; it replays the turns it has not played yet
    let session = sessions
      .filter((s) => s.seen < messages.length && prefixHash(messages, s.seen) === s.hash)
      .sort((a, b) => b.seen - a.seen)[0];
    if (session === undefined) {
      session = create();
      sessions.push(session);
      if (sessions.length > MAX_SESSIONS) sessions.shift();
    }
    for (let i = Math.max(1, session.seen + 1); i < messages.length; i++) {
      if (replayedAt(i)) await session.respond(messages.slice(0, i) as never[]);
    }
    const reply = await session.respond(messages as never[]);
    session.seen = messages.length;
    session.hash = full;
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
        const agent = this.#simulation().createOracleAgent(
          task.cove,
          new Rng(deriveSeed(0, 'mock-llm', 'agent', taskId)),
        );
        return {
          respond: async (m) => (await agent.respond(m as readonly ChatMessage[])).message,
          seen: 0,
          hash: '',
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
        const user = this.#simulation().createScriptedUser(
          task.cove,
          new Rng(deriveSeed(0, 'mock-llm', 'user', taskId)),
        );
        return {
          respond: async (m) => (await user.respond(m as readonly VisibleMessage[])).content,
          seen: 0,
          hash: '',
        };
      },
      (i) => visible[i]?.role === 'user',
    );
  }
}
