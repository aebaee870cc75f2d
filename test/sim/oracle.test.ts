import { describe, expect, it } from 'vitest';
import { agentContext } from '../../src/domains/agent-context.js';
import { baseFromValue, type LoadedDb } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import { type RunContext, runTaskEpisode } from '../../src/run/episode-runner.js';
import { scriptedRoles } from '../../src/run/roles.js';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import type { FuzzLevel } from '../../src/tasks/synthesis.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';
import { tau2RetailBase } from '../helpers/retail-base.js';

async function oracleRun(
  loaded: LoadedDb,
  seed: number,
  n: number,
  fuzz: FuzzLevel,
): Promise<TrajectoryRecord[]> {
  const { tasks } = await synthesizeTasks(
    retailDomain,
    loaded.base,
    {
      domain: 'retail',
      seed,
      difficulty: 'mixed',
      fuzz,
      semantics: 'parity',
      db: { path: 'x', canonical_sha256: 'y', benchmark: false },
      coveVersion: 'test',
    },
    n,
  );
  const context: RunContext = {
    run: 'test',
    domain: retailDomain,
    base: loaded.base,
    dbSha256: loaded.hashes.canonical_sha256,
    benchmarkData: loaded.isTau2Benchmark,
    seed,
    settings: { semantics: 'parity', text: 'cove', guidelines: 'scripted' },
    agentContext: agentContext(retailDomain, 'cove'),
    roles: scriptedRoles(retailDomain),
    limits: {},
    coveVersion: 'test',
  };
  const out: TrajectoryRecord[] = [];
  for (const task of tasks) out.push(await runTaskEpisode(context, { task, index: task.cove.index }, 0, 0));
  return out;
}

const WRITE_TOOLS = new Set(retailDomain.tools.filter((t) => t.kind === 'write').map((t) => t.name));
const ID_ARGS = ['order_id', 'user_id', 'payment_method_id', 'item_ids', 'new_item_ids'];

describe('oracle agent with the scripted user', () => {
  const runs: TrajectoryRecord[] = [];

  it('solves ≥ 500 sampled tasks: every episode S = 1 with stateMatch and τ² reward 1', async () => {
    const sandbox = baseFromValue(retailDomain, generateRetailSandbox({ seed: 21 }), 'sandbox');
    runs.push(...(await oracleRun(sandbox, 1, 200, 2)));
    runs.push(...(await oracleRun(sandbox, 2, 150, 1)));
    runs.push(...(await oracleRun(tau2RetailBase(), 3, 200, 2)));
    sandbox.base.close();
    expect(runs.length).toBeGreaterThanOrEqual(500);
    const failed = runs.filter(
      (r) => !(r.verification?.score === 1 && r.verification?.stateMatch && r.verification?.tau2Reward === 1),
    );
    expect(
      failed.map(
        (r) => `${r.task_id}: ${r.termination_reason} ${JSON.stringify(r.verification?.constraints)}`,
      ),
    ).toEqual([]);
    expect(runs.every((r) => r.termination_reason === 'user_stop' && r.leaks === 0)).toBe(true);
  }, 300_000);

  it('writes only ids it has seen in an earlier tool result', () => {
    let checked = 0;
    for (const r of runs) {
      const seen: string[] = [];
      for (const m of r.messages) {
        if (m.role === 'tool') seen.push(m.content);
        if (m.role !== 'assistant' || m.tool_calls === undefined) continue;
        for (const call of m.tool_calls) {
          if (!WRITE_TOOLS.has(call.function.name)) continue;
          const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
          for (const key of ID_ARGS) {
            const values = ([] as unknown[]).concat(args[key] ?? []);
            for (const id of values) {
              expect(
                seen.some((text) => text.includes(`"${String(id)}"`) || text === id),
                `${r.task_id}: ${key} ${String(id)}`,
              ).toBe(true);
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('makes one tool call per turn and confirms before every write', () => {
    for (const r of runs) {
      r.messages.forEach((m, i) => {
        if (m.role !== 'assistant' || m.tool_calls === undefined) return;
        expect(m.tool_calls).toHaveLength(1);
        expect(m.content).toBeNull();
        if (!WRITE_TOOLS.has(m.tool_calls[0]?.function.name ?? '')) return;
        // the previous user turn said yes to the agent message before it, which asked (yes/no)
        const user = r.messages[i - 1];
        const proposal = r.messages[i - 2];
        expect(user?.role).toBe('user');
        expect(proposal?.role === 'assistant' && proposal.content?.includes('(yes/no)')).toBe(true);
      });
    }
  });

  it('never stops in the same user turn as a confirmation', () => {
    for (const r of runs) {
      for (const m of r.messages) {
        if (m.role === 'user' && m.content.includes('###STOP###'))
          expect(/^yes/i.test(m.content)).toBe(false);
      }
      const last = r.messages.at(-1);
      expect(last?.role === 'user' && last.content.includes('###STOP###')).toBe(true);
    }
  });
});
