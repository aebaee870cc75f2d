import { describe, expect, it } from 'vitest';
import { sha256Hex, TAU2_HASH_JSON } from '../../src/core/hash.js';
import { pyJsonDumps } from '../../src/core/py-json.js';
import type { PyValue } from '../../src/core/py-value.js';
import { Rng } from '../../src/core/rng.js';
import type { Episode } from '../../src/env/episode.js';
import { num, type SqlConnection } from '../../src/env/sql.js';
import { tau2RetailBase } from '../helpers/retail-base.js';

/**
 * Seeded fuzzing of the retail dispatcher: thousands of random calls (real and fake tool names; right, wrong, missing
 * and extra argument names; values of every JSON type, mostly built around real orders so that write tools also
 * succeed). Whatever comes in, nothing may throw, the result is a string, no call may hit a non-ToolError (a cove
 * bug), and a failed call must leave the state exactly as it was (τ²'s partial-write failure paths need inconsistent
 * data, which τ²'s DB does not have).
 *
 * This generator was also run offline, on other seeds, against τ²'s Python tool code (RetailTools with pydantic 2.13):
 * over 30,000 calls the outputs, error flags and end hashes were identical, apart from arguments named `requestor`,
 * `tool_name` or `self` (see retail-tools.test.ts) and non-dict arguments (which τ² cannot receive).
 */

const SEED = 20260817;
const EPISODES = 90;
const CALLS_PER_EPISODE = 60;
/**
 * Every failed call (and every read) is checked through its `changed` list and SQLite's `total_changes()`, which moves
 * on any row written, triggers included. The τ² hash is compared before and after on every failed call in an unchanged
 * episode (free: it is the base's), and on this many failed calls in changed episodes (a full hash costs ~20-40 ms).
 */
const HASH_SAMPLES = 80;
/** Episodes whose end state is also hashed from a full dump, which checks the change tracking behind `hashes()`. */
const FULL_DUMP_EVERY = 15;

interface FuzzOrder {
  readonly id: string;
  readonly userId: string;
  readonly items: readonly { readonly itemId: string; readonly productId: string }[];
}
interface FuzzUser {
  readonly id: string;
  readonly first: string;
  readonly last: string;
  readonly zip: string;
  readonly email: string;
  readonly methods: readonly string[];
}
interface Pools {
  readonly orders: readonly FuzzOrder[];
  readonly byStatus: ReadonlyMap<string, readonly FuzzOrder[]>;
  readonly users: ReadonlyMap<string, FuzzUser>;
  readonly userIds: readonly string[];
  readonly productIds: readonly string[];
  readonly itemIds: readonly string[];
  readonly variantsByProduct: ReadonlyMap<string, readonly string[]>;
  readonly methodIds: readonly string[];
}

const TOOL_NAMES = [
  'calculate',
  'cancel_pending_order',
  'exchange_delivered_order_items',
  'find_user_id_by_name_zip',
  'find_user_id_by_email',
  'get_order_details',
  'get_product_details',
  'get_item_details',
  'get_user_details',
  'list_all_product_types',
  'modify_pending_order_address',
  'modify_pending_order_items',
  'modify_pending_order_payment',
  'modify_user_address',
  'return_delivered_order_items',
  'transfer_to_human_agents',
] as const;
const FAKE_TOOLS = [
  'nope',
  '',
  'get_order',
  'Get_Order_Details',
  'think',
  'calculate ',
  'cancel_order',
  'transfer_to_human_agent',
  'get_user_details\n',
  'modify_pending_order_item',
  '\u00e9t\u00e9',
];
const PARAMS: Record<string, readonly string[]> = {
  calculate: ['expression'],
  cancel_pending_order: ['order_id', 'reason'],
  exchange_delivered_order_items: ['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'],
  find_user_id_by_name_zip: ['first_name', 'last_name', 'zip'],
  find_user_id_by_email: ['email'],
  get_order_details: ['order_id'],
  get_product_details: ['product_id'],
  get_item_details: ['item_id'],
  get_user_details: ['user_id'],
  list_all_product_types: [],
  modify_pending_order_address: ['order_id', 'address1', 'address2', 'city', 'state', 'country', 'zip'],
  modify_pending_order_items: ['order_id', 'item_ids', 'new_item_ids', 'payment_method_id'],
  modify_pending_order_payment: ['order_id', 'payment_method_id'],
  modify_user_address: ['user_id', 'address1', 'address2', 'city', 'state', 'country', 'zip'],
  return_delivered_order_items: ['order_id', 'item_ids', 'payment_method_id'],
  transfer_to_human_agents: ['summary'],
};
const WRONG_NAMES = [
  'foo',
  'orderId',
  'order',
  'item_id',
  'user_id',
  'order_id',
  'payment_method',
  'reason',
  'summary',
  'expression',
  'zip',
  'email',
  '',
  'items',
  'new_items',
  'requestor',
  'tool_name',
  'self',
  'kwargs',
];
const EXPRESSIONS = [
  '2+2',
  '1/0',
  '(1+2',
  '0.125+0',
  '2**0.5',
  'abc',
  '7//2',
  '05',
  '-3//2',
  '10/3',
  '1e5',
  '3 * (4 - 1.5)',
  '',
  ' ',
  '()',
  '1+',
  '2**-1',
  '0.1+0.2',
  '100000000000000000*10',
  '((((1))))',
  '1..2',
  '8/(3-3)',
];
const STRINGS = [
  '',
  ' ',
  'x',
  '#',
  '#W',
  'None',
  'null',
  '0',
  '1.5',
  'no longer needed',
  'ordered by mistake',
  'pending',
  'caf\u00e9',
  '\u00fcber',
  'A\nB',
  "O'Brien",
  'a"b',
  'USA',
  '12345',
];

