import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPyValue } from '../../src/core/py-value.js';
import type { LoadedDb } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { RETAIL_CONSTRAINT_KINDS } from '../../src/domains/retail/synthesis/kinds.js';
import type { EpisodeOutcome } from '../../src/sim/run-episode.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { NULL_POLICIES, nullPolicyEvaluation } from '../../src/tasks/null-policy.js';
import { synthesizeTask } from '../../src/tasks/sampler.js';
import type { DomainSynthesis } from '../../src/tasks/synthesis.js';
import { playOracle, retailSandbox, sandboxSynthesisOptions } from '../helpers/retail-sandbox.js';

// Issue 13 item 3: two refusals that depend on more than one order's status. A second item change of a pending
// order whose items the same task changed once (the policy allows one item change per order), and a request about
// an order of another user (one customer per conversation). Facts are checked against the sandbox DB's JSON (the
// reference), not against what synthesis recorded about it.

type Json = Record<string, unknown>;
interface Item {
  name: string;
  product_id: string;
  item_id: string;
}
interface Order {
  order_id: string;
  user_id: string;
  status: string;
  items: Item[];
}
interface Variant {
  item_id: string;
  available: boolean;
}

const SEED = 15;
let loaded: LoadedDb;
let db: { orders: Record<string, Order>; users: Record<string, Json>; products: Record<string, Json> };
const tasks: CoveTask[] = [];

const options = sandboxSynthesisOptions(SEED, 'hard');

beforeAll(() => {
  ({ loaded, db } = retailSandbox<typeof db>(SEED));
  const synthesis = retailDomain.synthesis as DomainSynthesis;
  for (let i = 0; i < 100; i++) tasks.push(synthesizeTask(synthesis, loaded.base, options, i));
}, 600_000);
afterAll(() => loaded.base.close());

const withAction = (action: string): CoveTask[] =>
  tasks.filter((t) => t.cove.constraints.some((c) => c.kind === 'refusal' && c.args.action === action));

const refusalOf = (task: CoveTask, action: string) =>
  task.cove.constraints.find((c) => c.kind === 'refusal' && c.args.action === action) as {
    id: string;
    args: Json;
  };

async function oracleEpisode(task: CoveTask) {
  const { outcome, v, env } = await playOracle(loaded, task);
  const finalOrder = (id: string) => {
    const r = env.call('get_order_details', toPyValue({ order_id: id }));
    return JSON.parse(r.content) as Order;
  };
  return { outcome, v, env, finalOrder };
}

const agentSaid = (outcome: EpisodeOutcome): string =>
  outcome.messages.map((m) => (m.role === 'assistant' ? (m.content ?? '') : '')).join('\n');

describe('a second item change of the same order is refused', () => {
  it('is drawn after an item change of a pending order, for another item of it, with a replacement of the same product', () => {
    const found = withAction('second_item_change');
    expect(found.length).toBeGreaterThanOrEqual(5);
    for (const task of found) {
      const r = refusalOf(task, 'second_item_change');
      const order = db.orders[r.args.order_id as string] as Order;
      expect(order.user_id, task.id).toBe(task.cove.user_id);
      expect(order.status, task.id).toBe('pending');
      const at = task.cove.constraints.indexOf(r as never);
      const first = task.cove.constraints
        .slice(0, at)
        .find((c) => c.kind === 'modify_pending_order_items' && c.args.order_id === order.order_id);
      expect(first, task.id).toBeDefined();
      const [oldId] = r.args.item_ids as string[];
      const [newId] = r.args.new_item_ids as string[];
      const old = order.items.find((it) => it.item_id === oldId) as Item;
      expect(old, task.id).toBeDefined();
      // another item than the first change touched
      expect(first?.args.item_ids as string[]).not.toContain(oldId);
      expect(first?.args.new_item_ids as string[]).not.toContain(oldId);
      // a model-played user is told to ask for it only after the first change is made
      expect(task.user_scenario.instructions.reason_for_call).toContain('Only once the items of');
      const variants = (db.products[old.product_id] as { variants: Record<string, Variant> }).variants;
      expect(variants[newId as string]?.available, task.id).toBe(true);
      expect(newId).not.toBe(oldId);
    }
  });

  it('the oracle makes the first change, refuses the second (score 1, stateMatch); the refused change never reaches the DB', async () => {
    for (const task of withAction('second_item_change').slice(0, 8)) {
      const { outcome, v, env, finalOrder } = await oracleEpisode(task);
      expect([v.score, v.stateMatch], task.id).toEqual([1, true]);
      const r = refusalOf(task, 'second_item_change');
      const orderId = r.args.order_id as string;
      const [oldId] = r.args.item_ids as string[];
      const first = task.cove.constraints.find(
        (c) => c.kind === 'modify_pending_order_items' && c.args.order_id === orderId,
      ) as { args: Json };
      // the final items are the initial ones with the first change applied, computed here from the DB JSON
      const expected = (db.orders[orderId] as Order).items.map((it) => {
        const at = (first.args.item_ids as string[]).indexOf(it.item_id);
        return at < 0 ? it.item_id : (first.args.new_item_ids as string[])[at];
      });
      const after = finalOrder(orderId);
      expect(after.items.map((it) => it.item_id).sort(), task.id).toEqual([...expected].sort());
      expect(after.items.map((it) => it.item_id)).toContain(oldId);
      expect(after.status).toBe('pending (item modified)');
      env.close();
      // one item change of that order was made, and no call ever asked to change the refused item
      const modifies = outcome.toolCalls.filter(
        (c) => c.name === 'modify_pending_order_items' && c.arguments.includes(orderId),
      );
      expect(modifies.filter((c) => !c.error).length, task.id).toBe(1);
      expect(modifies.some((c) => c.arguments.includes(oldId as string))).toBe(false);
      expect(agentSaid(outcome), task.id).toMatch(/can only be (changed|done) once/);
    }
  }, 600_000);

  it('does not hold when both changes went into one call; holds with the first change alone', () => {
    const refusal = RETAIL_CONSTRAINT_KINDS.find((k) => k.name === 'refusal');
    const task = withAction('second_item_change')[0] as CoveTask;
    const r = refusalOf(task, 'second_item_change');
    const first = task.cove.constraints.find(
      (c) => c.kind === 'modify_pending_order_items' && c.args.order_id === r.args.order_id,
    ) as { args: Json };
    const constraint = { id: r.id, kind: 'refusal', args: r.args, footprint: [] };
    const run = (items: string[], news: string[]) => {
      const env = loaded.base.fork();
      const call = env.call(
        'modify_pending_order_items',
        toPyValue({ ...first.args, item_ids: items, new_item_ids: news }),
      );
      expect(call.error, call.content).toBe(false);
      const verdict = refusal?.predicate(constraint, { final: env, semantics: 'parity', agentTexts: [] });
      env.close();
      return verdict?.satisfied;
    };
    const items = first.args.item_ids as string[];
    const news = first.args.new_item_ids as string[];
    expect(run(items, news)).toBe(true);
    expect(
      run([...items, ...(r.args.item_ids as string[])], [...news, ...(r.args.new_item_ids as string[])]),
    ).toBe(false);
  });
});

