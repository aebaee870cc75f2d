import { describe, expect, it } from 'vitest';
import { agentContext } from '../../src/domains/agent-context.js';
import { baseFromValue, type LoadedDb } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import { isAffirmative } from '../../src/domains/retail/sim/oracle-agent.js';
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
        // the previous user turn said yes to the agent message before it, a proposal asking to go ahead
        const user = r.messages[i - 1];
        const proposal = r.messages[i - 2];
        expect(user?.role === 'user' && isAffirmative(user.content)).toBe(true);
        expect(
          proposal?.role === 'assistant' && /(go ahead|proceed|confirm)/i.test(proposal.content ?? ''),
        ).toBe(true);
        expect(proposal?.role === 'assistant' && proposal.content?.includes('(yes/no)')).toBe(false);
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
      expect(last?.role === 'user' && /###(STOP|TRANSFER)###/.test(last.content)).toBe(true);
    }
  });

  it('names no internal id the customer did not use and never asks (yes/no)', () => {
    const ID = /#W\d{7}|\b(?:credit_card|gift_card|paypal)_\d+\b|\b\d{10}\b/g;
    let checked = 0;
    for (const r of runs) {
      let said = '';
      for (const m of r.messages) {
        if (m.role === 'user') said += `${m.content}\n`;
        if (m.role !== 'assistant' || m.content === null) continue;
        expect(m.content).not.toContain('(yes/no)');
        for (const id of m.content.match(ID) ?? []) {
          expect(said, `${r.task_id}: ${id} in "${m.content}"`).toContain(id);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('enacts the behaviour events for real: each changes what the agent does', () => {
    const count = new Map<string, number>();
    for (const r of runs) {
      const events = r.enacted_events ?? [];
      for (const e of events) count.set(e, (count.get(e) ?? 0) + 1);
      const texts = r.messages.flatMap((m) =>
        m.role === 'assistant' && m.content !== null ? [m.content] : [],
      );
      if (events.includes('wrong_detail')) {
        // the wrong detail made the identity lookup fail, and the agent asked again
        expect(
          r.messages.some(
            (m) => m.role === 'tool' && m.name.startsWith('find_user') && m.content.startsWith('Error'),
          ),
          r.task_id,
        ).toBe(true);
      }
      if (events.includes('change_of_mind') || events.includes('reject_proposal')) {
        // the agent proposed twice: once with the detail the user withdrew, once with the final one
        const proposals = texts.filter((t) => /(go ahead|proceed|confirm)/i.test(t));
        expect(new Set(proposals).size, r.task_id).toBeGreaterThanOrEqual(2);
      }
      if (events.includes('ambiguous_reference'))
        expect(
          texts.some((t) =>
            /which (of these orders|order is it|card|item|payment method|of these addresses)/i.test(t),
          ),
          r.task_id,
        ).toBe(true);
      if (events.includes('transfer'))
        expect(r.messages.some((m) => m.role === 'tool' && m.name === 'transfer_to_human_agents')).toBe(true);
    }
    for (const e of [
      'partial_info',
      'wrong_detail',
      'ambiguous_reference',
      'push_back',
      'side_question',
      'two_requests',
    ])
      expect(count.get(e) ?? 0, e).toBeGreaterThan(5);
    expect((count.get('change_of_mind') ?? 0) + (count.get('reject_proposal') ?? 0)).toBeGreaterThan(5);
  });
});