function loadPools(sql: SqlConnection): Pools {
  const orders: FuzzOrder[] = [];
  const byStatus = new Map<string, FuzzOrder[]>();
  for (const status of ['pending', 'delivered', 'processed', 'cancelled']) {
    byStatus.set(status, []);
    const rows = sql.all(
      'SELECT order_id, user_id FROM orders WHERE status = ? ORDER BY pos LIMIT 40',
      status,
    );
    for (const r of rows) {
      const items = sql
        .all(
          'SELECT item_id, product_id FROM order_items WHERE order_id = ? ORDER BY pos',
          String(r.order_id),
        )
        .map((i) => ({ itemId: String(i.item_id), productId: String(i.product_id) }));
      const order = { id: String(r.order_id), userId: String(r.user_id), items };
      orders.push(order);
      byStatus.get(status)?.push(order);
    }
  }
  const users = new Map<string, FuzzUser>();
  for (const o of orders) {
    if (users.has(o.userId)) continue;
    const u = sql.get('SELECT * FROM users WHERE user_id = ?', o.userId);
    if (u === undefined) throw new Error(`no user ${o.userId}`);
    const methods = sql
      .all('SELECT id FROM payment_methods WHERE user_id = ? ORDER BY pos', o.userId)
      .map((m) => String(m.id));
    users.set(o.userId, {
      id: o.userId,
      first: String(u.first_name),
      last: String(u.last_name),
      zip: String(u.zip),
      email: String(u.email),
      methods,
    });
  }
  const variantsByProduct = new Map<string, string[]>();
  for (const v of sql.all('SELECT product_id, item_id FROM variants ORDER BY product_id, pos')) {
    const list = variantsByProduct.get(String(v.product_id)) ?? [];
    list.push(String(v.item_id));
    variantsByProduct.set(String(v.product_id), list);
  }
  return {
    orders,
    byStatus,
    users,
    userIds: [...users.keys()],
    productIds: [...variantsByProduct.keys()],
    itemIds: [...variantsByProduct.values()].flat(),
    variantsByProduct,
    methodIds: [...users.values()].flatMap((u) => u.methods),
  };
}

/** A random JSON value of any type (ints are bigints, floats numbers), `depth` bounds the nesting. */
function randomValue(rng: Rng, pools: Pools, depth = 2): PyValue {
  const kind = rng.int(0, depth > 0 ? 11 : 9);
  switch (kind) {
    case 0:
      return rng.pick(STRINGS);
    case 1:
      return rng.pick([rng.pick(pools.orders).id, rng.pick(pools.userIds), rng.pick(pools.productIds)]);
    case 2:
      return rng.pick([rng.pick(pools.itemIds), rng.pick(pools.methodIds), '#W0000000', 'gift_card_0000000']);
    case 3:
      return BigInt(rng.pick([0, 1, -1, 7, 42, 1234567890, 2 ** 40, -99999]));
    case 4:
      return rng.pick([0.5, 1.0, 0, -2.25, 2.675, 1e20, 100.0, 0.1, 1234567890.0]);
    case 5:
      return rng.chance(0.5);
    case 6:
      return null;
    case 7:
      return [];
    case 8:
      return new Map();
    case 9:
      return rng.pick(pools.itemIds).slice(0, rng.int(0, 10));
    case 10:
      return Array.from({ length: rng.int(1, 3) }, () => randomValue(rng, pools, depth - 1));
    default:
      return new Map(
        Array.from({ length: rng.int(1, 2) }, () => [
          rng.pick(['a', 'item_id', '', '0', 'x y']),
          randomValue(rng, pools, depth - 1),
        ]),
      );
  }
}

