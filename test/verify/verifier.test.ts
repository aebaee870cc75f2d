import { beforeAll, describe, expect, it } from 'vitest';
import { type PyValue, toPyValue } from '../../src/core/py-value.js';
import { baseFromValue, type LoadedDb } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import type { Episode } from '../../src/env/episode.js';
import type { ChatMessage } from '../../src/sim/messages.js';
import type { ExecutedToolCall, TerminationReason } from '../../src/sim/run-episode.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { synthesizeTask } from '../../src/tasks/sampler.js';
import { type Verification, verifyTrajectory } from '../../src/verify/verification.js';

// Expected verdicts are derived by hand from design.md §5: S = (satisfied/|C|)·0.5^redundant when the episode
// ended by a stop (else 0); a successful write outside every footprint, or a second write by the same tool on the
// same entity, is redundant; stateMatch compares with the gold replay; τ² reward = stop · DB match · communicated.

let loaded: LoadedDb;
const synthesis = retailDomain.synthesis as NonNullable<typeof retailDomain.synthesis>;
const options = {
  domain: 'retail',
  seed: 5,
  difficulty: 'mixed' as const,
  fuzz: 2 as const,
  semantics: 'parity' as const,
  db: { path: 'x', canonical_sha256: 'y', benchmark: false },
  coveVersion: 'test',
};

beforeAll(() => {
  loaded = baseFromValue(retailDomain, generateRetailSandbox({ seed: 11 }), 'sandbox');
});

/** The first task (scanning indices) with exactly these constraint kinds and passing `extra`. */
function findTask(kinds: string[], extra: (t: CoveTask) => boolean = () => true): CoveTask {
  for (let i = 0; i < 3000; i++) {
    const task = synthesizeTask(synthesis, loaded.base, { ...options, k: kinds.length }, i);
    if (JSON.stringify(task.cove.constraints.map((c) => c.kind)) === JSON.stringify(kinds) && extra(task))
      return task;
  }
  throw new Error(`no task with ${kinds.join(', ')}`);
}

let n = 0;
function run(
  episode: Episode,
  calls: { name: string; arguments: Record<string, unknown> }[],
): ExecutedToolCall[] {
  return calls.map((c, i) => {
    const r = episode.call(c.name, toPyValue(c.arguments) as PyValue);
    return {
      id: `x${++n}`,
      name: c.name,
      arguments: JSON.stringify(c.arguments),
      argumentsValid: true,
      error: r.error,
      changed: r.changed,
      messageIndex: i,
    };
  });
}

function verify(
  task: CoveTask,
  calls: { name: string; arguments: Record<string, unknown> }[],
  options: { termination?: TerminationReason; say?: string[] } = {},
): { v: Verification; executed: ExecutedToolCall[] } {
  const episode = loaded.base.fork();
  try {
    const executed = run(episode, calls);
    const messages: ChatMessage[] = (options.say ?? []).map((content) => ({ role: 'assistant', content }));
    const v = verifyTrajectory({
      synthesis,
      tools: retailDomain.tools,
      task,
      final: episode,
      messages,
      toolCalls: executed,
      termination: options.termination ?? 'user_stop',
    });
    return { v, executed };
  } finally {
    episode.close();
  }
}

const gold = (task: CoveTask) =>
  task.evaluation_criteria.actions.map((a) => ({ name: a.name, arguments: a.arguments }));

