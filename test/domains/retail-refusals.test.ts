import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedDb } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { NULL_POLICIES, nullPolicyEvaluation } from '../../src/tasks/null-policy.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';
import { playOracle, retailSandbox, sandboxSynthesisOptions } from '../helpers/retail-sandbox.js';

// Issue 13 item 3: refusals beyond an order's status. An exchange into another product and a refund to a method
// the order was not paid with are requests the retail policy forbids whatever the status; the oracle refuses
// with the reason, the constraint holds when the order is untouched and the refusal is grounded. Values are
// checked against the sandbox DB itself (the reference), not against what synthesis recorded about it.

type Json = Record<string, unknown>;
const SEED = 13;
let loaded: LoadedDb;
let db: { orders: Record<string, Json>; users: Record<string, Json> };
const tasks: CoveTask[] = [];

const options = sandboxSynthesisOptions(SEED, 'medium');

beforeAll(async () => {
  ({ loaded, db } = retailSandbox<typeof db>(SEED));
  const run = await synthesizeTasks(retailDomain, loaded.base, options, 160);
  expect(run.problems).toEqual([]);
  tasks.push(...run.tasks);
}, 600_000);
afterAll(() => loaded.base.close());

function withAction(action: string): CoveTask[] {
  return tasks.filter((t) =>
    t.cove.constraints.some((c) => c.kind === 'refusal' && c.args.action === action),
  );
}

function refusalArgs(task: CoveTask, action: string): Json {
  return (
    task.cove.constraints.find((c) => c.kind === 'refusal' && c.args.action === action) as { args: Json }
  ).args;
}

describe('refusals the policy makes whatever the order status', () => {
  it('an exchange into another product: a delivered order, an item of it, a product not in that order', () => {
    const found = withAction('exchange_other_product');
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const task of found) {
      const a = refusalArgs(task, 'exchange_other_product');
      const order = db.orders[a.order_id as string] as { status: string; user_id: string; items: Json[] };
      expect(order.status, task.id).toBe('delivered');
      expect(order.user_id).toBe(task.cove.user_id);
      const names = order.items.map((it) => it.name);
      expect(order.items.map((it) => it.item_id)).toContain((a.item_ids as string[])[0]);
      expect(names, task.id).not.toContain(a.wanted_product);
    }
  });

  it('a refund to another method: a delivered order, a method of the user that is neither original nor a gift card', () => {
    const found = withAction('refund_other_method');
    // rare on this sandbox: it needs a delivered order and a second card or PayPal account besides the method
    // that paid it (1 of these 160 tasks since the refusal draws share their weight with two more refusals)
    expect(found.length).toBeGreaterThanOrEqual(1);
    for (const task of found) {
      const a = refusalArgs(task, 'refund_other_method');
      const order = db.orders[a.order_id as string] as { status: string; payment_history: Json[] };
      expect(order.status, task.id).toBe('delivered');
      const user = db.users[task.cove.user_id as string] as { payment_methods: Record<string, Json> };
      const method = user.payment_methods[a.payment_method_id as string] as Json;
      expect(method, task.id).toBeDefined();
      expect(method.source).not.toBe('gift_card');
      expect(a.payment_method_id).not.toBe(order.payment_history[0]?.payment_method_id);
    }
  });

  it('the oracle refuses them with the reason and scores 1 with stateMatch; the null policies score 0', async () => {
    const reasons: Record<string, RegExp> = {
      exchange_other_product: /only be exchanged for another option of the same product/,
      refund_other_method: /can only go to the method it was paid with .* or to a gift card/,
    };
    for (const [action, reason] of Object.entries(reasons)) {
      for (const task of withAction(action)) {
        const { outcome, v, env } = await playOracle(loaded, task);
        env.close();
        expect([v.score, v.stateMatch], task.id).toEqual([1, true]);
        const said = outcome.messages
          .map((m) => (m.role === 'assistant' ? (m.content ?? '') : ''))
          .join('\n');
        expect(said, task.id).toMatch(reason);
        for (const policy of NULL_POLICIES) {
          const e = await nullPolicyEvaluation(retailDomain, loaded.base, task, policy);
          expect(e.reward, `${task.id} ${policy}`).toBe(0);
        }
      }
    }
  }, 600_000);
});