/** Maybe changes the case of a string, as an agent might. */
function recase(rng: Rng, s: string): string {
  const r = rng.int(0, 3);
  return r === 0 ? s.toUpperCase() : r === 1 ? s.toLowerCase() : s;
}

/** A plausible value for a parameter, built around one order and its user. */
function goodValue(rng: Rng, pools: Pools, param: string, order: FuzzOrder, user: FuzzUser): PyValue {
  switch (param) {
    case 'order_id':
      return rng.chance(0.85)
        ? order.id
        : rng.pick([rng.pick(pools.orders).id, '#W0000000', order.id.slice(1), order.id.toLowerCase()]);
    case 'user_id':
      return rng.chance(0.85)
        ? user.id
        : rng.pick([rng.pick(pools.userIds), 'nobody_1234', user.id.toUpperCase()]);
    case 'payment_method_id':
      return rng.chance(0.8)
        ? rng.pick(user.methods)
        : rng.pick([rng.pick(pools.methodIds), 'gift_card_0000000', 'credit_card', '']);
    case 'reason':
      return rng.pick([
        'no longer needed',
        'ordered by mistake',
        'no longer needed',
        'other',
        'No longer needed',
      ]);
    case 'item_ids': {
      const ids = rng.sample(order.items, rng.int(0, order.items.length)).map((i) => i.itemId);
      if (rng.chance(0.15) && order.items.length > 0) ids.push(rng.pick(order.items).itemId);
      if (rng.chance(0.1)) ids.push(rng.pick(pools.itemIds));
      return ids;
    }
    case 'new_item_ids':
      return []; // replaced by pairedNewIds when item_ids is known
    case 'product_id':
      return rng.chance(0.8) ? rng.pick(pools.productIds) : rng.pick([rng.pick(pools.itemIds), '0000000000']);
    case 'item_id':
      return rng.chance(0.8) ? rng.pick(pools.itemIds) : rng.pick([rng.pick(pools.productIds), '0000000000']);
    case 'email':
      return rng.chance(0.8)
        ? recase(rng, user.email)
        : rng.pick(['nobody@example.com', user.email.slice(1)]);
    case 'first_name':
      return rng.chance(0.85) ? recase(rng, user.first) : rng.pick(['Nobody', user.last]);
    case 'last_name':
      return rng.chance(0.85) ? recase(rng, user.last) : rng.pick(['Nobody', user.first]);
    case 'zip':
      return rng.chance(0.7) ? user.zip : rng.pick(['00000', '', user.zip.slice(1)]);
    case 'expression':
      return rng.pick(EXPRESSIONS);
    default:
      return rng.pick([
        '12 Oak Street',
        '',
        'Suite 5',
        'Austin',
        'TX',
        'USA',
        'caf\u00e9 \u00fcber',
        '78701',
      ]);
  }
}

/** Replacement ids position by position: mostly available variants of the same product. */
function pairedNewIds(rng: Rng, pools: Pools, order: FuzzOrder, itemIds: PyValue): PyValue {
  if (!Array.isArray(itemIds)) return rng.chance(0.5) ? [] : randomValue(rng, pools);
  const out: PyValue[] = itemIds.map((id) => {
    const item = order.items.find((i) => i.itemId === id);
    if (item === undefined || rng.chance(0.1)) return rng.pick(pools.itemIds);
    if (rng.chance(0.08)) return item.itemId;
    return rng.pick(pools.variantsByProduct.get(item.productId) ?? [item.itemId]);
  });
  if (rng.chance(0.07)) out.push(rng.pick(pools.itemIds));
  if (rng.chance(0.07)) out.pop();
  return out;
}

/** The order a call is about: mostly one whose status the tool accepts. */
function pickOrder(rng: Rng, pools: Pools, tool: string): FuzzOrder {
  const wanted = tool.includes('pending') ? 'pending' : tool.includes('delivered') ? 'delivered' : undefined;
  const list = wanted !== undefined && rng.chance(0.75) ? pools.byStatus.get(wanted) : undefined;
  return rng.pick(list ?? pools.orders);
}