describe('verifier', () => {
  it('gives the gold solution S = 1, stateMatch and τ² reward 1', () => {
    const task = findTask(['cancel_pending_order', 'return_delivered_order_items']);
    const { v } = verify(task, gold(task));
    expect(v).toMatchObject({
      score: 1,
      stateMatch: true,
      tau2Reward: 1,
      redundant: [],
      terminationOk: true,
    });
    expect(v.constraints.map((c) => c.satisfied)).toEqual([true, true]);
  });

  it('skip a write: half the constraints, S = 0.5, no state match', () => {
    const task = findTask(['cancel_pending_order', 'return_delivered_order_items']);
    const { v } = verify(task, gold(task).slice(0, 1));
    expect(v.constraints.map((c) => c.satisfied)).toEqual([true, false]);
    expect(v).toMatchObject({ score: 0.5, stateMatch: false, tau2Reward: 0, redundant: [] });
  });

  function orderOf(orderId: unknown) {
    const episode = loaded.base.fork();
    try {
      return JSON.parse(episode.call('get_order_details', toPyValue({ order_id: orderId })).content) as {
        items: { item_id: string }[];
        user_id: string;
        payment_history: { payment_method_id: string }[];
      };
    } finally {
      episode.close();
    }
  }

  it('wrong item: the return fails its predicate but is not redundant (same order)', () => {
    const task = findTask(['return_delivered_order_items'], (t) => {
      const args = t.evaluation_criteria.actions[0]?.arguments as { order_id: string; item_ids: string[] };
      return (
        args.item_ids.length === 1 && orderOf(args.order_id).items.some((i) => i.item_id !== args.item_ids[0])
      );
    });
    const action = gold(task)[0] as { name: string; arguments: { order_id: string; item_ids: string[] } };
    const other = orderOf(action.arguments.order_id).items.find(
      (i) => i.item_id !== action.arguments.item_ids[0],
    )?.item_id;
    const { v, executed } = verify(task, [
      { name: action.name, arguments: { ...action.arguments, item_ids: [other] } },
    ]);
    expect(executed[0]?.error).toBe(false);
    expect(v).toMatchObject({ score: 0, stateMatch: false, tau2Reward: 0, redundant: [] });
  });

  it('wrong payment: a return refunded to another valid method fails its predicate, not redundant', () => {
    const methodsOf = (userId: string) =>
      loaded.base.sql
        .all('SELECT id, source FROM payment_methods WHERE user_id = ?', userId)
        .map((r) => ({ id: String(r.id), source: String(r.source) }));
    const alternative = (args: { order_id: string; payment_method_id: string }) => {
      const order = orderOf(args.order_id);
      const original = order.payment_history[0]?.payment_method_id;
      return methodsOf(order.user_id).find(
        (m) => m.id !== args.payment_method_id && (m.id === original || m.source === 'gift_card'),
      )?.id;
    };
    const task = findTask(
      ['return_delivered_order_items'],
      (t) => alternative(t.evaluation_criteria.actions[0]?.arguments as never) !== undefined,
    );
    const action = gold(task)[0] as {
      name: string;
      arguments: { order_id: string; payment_method_id: string };
    };
    const wrong = alternative(action.arguments);
    const { v, executed } = verify(task, [
      { name: action.name, arguments: { ...action.arguments, payment_method_id: wrong } },
    ]);
    expect(executed[0]?.error).toBe(false);
    expect(v).toMatchObject({ score: 0, stateMatch: false, tau2Reward: 0, redundant: [] });
  });

  it('an extra write on another order is redundant: S = 1 · 0.5', () => {
    const task = findTask(['cancel_pending_order']);
    const target = gold(task)[0] as { name: string; arguments: Record<string, unknown> };
    const other = loaded.base.sql
      .all(
        "SELECT order_id FROM orders WHERE status = 'pending' AND order_id != ? LIMIT 1",
        target.arguments.order_id as string,
      )
      .map((r) => String(r.order_id))[0] as string;
    const { v, executed } = verify(task, [
      ...gold(task),
      { name: 'cancel_pending_order', arguments: { order_id: other, reason: 'no longer needed' } },
    ]);
    expect(v.redundant).toEqual([
      { call_id: executed[1]?.id, tool: 'cancel_pending_order', reason: 'outside_footprint' },
    ]);
    expect(v).toMatchObject({ score: 0.5, stateMatch: false, tau2Reward: 0 });
  });

  it('the same successful write twice is redundant but the state still matches', () => {
    const task = findTask(['modify_pending_order_address']);
    const { v, executed } = verify(task, [...gold(task), ...gold(task)]);
    expect(executed.map((c) => c.error)).toEqual([false, false]);
    expect(v.redundant).toEqual([
      { call_id: executed[1]?.id, tool: 'modify_pending_order_address', reason: 'duplicate' },
    ]);
    expect(v).toMatchObject({ score: 0.5, stateMatch: true, tau2Reward: 1 });
  });

  it('a failed second write is never redundant', () => {
    const task = findTask(['cancel_pending_order']);
    const { v, executed } = verify(task, [...gold(task), ...gold(task)]);
    expect(executed.map((c) => c.error)).toEqual([false, true]);
    expect(v).toMatchObject({ score: 1, stateMatch: true, redundant: [] });
  });

  it('stop before the write: nothing satisfied; a limit termination zeroes S but keeps the sub-verdicts', () => {
    const task = findTask(['exchange_delivered_order_items']);
    expect(verify(task, []).v).toMatchObject({ score: 0, stateMatch: false, tau2Reward: 0 });
    const { v } = verify(task, gold(task), { termination: 'max_steps' });
    expect(v).toMatchObject({ score: 0, stateMatch: true, tau2Reward: 0, terminationOk: false });
    expect(v.constraints[0]?.satisfied).toBe(true);
  });

  it('modify-items pairs in another order under parity: predicate holds, state does not match', () => {
    const task = findTask(['modify_pending_order_items'], (t) => {
      const args = t.evaluation_criteria.actions[0]?.arguments as {
        item_ids: string[];
        new_item_ids: string[];
      };
      return args.item_ids.length >= 2 && new Set(args.new_item_ids).size === args.new_item_ids.length;
    });
    const action = gold(task)[0] as {
      name: string;
      arguments: { item_ids: string[]; new_item_ids: string[] };
    };
    const reversed = {
      ...action.arguments,
      item_ids: [...action.arguments.item_ids].reverse(),
      new_item_ids: [...action.arguments.new_item_ids].reverse(),
    };
    const { v } = verify(task, [{ name: action.name, arguments: reversed }]);
    expect(v.constraints[0]?.satisfied).toBe(true);
    expect(v).toMatchObject({ score: 1, stateMatch: false, tau2Reward: 0 });
  });

  it('information: satisfied only when the value is said, by τ²’s communicate rule', () => {
    const task = findTask(['information']);
    const value = task.evaluation_criteria.communicate_info[0] as string;
    expect(verify(task, []).v).toMatchObject({ score: 0, tau2Reward: 0, stateMatch: true });
    const said = verify(task, [], { say: [`The amount is $${value}0, with thanks`] }).v;
    expect(said).toMatchObject({ score: 1, tau2Reward: 1, stateMatch: true });
  });

  it('a repeated write is redundant however its arguments are ordered (keyed by tool and entity changed)', () => {
    const task = findTask(['modify_user_address']);
    const [action] = gold(task) as [{ name: string; arguments: Record<string, unknown> }];
    const reordered = Object.fromEntries(Object.entries(action.arguments).reverse());
    expect(Object.keys(reordered)).not.toEqual(Object.keys(action.arguments));
    const { v } = verify(task, [action, { name: action.name, arguments: reordered }]);
    expect(v.redundant.map((r) => r.reason)).toEqual(['duplicate']);
    expect(v.score).toBe(0.5); // 1 · 0.5^1
  });

  it('refusal: an untouched order is not enough without the grounding reads (test/verify/grounding.test.ts)', () => {
    const task = findTask(['refusal']);
    // τ²'s DB × COMMUNICATE cannot tell a do-nothing agent from a grounded refusal; CoVe's score can
    expect(verify(task, []).v).toMatchObject({ score: 0, stateMatch: true, tau2Reward: 1 });
  });
});
