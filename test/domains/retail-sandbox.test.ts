import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pyFloatRepr } from '../../src/core/py-float.js';
import { pyJsonDumps } from '../../src/core/py-json.js';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import { baseFromValue, readJsonFile } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { fingerprintModuleText, tau2Fingerprints } from '../../src/domains/retail/sandbox/fingerprints.js';
import type { RetailSandboxOptions as SandboxOptions } from '../../src/domains/retail/sandbox/generate.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import { TAU2_FINGERPRINTS } from '../../src/domains/retail/sandbox/tau2-fingerprints.js';
import { stateFileText } from '../../src/env/state-file.js';
import { REPO, runCove } from '../helpers/cli.js';
import { RETAIL_DB } from '../helpers/paths.js';

// Plain-JSON view of a retail db.json (JSON.parse), enough for statistics and structure checks.
interface Address {
  address1: string;
  address2: string;
  city: string;
  country: string;
  state: string;
  zip: string;
}
interface Variant {
  item_id: string;
  options: Record<string, string>;
  available: boolean;
  price: number;
}
interface Product {
  name: string;
  product_id: string;
  variants: Record<string, Variant>;
}
interface PaymentMethod {
  source: string;
  id: string;
  brand?: string;
  last_four?: string;
  balance?: number;
}
interface User {
  user_id: string;
  name: { first_name: string; last_name: string };
  address: Address;
  email: string;
  payment_methods: Record<string, PaymentMethod>;
  orders: string[];
}
interface OrderItem {
  name: string;
  product_id: string;
  item_id: string;
  price: number;
  options: Record<string, string>;
}
interface Order {
  order_id: string;
  user_id: string;
  address: Address;
  items: OrderItem[];
  status: string;
  fulfillments: { tracking_id: string[]; item_ids: string[] }[];
  payment_history: { transaction_type: string; amount: number; payment_method_id: string }[];
  [extra: string]: unknown;
}
interface Db {
  products: Record<string, Product>;
  users: Record<string, User>;
  orders: Record<string, Order>;
}

const TAU2_TEXT = readFileSync(RETAIL_DB, 'utf8');
const TAU2 = JSON.parse(TAU2_TEXT) as Db;

const texts = new Map<string, string>();
/** The generated db.json text (cached per options: generation is deterministic, which test (a) checks). */
function sandboxText(options: SandboxOptions): string {
  const key = JSON.stringify(options);
  let text = texts.get(key);
  if (text === undefined) {
    text = pyJsonDumps(generateRetailSandbox(options), { indent: 4 });
    texts.set(key, text);
  }
  return text;
}
const sandbox = (options: SandboxOptions): Db => JSON.parse(sandboxText(options)) as Db;

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const share = <T>(xs: readonly T[], p: (x: T) => boolean): number => xs.filter(p).length / xs.length;
const sameAddress = (a: Address, b: Address): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The statistics the sandbox mirrors, as numbers (shares in [0, 1]). */
function statistics(db: Db): Record<string, number> {
  const orders = Object.values(db.orders);
  const users = Object.values(db.users);
  const products = Object.values(db.products);
  const variants = products.flatMap((p) => Object.values(p.variants));
  const methods = users.flatMap((u) => Object.values(u.payment_methods));
  const itemCounts = orders.map((o) => o.items.length);
  const out: Record<string, number> = {};
  for (const s of ['pending', 'delivered', 'processed', 'cancelled']) {
    out[`status ${s}`] = share(orders, (o) => o.status === s);
  }
  for (const k of ['credit_card', 'gift_card', 'paypal'])
    out[`payment ${k}`] = share(methods, (m) => m.source === k);
  out['payment methods per user'] = methods.length / users.length;
  out['variants per product'] = variants.length / products.length;
  out['unavailable variants'] = share(variants, (v) => !v.available);
  out['orders per user'] = mean(users.map((u) => u.orders.length));
  out['users with 0 orders'] = share(users, (u) => u.orders.length === 0);
  out['items per order'] = mean(itemCounts);
  out['items per order min'] = Math.min(...itemCounts);
  out['items per order max'] = Math.max(...itemCounts);
  out['orders to the default address'] = share(orders, (o) =>
    sameAddress(o.address, (db.users[o.user_id] as User).address),
  );
  return out;
}