/** One random tool call: a name and an argument dict. */
function randomCall(rng: Rng, pools: Pools): [string, PyValue] {
  if (rng.chance(0.01)) return [rng.pick(TOOL_NAMES), rng.pick<PyValue>([null, [], 'order_id', 5n])]; // not a dict
  if (rng.chance(0.06)) {
    const name = rng.pick(FAKE_TOOLS);
    return [name, rng.chance(0.5) ? new Map() : new Map([['order_id', randomValue(rng, pools)]])];
  }
  const name = rng.pick(TOOL_NAMES);
  const order = pickOrder(rng, pools, name);
  const user = pools.users.get(order.userId) as FuzzUser;
  const args = new Map<string, PyValue>();
  for (const param of PARAMS[name] ?? []) {
    if (rng.chance(0.03)) continue; // missing
    const key = rng.chance(0.02) ? `${param}s` : param; // misspelled
    let value: PyValue;
    if (rng.chance(0.88)) {
      value =
        param === 'new_item_ids'
          ? pairedNewIds(rng, pools, order, args.get('item_ids') ?? null)
          : goodValue(rng, pools, param, order, user);
    } else {
      value = randomValue(rng, pools);
    }
    args.set(key, value);
  }
  if (rng.chance(0.06)) args.set(rng.pick(WRONG_NAMES), randomValue(rng, pools));
  if (rng.chance(0.15)) return [name, new Map(rng.shuffle([...args]))];
  return [name, args];
}

const READ_TOOLS = new Set([
  'calculate',
  'find_user_id_by_name_zip',
  'find_user_id_by_email',
  'get_order_details',
  'get_product_details',
  'get_item_details',
  'get_user_details',
  'list_all_product_types',
  'transfer_to_human_agents',
]);

/** SQLite's count of rows written on this connection (triggers included): any write at all moves it. */
function totalChanges(episode: Episode): bigint {
  const row = episode.sql.get('SELECT total_changes() AS n');
  return row === undefined ? -1n : BigInt(num(row, 'n'));
}

function describeCall(episode: number, index: number, name: string, args: PyValue): string {
  return `episode ${episode} call ${index}: ${name} ${pyJsonDumps(args)}`;
}

describe('retail dispatcher fuzz', () => {
  it(`survives ${EPISODES * CALLS_PER_EPISODE} random calls with τ²'s invariants`, () => {
    const loaded = tau2RetailBase();
    const baseHash = loaded.hashes.db_hash;
    const pools = loadPools(loaded.base.sql);
    const rng = new Rng(SEED);
    const outcomes = new Map<string, { ok: number; error: number }>();
    let calls = 0;
    let hashChecks = 0;
    let dirtyErrors = 0;
    for (let e = 0; e < EPISODES; e++) {
      const semantics = rng.chance(0.2) ? 'fixed' : 'parity';
      const episode = loaded.base.fork({ semantics });
      try {
        for (let i = 0; i < CALLS_PER_EPISODE; i++) {
          const [name, args] = randomCall(rng, pools);
          const where = describeCall(e, i, name, args);
          const clean = episode.changedEntities().length === 0;
          const sampled = !clean && rng.chance(0.05) && hashChecks < HASH_SAMPLES;
          const hashBefore = clean ? baseHash : sampled ? episode.hashes().db_hash : undefined;
          const changesBefore = totalChanges(episode);
          let result: ReturnType<Episode['call']>;
          try {
            result = episode.call(name, args);
          } catch (err) {
            throw new Error(`${where} threw ${String(err)}`);
          }
          calls++;
          expect(typeof result.content, where).toBe('string');
          expect(typeof result.error, where).toBe('boolean');
          expect(episode.stats.internalErrors, `${where} → ${result.content}`).toBe(0);
          expect(result.content.startsWith('Error: '), where).toBe(result.error);
          const tally = outcomes.get(name) ?? { ok: 0, error: 0 };
          tally[result.error ? 'error' : 'ok']++;
          outcomes.set(name, tally);
          if (result.error || READ_TOOLS.has(name)) {
            expect(result.changed, where).toEqual([]);
            expect(totalChanges(episode), where).toBe(changesBefore);
          }
          if (result.error) {
            if (!clean) dirtyErrors++;
            if (hashBefore !== undefined) {
              if (!clean) hashChecks++;
              expect(episode.hashes().db_hash, where).toBe(hashBefore);
            }
          }
        }
        if (e % FULL_DUMP_EVERY === 0) {
          const fromDump = sha256Hex(pyJsonDumps(episode.dump('model_dump'), TAU2_HASH_JSON));
          expect(episode.hashes().db_hash, `episode ${e}`).toBe(fromDump);
        }
      } finally {
        episode.close();
      }
    }
    expect(calls).toBeGreaterThanOrEqual(5000);
    expect(hashChecks).toBeGreaterThan(Math.min(40, dirtyErrors));
    // the generator reaches both outcomes of every real tool
    for (const tool of TOOL_NAMES) {
      const tally = outcomes.get(tool);
      expect(tally?.ok, `${tool} successes`).toBeGreaterThan(0);
      expect(tally?.error, `${tool} errors`).toBeGreaterThan(0);
    }
  });
});
