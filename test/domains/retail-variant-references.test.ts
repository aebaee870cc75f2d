import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedDb } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { recheckRetailReferences } from '../../src/domains/retail/synthesis/recheck.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { synthesizeTask } from '../../src/tasks/sampler.js';
import type { DomainSynthesis } from '../../src/tasks/synthesis.js';
import { playOracle, retailSandbox, sandboxSynthesisOptions } from '../helpers/retail-sandbox.js';

// Issue 13 item 3: replacements described as "the cheapest available <product> with <option>" and "the same one
// as in my other order". The intended variant is recomputed here from the sandbox DB's JSON (the reference): the
// cheapest is the one at the minimum price among the product's available variants with those options, the same
// one is the only other variant of the product in the user's other orders.

interface Item {
  name: string;
  product_id: string;
  item_id: string;
}
interface Order {
  order_id: string;
  user_id: string;
  items: Item[];
}
interface Variant {
  item_id: string;
  options: Record<string, string>;
  available: boolean;
  price: number;
}
type Ref = {
  strategy: string;
  product_name: string;
  options?: Record<string, string>;
  with_product?: string;
};
interface Swap {
  item: unknown;
  replacement: Ref;
}

const SEED = 16;
let loaded: LoadedDb;
let db: { orders: Record<string, Order>; products: Record<string, { variants: Record<string, Variant> }> };
const tasks: CoveTask[] = [];

const options = sandboxSynthesisOptions(SEED, 'hard');

beforeAll(() => {
  ({ loaded, db } = retailSandbox<typeof db>(SEED));
  const synthesis = retailDomain.synthesis as DomainSynthesis;
  for (let i = 0; i < 100; i++) tasks.push(synthesizeTask(synthesis, loaded.base, options, i));
}, 600_000);
afterAll(() => loaded.base.close());

/** Every swap of a task whose replacement has `strategy`, with its constraint's exact ids. */
function swapsWith(strategy: string) {
  const out: { task: CoveTask; i: number; orderId: string; oldId: string; newId: string; ref: Ref }[] = [];
  for (const task of tasks) {
    const requests = (task.cove.fuzz as unknown as { requests: { items?: Swap[]; swaps?: Swap[] }[] })
      .requests;
    task.cove.constraints.forEach((c, i) => {
      const swaps = requests[i]?.swaps ?? requests[i]?.items ?? [];
      swaps.forEach((s, j) => {
        if (s.replacement?.strategy !== strategy) return;
        out.push({
          task,
          i,
          orderId: c.args.order_id as string,
          oldId: (c.args.item_ids as string[])[j] as string,
          newId: (c.args.new_item_ids as string[])[j] as string,
          ref: s.replacement,
        });
      });
    });
  }
  return out;
}

function itemOf(orderId: string, itemId: string): Item {
  return (db.orders[orderId] as Order).items.find((it) => it.item_id === itemId) as Item;
}

async function oracle(task: CoveTask) {
  const { outcome, v, env } = await playOracle(loaded, task);
  env.close();
  return { outcome, v };
}