/** Statistics of `db` more than ±20 % away from τ²'s, as readable lines (empty when all are within). */
function outsideTolerance(db: Db): string[] {
  const ours = statistics(db);
  const theirs = statistics(TAU2);
  return Object.entries(theirs)
    .filter(([k, t]) => Math.abs((ours[k] as number) - t) > 0.2 * t)
    .map(([k, t]) => `${k}: τ² ${t.toFixed(3)}, sandbox ${(ours[k] as number).toFixed(3)}`);
}

const US_STATES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(
    ' ',
  ),
);
const ADDRESS_KEYS = 'address1,address2,city,country,state,zip';
const cents = (x: number): number => Math.round(x * 100);

/** The structural facts of τ²'s DB that the sandbox mirrors; returns violations (empty when all hold). */
function structuralProblems(db: Db): string[] {
  const problems: string[] = [];
  const fail = (where: string, what: string) => {
    if (problems.length < 20) problems.push(`${where}: ${what}`);
  };
  const checkAddress = (where: string, a: Address) => {
    if (Object.keys(a).join(',') !== ADDRESS_KEYS) fail(where, `address keys ${Object.keys(a)}`);
    if (a.country !== 'USA' || !US_STATES.has(a.state) || !/^\d{5}$/.test(a.zip)) fail(where, 'bad address');
  };
  for (const [pid, p] of Object.entries(db.products)) {
    if (p.product_id !== pid || !/^\d{10}$/.test(pid)) fail(pid, 'product id');
    const optionKeys = new Set<string>();
    for (const [iid, v] of Object.entries(p.variants)) {
      if (v.item_id !== iid || !/^\d{10}$/.test(iid)) fail(iid, 'item id');
      optionKeys.add(Object.keys(v.options).join('|'));
      if (!Object.values(v.options).every((x) => typeof x === 'string'))
        fail(iid, 'option value not a string');
      if (cents(v.price) / 100 !== v.price || v.price <= 0) fail(iid, `price ${v.price} not in cents`);
    }
    if (optionKeys.size !== 1) fail(pid, 'variants with different option names');
  }
  for (const [uid, u] of Object.entries(db.users)) {
    const first = u.name.first_name.toLowerCase();
    const last = u.name.last_name.toLowerCase();
    if (u.user_id !== uid || !new RegExp(`^${first}_${last}_\\d{4}$`).test(uid)) fail(uid, 'user id');
    if (!new RegExp(`^${first}\\.${last}\\d{4}@example\\.com$`).test(u.email)) fail(uid, `email ${u.email}`);
    checkAddress(uid, u.address);
    for (const [mid, m] of Object.entries(u.payment_methods)) {
      if (m.id !== mid || !new RegExp(`^${m.source}_\\d{7}$`).test(mid)) fail(mid, 'payment method id');
      const keys = Object.keys(m).join(',');
      if (
        m.source === 'credit_card' &&
        (keys !== 'source,id,brand,last_four' || !/^\d{4}$/.test(m.last_four!))
      )
        fail(mid, 'credit card fields');
      if (m.source === 'gift_card' && (keys !== 'source,id,balance' || typeof m.balance !== 'number'))
        fail(mid, 'gift card fields');
      if (m.source === 'paypal' && keys !== 'source,id') fail(mid, 'paypal fields');
    }
    const own = Object.values(db.orders)
      .filter((o) => o.user_id === uid)
      .map((o) => o.order_id);
    if (JSON.stringify(own) !== JSON.stringify(u.orders))
      fail(uid, "orders list differs from the user's orders");
  }
  for (const [oid, o] of Object.entries(db.orders)) {
    if (o.order_id !== oid || !/^#W\d{7}$/.test(oid)) fail(oid, 'order id');
    const user = db.users[o.user_id];
    if (user === undefined) {
      fail(oid, 'unknown user');
      continue;
    }
    checkAddress(oid, o.address);
    if (Object.keys(o).length !== 7) fail(oid, `extra fields ${Object.keys(o)}`);
    if (!['pending', 'delivered', 'processed', 'cancelled'].includes(o.status))
      fail(oid, `status ${o.status}`);
    if (o.items.length < 1 || o.items.length > 5) fail(oid, `${o.items.length} items`);
    for (const item of o.items) {
      const product = db.products[item.product_id];
      const v = product?.variants[item.item_id];
      if (
        product === undefined ||
        v === undefined ||
        item.name !== product.name ||
        item.price !== v.price ||
        JSON.stringify(item.options) !== JSON.stringify(v.options)
      )
        fail(oid, `item ${item.item_id} is not its variant`);
    }
    const itemIds = JSON.stringify(o.items.map((i) => i.item_id));
    if (o.status === 'pending') {
      if (o.fulfillments.length !== 0) fail(oid, 'pending order with a fulfillment');
    } else if (
      o.fulfillments.length !== 1 ||
      o.fulfillments[0]!.tracking_id.length < 1 ||
      !o.fulfillments[0]!.tracking_id.every((t) => /^\d{12}$/.test(t)) ||
      JSON.stringify(o.fulfillments[0]!.item_ids) !== itemIds
    )
      fail(oid, 'fulfillment');
    const [payment, refund, ...more] = o.payment_history;
    const amount = o.items.reduce((n, i) => n + cents(i.price), 0) / 100; // Python round(sum(prices), 2)
    if (
      payment?.transaction_type !== 'payment' ||
      payment.amount !== amount ||
      !(payment.payment_method_id in user.payment_methods)
    )
      fail(oid, 'payment');
    if (o.status === 'cancelled') {
      if (
        refund?.transaction_type !== 'refund' ||
        refund.amount !== payment?.amount ||
        refund.payment_method_id !== payment?.payment_method_id ||
        more.length > 0
      )
        fail(oid, 'refund');
    } else if (refund !== undefined) fail(oid, 'more than one transaction');
  }
  return problems;
}

/** The identifying values the sandbox must not share with τ² (checked on the raw values, not fingerprints). */
function identifying(db: Db): Record<string, Set<string>> {
  const out: Record<string, Set<string>> = {
    'user id': new Set(),
    email: new Set(),
    'full name': new Set(),
    address1: new Set(),
    'order id': new Set(),
    'item id': new Set(),
    'product id': new Set(),
    price: new Set(),
  };
  const add = (kind: string, v: string) => out[kind]!.add(v);
  for (const p of Object.values(db.products)) {
    add('product id', p.product_id);
    for (const v of Object.values(p.variants)) {
      add('item id', v.item_id);
      add('price', pyFloatRepr(v.price));
    }
  }
  for (const u of Object.values(db.users)) {
    add('user id', u.user_id);
    add('email', u.email);
    add('full name', `${u.name.first_name} ${u.name.last_name}`.toLowerCase());
    add('address1', u.address.address1);
  }
  for (const o of Object.values(db.orders)) {
    add('order id', o.order_id);
    add('address1', o.address.address1);
    for (const i of o.items) {
      add('item id', i.item_id);
      add('product id', i.product_id);
      add('price', pyFloatRepr(i.price));
    }
  }
  return out;
}

describe('retail sandbox generator', () => {
  it('(a) is deterministic: same seed, same bytes; another seed, another DB; products independent of sizes', () => {
    const first = sandboxText({ seed: 1 });
    const again = pyJsonDumps(generateRetailSandbox({ seed: 1 }), {
      indent: 4,
    });
    expect(again === first).toBe(true);
    expect(sandboxText({ seed: 2 }) === first).toBe(false);
    // each entity depends on (seed, index): the catalog does not move when the sizes change
    expect(JSON.stringify(sandbox({ seed: 3, users: 50, orders: 100 }).products)).toBe(
      JSON.stringify(JSON.parse(pyJsonDumps(generateRetailSandbox({ seed: 3 }), { indent: 4 })).products),
    );
  });

  it("(b) loads as a retail DB, writes back byte for byte in τ²'s file style, and is not τ²'s DB", () => {
    const text = sandboxText({ seed: 1 });
    expect(text.startsWith('{\n    "products": {\n')).toBe(true);
    expect(text.endsWith('\n}')).toBe(true); // json.dumps(indent=4): no trailing newline, like τ²'s file
    const loaded = baseFromValue(retailDomain, parsePyJson(text), 'sandbox.json');
    try {
      expect(loaded.isTau2Benchmark).toBe(false);
      expect(loaded.hashes.db_hash).not.toBe(retailDomain.tau2?.initialHashes?.db_hash);
      expect(stateFileText(loaded.base.spec, loaded.base.sql, 'file') === text).toBe(true);
    } finally {
      loaded.base.close();
    }
  });

  it("(c) mirrors τ²'s structure and statistics (each within ±20 % of τ²'s, computed from its db.json)", () => {
    expect(structuralProblems(TAU2)).toEqual([]); // the facts checked are τ²'s own
    for (const seed of [1, 2]) {
      const db = sandbox({ seed });
      expect(structuralProblems(db)).toEqual([]);
      expect(outsideTolerance(db)).toEqual([]);
      expect(statistics(db)['users with 0 orders']).toBeGreaterThan(0);
      expect(Object.keys(db.users)).toHaveLength(500);
      expect(Object.keys(db.orders)).toHaveLength(1000);
    }
  });

  it("(d) shares no user id, email, name, address, order/item/product id or price with τ²'s DB", () => {
    const theirs = identifying(TAU2);
    for (const seed of [1, 2]) {
      const ours = identifying(sandbox({ seed }));
      for (const [kind, values] of Object.entries(ours)) {
        expect(values.size, kind).toBeGreaterThan(0);
        const shared = [...values].filter((v) => theirs[kind]!.has(v));
        expect(shared, `${kind} shared with τ² (seed ${seed})`).toEqual([]);
      }
      // 10-digit ids are not reused across kinds either
      const allTau2Ids = new Set([...theirs['item id']!, ...theirs['product id']!]);
      expect([...ours['item id']!, ...ours['product id']!].filter((id) => allTau2Ids.has(id))).toEqual([]);
    }
  });

  it("(e) the committed fingerprint file is current with τ²'s db.json", () => {
    const committed = readFileSync(join(REPO, 'src/domains/retail/sandbox/tau2-fingerprints.ts'), 'utf8');
    expect(fingerprintModuleText(tau2Fingerprints(readJsonFile(RETAIL_DB), RETAIL_DB)) === committed).toBe(
      true,
    );
    // and, computed independently here, every τ² value of the kinds above has its fingerprint in the set
    const set = new Set(TAU2_FINGERPRINTS.flatMap((line) => line.split(' ')));
    const kinds: Record<string, string> = {
      'user id': 'user',
      email: 'email',
      'full name': 'name',
      address1: 'address1',
      'order id': 'order',
      'item id': 'item',
      'product id': 'product',
      price: 'price',
    };
    for (const [kind, values] of Object.entries(identifying(TAU2))) {
      for (const v of values) {
        const fp = createHash('sha256').update(`${kinds[kind]}:${v}`).digest('hex').slice(0, 12);
        if (!set.has(fp)) expect.fail(`no fingerprint for τ² ${kind} ${v}`);
      }
    }
  });

  it('(g) a small DB (50 users, 100 orders) keeps the structure and the shares within ±20 %', () => {
    const db = sandbox({ seed: 3, users: 50, orders: 100 });
    expect(Object.keys(db.users)).toHaveLength(50);
    expect(Object.keys(db.orders)).toHaveLength(100);
    expect(structuralProblems(db)).toEqual([]);
    // no extra tolerance needed: shares come from exact quotas, not from independent coin flips
    expect(outsideTolerance(db)).toEqual([]);
    const theirs = identifying(TAU2);
    for (const [kind, values] of Object.entries(identifying(db))) {
      expect(
        [...values].filter((v) => theirs[kind]!.has(v)),
        kind,
      ).toEqual([]);
    }
  });
});

describe('cove sandbox', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cove-sandbox-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('(f) writes a loadable DB atomically and prints a summary', () => {
    const file = join(dir, 'db.json');
    const args = [
      'sandbox',
      '--domain',
      'retail',
      '--seed',
      '3',
      '--users',
      '50',
      '--orders',
      '100',
      '--out',
      file,
    ];
    const r = runCove(args);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/50 users, 100 orders/);
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(sandboxText({ seed: 3, users: 50, orders: 100 }));
    const loaded = baseFromValue(retailDomain, readJsonFile(file), file);
    expect(loaded.isTau2Benchmark).toBe(false);
    loaded.base.close();
    expect(readdirSync(dir)).toEqual(['db.json']); // no temporary file left behind
  });

  it('(f) rejects bad flags with exit code 2 and a clear message', () => {
    const out = join(dir, 'bad.json');
    const zero = runCove(['sandbox', '--domain', 'retail', '--seed', '1', '--users', '0', '--out', out]);
    expect(zero.status).toBe(2);
    expect(zero.stderr).toContain("--users must be a positive integer (at most 100000), not '0'");
    const seed = runCove(['sandbox', '--domain', 'retail', '--seed', 'x', '--out', out]);
    expect(seed.status).toBe(2);
    expect(seed.stderr).toContain('--seed must be a non-negative integer');
    expect(seed.stderr).toContain("not 'x'");
    expect(readdirSync(dir)).not.toContain('bad.json');
  });
});
