import { expect } from 'vitest';
import { agentContext } from '../../src/domains/agent-context.js';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { sandboxSize } from '../../src/domains/domain.js';
import { baseFromValue, type LoadedDb } from '../../src/domains/load-db.js';
import { type RunContext, runTaskEpisode } from '../../src/run/episode-runner.js';
import { scriptedRoles } from '../../src/run/roles.js';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import type { ChatMessage } from '../../src/sim/messages.js';
import { isAffirmative } from '../../src/sim/scripted/replies.js';
import type { CoveTask, Difficulty } from '../../src/tasks/cove-task.js';
import type { FuzzLevel } from '../../src/tasks/synthesis.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';

/**
 * Oracle episodes over synthesized airline tasks and the checks every one of them must pass (issue 14 item 4):
 * shared by the `npm test` sample and the scale test.
 */

export interface AirlineRun {
  readonly task: CoveTask;
  readonly record: TrajectoryRecord;
}

/** A seeded airline sandbox with τ²'s sizes. */
export function airlineSandbox(seed: number): LoadedDb {
  const sandbox = airlineDomain.sandbox;
  if (sandbox === undefined) throw new Error('airline has no sandbox');
  return baseFromValue(airlineDomain, sandbox.generate(seed, sandboxSize(sandbox)), 'sandbox');
}

/** Synthesizes `n` tasks on `loaded` and plays each once with the oracle agent and the scripted user. */
export async function airlineOracleRuns(
  loaded: LoadedDb,
  options: { seed: number; n: number; fuzz: FuzzLevel; difficulty: Difficulty | 'mixed' },
): Promise<AirlineRun[]> {
  const { tasks } = await synthesizeTasks(
    airlineDomain,
    loaded.base,
    {
      domain: 'airline',
      seed: options.seed,
      difficulty: options.difficulty,
      fuzz: options.fuzz,
      semantics: 'parity',
      db: { path: 'x', canonical_sha256: 'y', benchmark: false },
      coveVersion: 'test',
    },
    options.n,
  );
  const context: RunContext = {
    run: 'test',
    domain: airlineDomain,
    base: loaded.base,
    dbSha256: loaded.hashes.canonical_sha256,
    benchmarkData: loaded.isTau2Benchmark,
    seed: options.seed,
    settings: { semantics: 'parity', text: 'cove', guidelines: 'scripted' },
    agentContext: agentContext(airlineDomain, 'cove'),
    roles: scriptedRoles(airlineDomain),
    limits: {},
    coveVersion: 'test',
  };
  const out: AirlineRun[] = [];
  for (const task of tasks)
    out.push({ task, record: await runTaskEpisode(context, { task, index: task.cove.index }, 0, 0) });
  return out;
}

/** Runs that did not end with score 1, stateMatch, τ² reward 1, a user stop and no leak, described. */
export function failures(runs: readonly AirlineRun[]): string[] {
  return runs
    .filter(({ record: r }) => {
      const v = r.verification;
      return !(
        v?.score === 1 &&
        v.stateMatch &&
        v.tau2Reward === 1 &&
        r.termination_reason === 'user_stop' &&
        r.leaks === 0
      );
    })
    .map(
      ({ record: r }) =>
        `${r.task_id}: ${r.termination_reason} leaks ${r.leaks} ${JSON.stringify(r.verification?.constraints.filter((c) => !c.satisfied))} stateMatch ${r.verification?.stateMatch}`,
    );
}

const WRITE_TOOLS = new Set(airlineDomain.tools.filter((t) => t.kind === 'write').map((t) => t.name));

/** The ids a write call names: reservation, user, payment methods and flight numbers. */
function idsOf(args: Record<string, unknown>): string[] {
  const ids: string[] = [];
  for (const key of ['reservation_id', 'user_id', 'payment_id'])
    if (typeof args[key] === 'string') ids.push(args[key] as string);
  for (const p of (args.payment_methods as { payment_id: string }[] | undefined) ?? [])
    ids.push(p.payment_id);
  for (const f of (args.flights as { flight_number: string }[] | undefined) ?? []) ids.push(f.flight_number);
  return ids;
}

/**
 * Every id in a write call appeared in an earlier tool result; returns how many were checked. (A user id also
 * counts when the customer wrote it, as τ²'s policy has them do, and the agent read the profile with it.)
 */
export function checkIdsSeen(messages: readonly ChatMessage[], where: string): number {
  const seen: string[] = [];
  let checked = 0;
  for (const m of messages) {
    if (m.role === 'tool') seen.push(m.content);
    if (m.role !== 'assistant' || m.tool_calls === undefined) continue;
    for (const call of m.tool_calls) {
      if (!WRITE_TOOLS.has(call.function.name)) continue;
      for (const id of idsOf(JSON.parse(call.function.arguments) as Record<string, unknown>)) {
        expect(
          seen.some((text) => text.includes(`"${id}"`)),
          `${where}: ${call.function.name} names ${id} before any tool result did`,
        ).toBe(true);
        checked++;
      }
    }
  }
  return checked;
}

/**
 * The policy's turn rules: every stated request recognised (never answered with "how can I help?"); one tool call
 * and no text per tool turn; every write right after a customer's yes to an
 * agent proposal that asks to go ahead; after `transfer_to_human_agents` the hold message; `send_certificate` only
 * when the task holds a compensation request (never offered unasked).
 */
export function checkTurns(run: AirlineRun): void {
  const { record: r, task } = run;
  const asked = task.cove.constraints.some((c) => c.kind === 'compensation_certificate');
  // the agent understood every request the customer stated: it never answers one with "how can I help?"
  const lost = r.messages
    .slice(1)
    .filter(
      (m) =>
        m.role === 'assistant' &&
        /^(How can I help you( today)?|What can I do for you|What would you like me to help you with)\?$/.test(
          m.content ?? '',
        ),
    );
  expect(
    lost.map((m) => m.content),
    `${r.task_id}: a request the agent did not recognise`,
  ).toEqual([]);
  // and every proposal matched what the customer wanted (the customer never had to decline one)
  const declined = r.messages.filter(
    (m) => m.role === 'user' && /(not what I asked for|that's wrong)/i.test(m.content),
  );
  expect(
    declined.map((m) => m.content),
    `${r.task_id}: a proposal the customer declined`,
  ).toEqual([]);
  r.messages.forEach((m, i) => {
    if (m.role !== 'assistant' || m.tool_calls === undefined) return;
    expect(m.tool_calls, r.task_id).toHaveLength(1);
    expect(m.content, r.task_id).toBeNull();
    const name = m.tool_calls[0]?.function.name ?? '';
    if (name === 'send_certificate') expect(asked, `${r.task_id}: certificate never asked for`).toBe(true);
    if (name === 'transfer_to_human_agents') {
      const next = r.messages.slice(i + 1).find((x) => x.role === 'assistant');
      expect(next?.content, r.task_id).toBe('YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.');
    }
    if (!WRITE_TOOLS.has(name)) return;
    // the customer's yes right before, to an agent text asking to go ahead
    const user = r.messages[i - 1];
    const proposal = r.messages[i - 2];
    expect(user?.role === 'user' && isAffirmative(user.content), `${r.task_id}: ${name} without a yes`).toBe(
      true,
    );
    expect(
      proposal?.role === 'assistant' && /(go ahead|proceed|confirm)/i.test(proposal.content ?? ''),
      `${r.task_id}: ${name} without a proposal`,
    ).toBe(true);
  });
}