describe('"the cheapest available one with <options>"', () => {
  it('is the unique minimum-price variant among the available ones with the options', () => {
    const found = swapsWith('cheapest');
    expect(found.length).toBeGreaterThanOrEqual(10);
    for (const s of found) {
      const old = itemOf(s.orderId, s.oldId);
      expect(s.ref.product_name).toBe(old.name);
      const wanted = Object.entries(s.ref.options ?? {});
      expect(wanted.length, s.task.id).toBeGreaterThan(0);
      const offered = Object.values(db.products[old.product_id]?.variants ?? {}).filter(
        (v) => v.available && wanted.every(([k, val]) => v.options[k] === val),
      );
      const prices = offered.map((v) => v.price).sort((a, b) => a - b);
      expect(prices[0], s.task.id).toBeLessThan(prices[1] ?? Number.POSITIVE_INFINITY);
      expect(offered.find((v) => v.price === prices[0])?.item_id, s.task.id).toBe(s.newId);
      expect(s.newId).not.toBe(s.oldId);
      // rendered for a model-played user with the same options
      const scenario = s.task.user_scenario.instructions.reason_for_call;
      expect(scenario).toContain('the cheapest available');
      for (const [, value] of wanted) expect(scenario).toContain(value);
    }
  });

  it('the oracle reads the product, proposes that variant and makes the change (score 1, stateMatch)', async () => {
    // the swaps of item changes and exchanges (a refused second item change is never carried out)
    const written = swapsWith('cheapest').filter((s) => s.task.cove.constraints[s.i]?.kind !== 'refusal');
    expect(written.length).toBeGreaterThan(0);
    for (const s of written.slice(0, 8)) {
      const { outcome, v } = await oracle(s.task);
      expect([v.score, v.stateMatch], s.task.id).toEqual([1, true]);
      const product = itemOf(s.orderId, s.oldId).product_id;
      const read = outcome.toolCalls.findIndex(
        (c) => c.name === 'get_product_details' && c.arguments.includes(product),
      );
      const write = outcome.toolCalls.findIndex(
        (c) => c.name.endsWith('_items') && c.arguments.includes(s.newId),
      );
      expect(read, s.task.id).toBeGreaterThanOrEqual(0);
      expect(write, s.task.id).toBeGreaterThan(read);
      const said = outcome.messages.map((m) => (m.role === 'assistant' ? (m.content ?? '') : '')).join('\n');
      expect(said).toContain('the cheapest available with');
    }
  }, 600_000);

  it('the recheck reports a cheapest description that lost the options making it unique', () => {
    let tried = 0;
    for (const s of swapsWith('cheapest')) {
      const old = itemOf(s.orderId, s.oldId);
      const offered = Object.values(db.products[old.product_id]?.variants ?? {}).filter((v) => v.available);
      const lowest = Math.min(...offered.map((v) => v.price));
      // without options the cheapest available variant is another one (computed from the DB JSON)
      if (offered.find((v) => v.price === lowest)?.item_id === s.newId) continue;
      const fuzz = structuredClone(s.task.cove.fuzz) as unknown as {
        requests: { items?: Swap[]; swaps?: Swap[] }[];
      };
      const request = fuzz.requests[s.i];
      for (const x of request?.swaps ?? request?.items ?? [])
        if (x.replacement.strategy === 'cheapest') x.replacement.options = {};
      const problems = recheckRetailReferences(loaded.base, s.task.cove.constraints, fuzz, 'parity');
      expect(problems.join('\n'), s.task.id).toMatch(/new_item_ids resolves to/);
      tried++;
    }
    expect(tried).toBeGreaterThan(0);
  });
});

describe('"the same one as in my other order"', () => {
  it("is the only other variant of the product in the user's other orders (holding the named product)", () => {
    const found = swapsWith('same_as_order');
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const s of found) {
      const old = itemOf(s.orderId, s.oldId);
      const user = (db.orders[s.orderId] as Order).user_id;
      const ids = new Set<string>();
      for (const o of Object.values(db.orders)) {
        if (o.user_id !== user || o.order_id === s.orderId) continue;
        if (s.ref.with_product !== undefined && !o.items.some((it) => it.name === s.ref.with_product))
          continue;
        for (const it of o.items)
          if (it.product_id === old.product_id && it.item_id !== old.item_id) ids.add(it.item_id);
      }
      expect([...ids], s.task.id).toEqual([s.newId]);
      expect(s.task.user_scenario.instructions.reason_for_call).toMatch(/same .* your other order/);
      expect(db.products[old.product_id]?.variants[s.newId]?.available).toBe(true);
    }
  });

  it("the oracle reads the user's other orders before it proposes that variant (score 1, stateMatch)", async () => {
    const written = swapsWith('same_as_order').filter(
      (s) => s.task.cove.constraints[s.i]?.kind !== 'refusal',
    );
    expect(written.length).toBeGreaterThan(0);
    for (const s of written.slice(0, 6)) {
      const { outcome, v } = await oracle(s.task);
      expect([v.score, v.stateMatch], s.task.id).toEqual([1, true]);
      const user = (db.orders[s.orderId] as Order).user_id;
      const holder = Object.values(db.orders).find(
        (o) => o.user_id === user && o.order_id !== s.orderId && o.items.some((it) => it.item_id === s.newId),
      ) as Order;
      const read = outcome.toolCalls.findIndex(
        (c) => c.name === 'get_order_details' && c.arguments.includes(holder.order_id),
      );
      const write = outcome.toolCalls.findIndex(
        (c) => c.name.endsWith('_items') && c.arguments.includes(s.newId),
      );
      expect(read, s.task.id).toBeGreaterThanOrEqual(0);
      expect(write, s.task.id).toBeGreaterThan(read);
    }
  }, 600_000);
});
