import { createHash } from 'node:crypto';
import { deriveSeed, Rng } from '../../core/rng.js';
import type { Domain } from '../../domains/domain.js';
import type { ChatMessage } from '../../sim/messages.js';
import type { Agent, UserSimulator, VisibleMessage } from '../../sim/roles.js';
import type { CoveTask } from '../../tasks/cove-task.js';

function prefixHash(messages: readonly unknown[], length: number): string {
  return createHash('sha256')
    .update(JSON.stringify(messages.slice(0, length)))
    .digest('hex');
}

interface Session<R> {
  readonly role: R;
  /** How many request messages the role instance has consumed, and their hash. */
  seen: number;
  hash: string;
}

/**
 * Plays the domain's oracle agent and scripted user behind the HTTP API, statelessly from the client's point of
 * view: a request's conversation is matched to a live role instance whose consumed messages are a prefix of it;
 * otherwise a new instance (seeded from the task id) replays the conversation's earlier turns to rebuild its
 * state. Role instances are deterministic, so a replay reaches the state the live one had.
 */
export class RoleSessions {
  readonly #domain: Domain;
  readonly #tasks: ReadonlyMap<string, CoveTask>;
  readonly #agents = new Map<string, Session<Agent>[]>();
  readonly #users = new Map<string, Session<UserSimulator>[]>();

  constructor(domain: Domain, tasks: ReadonlyMap<string, CoveTask>) {
    this.#domain = domain;
    this.#tasks = tasks;
  }

  task(taskId: string): CoveTask | undefined {
    return this.#tasks.get(taskId);
  }

  #rng(taskId: string, role: string): Rng {
    return new Rng(deriveSeed(0, 'mock-llm', role, taskId));
  }

  /** The oracle agent's next message for a conversation (greeting first, no system message). */
  async agentTurn(taskId: string, history: readonly ChatMessage[]): Promise<ChatMessage> {
    const task = this.#tasks.get(taskId) as CoveTask;
    const sim = this.#domain.simulation;
    if (sim === undefined) throw new Error('domain without scripted roles');
    const sessions = this.#agents.get(taskId) ?? [];
    this.#agents.set(taskId, sessions);
    let session = sessions.find((s) => s.seen <= history.length && prefixHash(history, s.seen) === s.hash);
    if (session === undefined) {
      const agent = sim.createOracleAgent(task.cove, this.#rng(taskId, 'agent'));
      // rebuild the state: the agent spoke at every assistant message after the greeting
      for (let i = 1; i < history.length; i++)
        if (history[i]?.role === 'assistant') await agent.respond(history.slice(0, i));
      session = { role: agent, seen: 0, hash: '' };
      sessions.push(session);
    }
    const turn = await session.role.respond(history);
    session.seen = history.length;
    session.hash = prefixHash(history, history.length);
    return turn.message;
  }

  /** The scripted user's next text for what it has seen (agent and own texts). */
  async userTurn(taskId: string, visible: readonly VisibleMessage[]): Promise<string> {
    const task = this.#tasks.get(taskId) as CoveTask;
    const sim = this.#domain.simulation;
    if (sim === undefined) throw new Error('domain without scripted roles');
    const sessions = this.#users.get(taskId) ?? [];
    this.#users.set(taskId, sessions);
    let session = sessions.find((s) => s.seen <= visible.length && prefixHash(visible, s.seen) === s.hash);
    if (session === undefined) {
      const user = sim.createScriptedUser(task.cove, this.#rng(taskId, 'user'));
      for (let i = 1; i < visible.length; i++)
        if (visible[i]?.role === 'user') await user.respond(visible.slice(0, i));
      session = { role: user, seen: 0, hash: '' };
      sessions.push(session);
    }
    const turn = await session.role.respond(visible);
    session.seen = visible.length;
    session.hash = prefixHash(visible, visible.length);
    return turn.content;
  }
}
