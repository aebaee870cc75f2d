import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentContext } from '../../src/domains/agent-context.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { type RunContext, runTaskEpisode } from '../../src/run/episode-runner.js';
import { scriptedRoles } from '../../src/run/roles.js';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';
import { RETAIL_DB } from '../helpers/paths.js';
import { tau2RetailBase } from '../helpers/retail-base.js';

/** τ²'s retail DB as JSON: the reference for which order ids exist and whose they are. */
const DB = JSON.parse(readFileSync(RETAIL_DB, 'utf8')) as {
  orders: Record<string, { order_id: string; user_id: string }>;
};

interface Call {
  readonly id: string;
  readonly args: { order_id?: string };
}

/** get_order_details calls of an episode, each with its tool result, in order. */
function orderLookups(r: TrajectoryRecord): { orderId: string; result: string }[] {
  const results = new Map<string, string>();
  for (const m of r.messages) if (m.role === 'tool') results.set(m.tool_call_id, m.content);
  const out: { orderId: string; result: string }[] = [];
  for (const m of r.messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.tool_calls ?? []) {
      if (c.function.name !== 'get_order_details') continue;
      const call: Call = { id: c.id, args: JSON.parse(String(c.function.arguments)) };
      out.push({ orderId: String(call.args.order_id), result: results.get(call.id) ?? '' });
    }
  }
  return out;
}

describe('retail: the user gives an order number with a wrong digit (issue 13)', () => {
  it('the lookup fails with "Error: Order not found", the user corrects it, the episode still scores 1', async () => {
    const loaded = tau2RetailBase();
    const { tasks } = await synthesizeTasks(
      retailDomain,
      loaded.base,
      {
        domain: 'retail',
        seed: 7,
        difficulty: 'mixed',
        fuzz: 0,
        semantics: 'parity',
        db: { path: 'x', canonical_sha256: 'y', benchmark: false },
        coveVersion: 'test',
      },
      80,
    );
    const context: RunContext = {
      run: 'test',
      domain: retailDomain,
      base: loaded.base,
      dbSha256: loaded.hashes.canonical_sha256,
      benchmarkData: loaded.isTau2Benchmark,
      seed: 7,
      settings: { semantics: 'parity', text: 'cove', guidelines: 'scripted' },
      agentContext: agentContext(retailDomain, 'cove'),
      roles: scriptedRoles(retailDomain),
      limits: {},
      coveVersion: 'test',
    };
    let found = 0;
    for (const task of tasks) {
      const entry = task.cove.behaviour?.knowledge.find((k) => k.kind === 'wrong_order_id');
      if (entry === undefined) continue;
      const r = await runTaskEpisode(context, { task, index: task.cove.index }, 0, 0);
      expect(r.enacted_events, task.id).toContain('wrong_order_id');
      found++;
      // the first order number the user wrote for that request
      const userTexts = r.messages.flatMap((m) =>
        m.role === 'user' && m.content !== null ? [m.content] : [],
      );
      const wrong = String(entry.value);
      const first = userTexts.findIndex((t) => t.includes(wrong));
      expect(first, task.id).toBeGreaterThanOrEqual(0);
      expect(DB.orders[wrong], `${task.id}: ${wrong} is an order of the DB`).toBeUndefined();
      const lookups = orderLookups(r);
      const failed = lookups.findIndex((l) => l.orderId === wrong);
      expect(lookups[failed]?.result, task.id).toBe('Error: Order not found');
      // the next lookup is the order the user meant: a DB order of that user, one digit apart from the wrong id
      const next = lookups[failed + 1];
      expect(next, task.id).toBeDefined();
      const right = DB.orders[next?.orderId ?? ''];
      expect(right?.user_id, task.id).toBe(task.cove.user_id);
      const differing = [...wrong].filter((c, i) => c !== next?.orderId[i]).length;
      expect(differing, task.id).toBe(1);
      expect(
        userTexts.slice(first + 1).some((t) => t.includes(next?.orderId ?? '?')),
        task.id,
      ).toBe(true);
      expect(task.user_scenario.instructions.task_instructions, task.id).toContain(wrong);
      expect(r.verification?.score, task.id).toBe(1);
      expect(r.verification?.stateMatch, task.id).toBe(true);
      expect(r.leaks, task.id).toBe(0);
    }
    expect(found).toBeGreaterThanOrEqual(5);
  }, 300_000);
});