describe("a request about another user's order is refused", () => {
  it('names, by its id, an order of the DB that belongs to another user; the id is not hidden', () => {
    const found = withAction('other_users_order');
    expect(found.length).toBeGreaterThanOrEqual(5);
    for (const task of found) {
      const r = refusalOf(task, 'other_users_order');
      const order = db.orders[r.args.order_id as string] as Order;
      expect(order, task.id).toBeDefined();
      expect(order.user_id, task.id).not.toBe(task.cove.user_id);
      expect((db.users[task.cove.user_id as string] as { orders: string[] }).orders).not.toContain(
        order.order_id,
      );
      expect(['status', 'cancel']).toContain(r.args.about);
      expect(task.user_scenario.instructions.reason_for_call).toContain(order.order_id);
      expect(task.cove.fuzz.hidden_ids as string[]).not.toContain(order.order_id);
    }
  });

  it('the oracle reads the order after identifying the user, refuses without telling its contents (score 1, stateMatch); null policies get 0', async () => {
    for (const task of withAction('other_users_order').slice(0, 8)) {
      const { outcome, v, env, finalOrder } = await oracleEpisode(task);
      expect([v.score, v.stateMatch], task.id).toEqual([1, true]);
      const id = refusalOf(task, 'other_users_order').args.order_id as string;
      const order = db.orders[id] as Order;
      expect(finalOrder(id).status).toBe(order.status);
      env.close();
      const names = outcome.toolCalls.map((c) => c.name);
      const read = outcome.toolCalls.findIndex(
        (c) => c.name === 'get_order_details' && c.arguments.includes(id) && !c.error,
      );
      expect(read, task.id).toBeGreaterThan(names.findIndex((n) => n.startsWith('find_user_id_by')));
      expect(outcome.messages[outcome.toolCalls[read]?.messageIndex ?? -1]?.content).toContain(
        `"user_id": "${order.user_id}"`,
      );
      // the answer after reading it tells nothing of the order: neither whose it is nor what is in it
      const at = outcome.toolCalls[read]?.messageIndex ?? 0;
      const answer = outcome.messages.find(
        (m, i) => i > at && m.role === 'assistant' && (m.tool_calls ?? []).length === 0,
      );
      const text = (answer?.content ?? '').toLowerCase();
      expect(text, task.id).toMatch(/not on your account|belongs to a different account/);
      expect(text).not.toContain(order.user_id);
      for (const it of order.items) expect(text, task.id).not.toContain(it.name.toLowerCase());
      for (const policy of NULL_POLICIES) {
        const e = await nullPolicyEvaluation(retailDomain, loaded.base, task, policy);
        expect(e.reward, `${task.id} ${policy}`).toBe(0);
      }
    }
  }, 600_000);
});
