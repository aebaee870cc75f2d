import { toPyValue } from '../../src/core/py-value.js';
import type { EnvironmentBase } from '../../src/env/environment-base.js';
import type { Episode } from '../../src/env/episode.js';
import type { SqlConnection } from '../../src/env/sql.js';

/**
 * An INDEPENDENT brute-force uniqueness checker for synthesized retail tasks.
 *
 * It re-implements, from the written spec only, what every fuzzy description of a task means, and checks by
 * enumerating ALL entities in scope (raw SQL on the retail tables, no read tools, nothing from
 * `src/domains/retail/synthesis/` or `src/tasks/`) that exactly the intended entity matches:
 *
 * - user: email (case-insensitive) or first + last name (case-insensitive) + exact zip, over all users;
 * - per request, in the state just before it (gold actions of the earlier constraints applied, in order):
 *   order among all of the user's orders, items among the order's distinct item ids, replacements among all
 *   variants of the product (the cheapest available ones with some options; the product's items in the user's
 *   other orders), payments among the user's methods, addresses among their candidates; an order of another
 *   user named by its id (a refused request) must exist and not be the user's;
 * - the task's user-facing text mentions no hidden id, and every hidden id is an id a description replaced.
 *
 * Types below are local copies of the request / reference shapes (types only, written from reading
 * requests.ts and references.ts).
 */

// ---- local shapes ----------------------------------------------------------------------------------------

type Opts = Readonly<Record<string, string>>;

export interface BfAddress {
  readonly address1: string;
  readonly address2: string;
  readonly city: string;
  readonly country: string;
  readonly state: string;
  readonly zip: string;
}

export type BfUserRef =
  | { readonly strategy: 'email'; readonly email: string }
  | {
      readonly strategy: 'name_zip';
      readonly first_name: string;
      readonly last_name: string;
      readonly zip: string;
    };

export interface BfMention {
  readonly product_name: string;
  readonly options?: Opts;
}

export type BfOrderRef =
  | { readonly strategy: 'id'; readonly order_id: string }
  | { readonly strategy: 'items'; readonly items: readonly BfMention[]; readonly status?: string };

export type BfItemRef =
  | { readonly strategy: 'id'; readonly item_id: string }
  | { readonly strategy: 'name'; readonly product_name: string }
  | { readonly strategy: 'name_options'; readonly product_name: string; readonly options: Opts };

export type BfVariantRef =
  | { readonly strategy: 'id'; readonly item_id: string }
  | { readonly strategy: 'options'; readonly product_name: string; readonly options: Opts }
  | { readonly strategy: 'cheapest'; readonly product_name: string; readonly options: Opts }
  | { readonly strategy: 'same_as_order'; readonly product_name: string; readonly with_product?: string };

export type BfPaymentRef =
  | { readonly strategy: 'id'; readonly payment_method_id: string }
  | { readonly strategy: 'kind'; readonly source: string }
  | { readonly strategy: 'brand'; readonly source: string; readonly brand: string }
  | { readonly strategy: 'last_four'; readonly source: string; readonly last_four: string }
  | { readonly strategy: 'original' };

export type BfAddressRef =
  | { readonly strategy: 'explicit'; readonly address: BfAddress }
  | { readonly strategy: 'default' }
  | { readonly strategy: 'order_city'; readonly city: string };

export interface BfSwap {
  readonly item: BfItemRef;
  readonly replacement: BfVariantRef;
}

/** A request as stored in `cove.fuzz.requests` (all fields optional here: the checker validates presence). */
export interface BfRequest {
  readonly kind: string;
  readonly order?: BfOrderRef;
  readonly address?: BfAddressRef;
  readonly payment?: BfPaymentRef;
  readonly items?: readonly (BfItemRef | BfSwap)[];
  readonly topic?: string;
  readonly action?: string;
  readonly reason?: string;
  readonly wanted_product?: string;
  readonly refund_to?: BfPaymentRef;
  readonly swaps?: readonly BfSwap[];
  readonly about?: string;
}

export interface BfFuzz {
  readonly level: number;
  readonly user: BfUserRef;
  readonly requests: readonly BfRequest[];
  readonly hidden_ids: readonly string[];
}

/** The parts of a written task the checker reads. */
export interface BfTask {
  readonly id: string;
  readonly user_scenario: unknown;
  readonly evaluation_criteria: {
    readonly actions: readonly {
      readonly name: string;
      readonly arguments: Readonly<Record<string, unknown>>;
    }[];
  };
  readonly cove: {
    readonly constraints: readonly {
      readonly id: string;
      readonly kind: string;
      readonly args: Readonly<Record<string, unknown>>;
    }[];
    readonly fuzz: unknown;
    readonly semantics?: 'parity' | 'fixed';
  };
}

const WRITE_KINDS = new Set([
  'cancel_pending_order',
  'modify_pending_order_address',
  'modify_pending_order_payment',
  'modify_pending_order_items',
  'modify_user_address',
  'return_delivered_order_items',
  'exchange_delivered_order_items',
]);

// ---- raw SQL views of the state ----------------------------------------------------------------------------

interface Item {
  readonly name: string;
  readonly product_id: string;
  readonly item_id: string;
  readonly options: Opts;
}
interface Order {
  readonly order_id: string;
  readonly status: string;
  readonly address: BfAddress;
  readonly items: readonly Item[];
  readonly firstPaymentMethod: string | undefined;
}
interface Method {
  readonly id: string;
  readonly source: string;
  readonly brand: string | null;
  readonly last_four: string | null;
}

const s = (v: unknown): string => String(v);
const addr = (r: Record<string, unknown>): BfAddress => ({
  address1: s(r.address1),
  address2: s(r.address2),
  city: s(r.city),
  country: s(r.country),
  state: s(r.state),
  zip: s(r.zip),
});
const ADDRESS_KEYS = ['address1', 'address2', 'city', 'country', 'state', 'zip'] as const;
const sameAddr = (a: BfAddress, b: BfAddress): boolean => ADDRESS_KEYS.every((k) => a[k] === b[k]);

/** Every order the user has: listed in `user_orders` or owned in `orders` (the union, to be strict). */
function ordersOf(sql: SqlConnection, userId: string): Order[] {
  const ids = new Set<string>();
  for (const r of sql.all('SELECT order_id FROM user_orders WHERE user_id = ? ORDER BY pos', userId))
    ids.add(s(r.order_id));
  for (const r of sql.all('SELECT order_id FROM orders WHERE user_id = ? ORDER BY pos', userId))
    ids.add(s(r.order_id));
  const out: Order[] = [];
  for (const id of ids) {
    const o = sql.get('SELECT * FROM orders WHERE order_id = ?', id);
    if (o === undefined) continue;
    const items = sql
      .all('SELECT name, product_id, item_id, options FROM order_items WHERE order_id = ? ORDER BY pos', id)
      .map((r) => ({
        name: s(r.name),
        product_id: s(r.product_id),
        item_id: s(r.item_id),
        options: JSON.parse(s(r.options)) as Opts,
      }));
    const first = sql.get(
      'SELECT payment_method_id FROM payments WHERE order_id = ? ORDER BY pos LIMIT 1',
      id,
    );
    out.push({
      order_id: id,
      status: s(o.status),
      address: addr(o),
      items,
      firstPaymentMethod: first === undefined ? undefined : s(first.payment_method_id),
    });
  }
  return out;
}

function methodsOf(sql: SqlConnection, userId: string): Method[] {
  return sql
    .all('SELECT id, source, brand, last_four FROM payment_methods WHERE user_id = ? ORDER BY pos', userId)
    .map((r) => ({
      id: s(r.id),
      source: s(r.source),
      brand: r.brand === null ? null : s(r.brand),
      last_four: r.last_four === null ? null : s(r.last_four),
    }));
}

function profileAddress(sql: SqlConnection, userId: string): BfAddress | undefined {
  const r = sql.get('SELECT * FROM users WHERE user_id = ?', userId);
  return r === undefined ? undefined : addr(r);
}

// ---- matching, from the spec --------------------------------------------------------------------------------

const optionSubset = (have: Opts, wanted: Opts | undefined): boolean =>
  wanted === undefined || Object.entries(wanted).every(([k, v]) => have[k] === v);

/** Distinct items of the order can be assigned to every mention (product name, and option subset if given). */
function orderHasMentions(order: Order, mentions: readonly BfMention[]): boolean {
  const taken = order.items.map(() => false);
  const place = (m: number): boolean => {
    const mention = mentions[m];
    if (mention === undefined) return true;
    for (const [j, it] of order.items.entries()) {
      if (taken[j] || it.name !== mention.product_name || !optionSubset(it.options, mention.options))
        continue;
      taken[j] = true;
      if (place(m + 1)) return true;
      taken[j] = false;
    }
    return false;
  };
  return place(0);
}

function ordersMatching(ref: BfOrderRef, orders: readonly Order[]): string[] {
  return orders
    .filter((o) =>
      ref.strategy === 'id'
        ? o.order_id === ref.order_id
        : (ref.status === undefined || o.status === ref.status) && orderHasMentions(o, ref.items),
    )
    .map((o) => o.order_id);
}

function itemIdsMatching(ref: BfItemRef, order: Order): string[] {
  const hits = order.items.filter((it) => {
    if (ref.strategy === 'id') return it.item_id === ref.item_id;
    if (it.name !== ref.product_name) return false;
    return ref.strategy === 'name' || optionSubset(it.options, ref.options);
  });
  return [...new Set(hits.map((it) => it.item_id))];
}

/**
 * Variants a replacement names. `cheapest`: among the product's available variants having the options, those at
 * the lowest price. `same_as_order`: the product's items, other than the old one, in the user's orders other
 * than `orderId` (only orders holding `with_product` when it is given).
 */
function variantsMatching(
  sql: SqlConnection,
  ref: BfVariantRef,
  old: Item,
  orders: readonly Order[],
  orderId: string,
): string[] {
  const variants = sql
    .all(
      'SELECT item_id, options, available, price FROM variants WHERE product_id = ? ORDER BY pos',
      old.product_id,
    )
    .map((r) => ({
      item_id: s(r.item_id),
      options: JSON.parse(s(r.options)) as Opts,
      available: Number(r.available) === 1,
      price: Number(r.price),
    }));
  if (ref.strategy === 'id') return variants.filter((v) => v.item_id === ref.item_id).map((v) => v.item_id);
  if (ref.strategy === 'cheapest') {
    const offered = variants.filter((v) => v.available && optionSubset(v.options, ref.options));
    let lowest = Number.POSITIVE_INFINITY;
    for (const v of offered) if (v.price < lowest) lowest = v.price;
    return offered.filter((v) => v.price === lowest).map((v) => v.item_id);
  }
  if (ref.strategy === 'same_as_order') {
    const ids = new Set<string>();
    for (const o of orders) {
      if (o.order_id === orderId) continue;
      if (ref.with_product !== undefined && !o.items.some((it) => it.name === ref.with_product)) continue;
      for (const it of o.items)
        if (it.product_id === old.product_id && it.item_id !== old.item_id) ids.add(it.item_id);
    }
    return variants.filter((v) => ids.has(v.item_id)).map((v) => v.item_id);
  }
  const wanted: Record<string, string> = { ...old.options, ...ref.options };
  const keys = Object.keys(wanted);
  return variants
    .filter(
      (v) => Object.keys(v.options).length === keys.length && keys.every((k) => v.options[k] === wanted[k]),
    )
    .map((v) => v.item_id);
}

function methodsMatching(ref: BfPaymentRef, methods: readonly Method[], order: Order | undefined): string[] {
  const hits = methods.filter((m) => {
    switch (ref.strategy) {
      case 'id':
        return m.id === ref.payment_method_id;
      case 'kind':
        return m.source === ref.source;
      case 'brand':
        return m.source === 'credit_card' && m.brand?.toLowerCase() === ref.brand.toLowerCase();
      case 'last_four':
        return m.source === 'credit_card' && m.last_four === ref.last_four;
      case 'original':
        return order?.firstPaymentMethod !== undefined && m.id === order.firstPaymentMethod;
      default:
        return false;
    }
  });
  return hits.map((m) => m.id);
}

function addressesMatching(ref: BfAddressRef, profile: BfAddress, orders: readonly Order[]): BfAddress[] {
  switch (ref.strategy) {
    case 'explicit':
      return [ref.address];
    case 'default':
      return [profile];
    case 'order_city': {
      const out: BfAddress[] = [];
      for (const o of orders)
        if (o.address.city === ref.city && !out.some((a) => sameAddr(a, o.address))) out.push(o.address);
      return out;
    }
    default:
      return [];
  }
}

// ---- the checker ---------------------------------------------------------------------------------------------

/** What the checker expects hidden: ids replaced by a non-`id` description, with their kind. */
type IdKind = 'user' | 'order' | 'item' | 'variant' | 'payment';

class TaskChecker {
  readonly problems: string[] = [];
  readonly replaced = new Map<string, Set<IdKind>>();
  constructor(
    readonly episode: Episode,
    readonly userId: string,
  ) {}

  get sql(): SqlConnection {
    return this.episode.sql;
  }

  fail(where: string, what: string): void {
    this.problems.push(`${where}: ${what}`);
  }

  hide(id: string, kind: IdKind): void {
    const kinds = this.replaced.get(id) ?? new Set<IdKind>();
    kinds.add(kind);
    this.replaced.set(id, kinds);
  }

  exactlyOne(where: string, what: string, hits: readonly string[], intended: unknown): void {
    if (hits.length !== 1 || hits[0] !== intended)
      this.fail(where, `${what} matches [${hits.join(', ')}], intended ${String(intended)}`);
  }

  order(
    where: string,
    ref: BfOrderRef | undefined,
    orderId: unknown,
    orders: readonly Order[],
  ): Order | undefined {
    if (ref === undefined) {
      this.fail(where, 'no order description');
      return undefined;
    }
    if (ref.strategy !== 'id') this.hide(s(orderId), 'order');
    this.exactlyOne(where, `order description ${JSON.stringify(ref)}`, ordersMatching(ref, orders), orderId);
    return orders.find((o) => o.order_id === orderId);
  }

  item(where: string, ref: BfItemRef, order: Order, itemId: unknown): Item | undefined {
    if (ref.strategy !== 'id') this.hide(s(itemId), 'item');
    this.exactlyOne(where, `item description ${JSON.stringify(ref)}`, itemIdsMatching(ref, order), itemId);
    return order.items.find((it) => it.item_id === itemId);
  }

  variant(where: string, ref: BfVariantRef, old: Item, newId: unknown, order: Order): void {
    if (ref.strategy !== 'id') {
      this.hide(s(newId), 'variant');
      if (ref.product_name !== old.name)
        this.fail(where, `replacement names product ${ref.product_name}, the item is a ${old.name}`);
    }
    const orders = ordersOf(this.sql, this.userId);
    const hits = variantsMatching(this.sql, ref, old, orders, order.order_id);
    this.exactlyOne(where, `replacement ${JSON.stringify(ref)}`, hits, newId);
  }

  payment(where: string, ref: BfPaymentRef | undefined, methodId: unknown, order: Order | undefined): void {
    if (ref === undefined) {
      this.fail(where, 'no payment description');
      return;
    }
    if (ref.strategy !== 'id') this.hide(s(methodId), 'payment');
    const hits = methodsMatching(ref, methodsOf(this.sql, this.userId), order);
    this.exactlyOne(where, `payment description ${JSON.stringify(ref)}`, hits, methodId);
  }

  address(where: string, ref: BfAddressRef | undefined, target: unknown, orders: readonly Order[]): void {
    const profile = profileAddress(this.sql, this.userId);
    if (ref === undefined || profile === undefined) {
      this.fail(where, 'no address description');
      return;
    }
    const hits = addressesMatching(ref, profile, orders);
    const t = target as BfAddress;
    if (hits.length !== 1 || hits[0] === undefined || !sameAddr(hits[0], t))
      this.fail(
        where,
        `address description ${JSON.stringify(ref)} matches ${hits.length} address(es), not exactly the target`,
      );
  }

  /** Old item + replacement pairs, parallel to `item_ids` / `new_item_ids`. */
  swaps(
    where: string,
    swaps: readonly BfSwap[],
    order: Order,
    args: Readonly<Record<string, unknown>>,
  ): void {
    const olds = args.item_ids as string[];
    const news = args.new_item_ids as string[];
    if (swaps.length !== olds.length || news.length !== olds.length) {
      this.fail(where, `${swaps.length} swaps described for ${olds.length} items`);
      return;
    }
    swaps.forEach((sw, j) => {
      if (sw.item === undefined || sw.replacement === undefined) {
        this.fail(where, `swap ${j} malformed`);
        return;
      }
      const old = this.item(`${where} swap ${j}`, sw.item, order, olds[j]);
      if (old === undefined) {
        this.fail(where, `item ${olds[j]} not in order ${order.order_id}`);
        return;
      }
      this.variant(`${where} swap ${j}`, sw.replacement, old, news[j], order);
    });
  }

  items(where: string, refs: readonly BfItemRef[] | undefined, order: Order, ids: unknown): void {
    const list = (ids ?? []) as string[];
    if ((refs ?? []).length !== list.length) {
      this.fail(where, `${refs?.length ?? 0} items described for ${list.length} ids`);
      return;
    }
    refs?.forEach((ref, j) => {
      this.item(`${where} item ${j}`, ref, order, list[j]);
    });
  }

  /** A request about another user's order: named by its id, an order of the DB that is not the user's. */
  foreignOrder(where: string, r: BfRequest, a: Readonly<Record<string, unknown>>): void {
    if (r.order?.strategy !== 'id' || r.order.order_id !== a.order_id)
      this.fail(where, `another user's order must be named by its id ${String(a.order_id)}`);
    const owner = this.sql.get('SELECT user_id FROM orders WHERE order_id = ?', String(a.order_id));
    if (owner === undefined) this.fail(where, `order ${String(a.order_id)} does not exist`);
    else if (s(owner.user_id) === this.userId)
      this.fail(where, `order ${String(a.order_id)} is the user's own`);
    if (r.about !== a.about) this.fail(where, `about ${r.about} ≠ ${String(a.about)}`);
  }

  /** Checks one request in the current state of the episode. */
  request(where: string, r: BfRequest, c: { kind: string; args: Readonly<Record<string, unknown>> }): void {
    const a = c.args;
    if (r.kind !== c.kind) {
      this.fail(where, `request kind ${r.kind} for a ${c.kind} constraint`);
      return;
    }
    const orders = ordersOf(this.sql, this.userId);
    if (c.kind === 'refusal' && a.action === 'other_users_order') {
      this.foreignOrder(where, r, a);
      return;
    }
    const needsOrder = a.order_id !== undefined;
    const order = needsOrder ? this.order(where, r.order, a.order_id, orders) : undefined;
    if (!needsOrder && r.order !== undefined) this.fail(where, 'order described but the constraint has none');
    if (needsOrder && order === undefined) return;
    switch (c.kind) {
      case 'cancel_pending_order':
        if (r.reason !== a.reason) this.fail(where, `reason ${r.reason} ≠ ${String(a.reason)}`);
        break;
      case 'modify_pending_order_address':
        this.address(where, r.address, a.address, orders);
        break;
      case 'modify_pending_order_payment':
        this.payment(where, r.payment, a.payment_method_id, order);
        break;
      case 'modify_pending_order_items':
      case 'exchange_delivered_order_items':
        this.swaps(where, (r.items ?? []) as readonly BfSwap[], order as Order, a);
        this.payment(where, r.payment, a.payment_method_id, order);
        break;
      case 'modify_user_address':
        if (a.user_id !== this.userId)
          this.fail(where, `user_id ${String(a.user_id)} is not the task's user`);
        this.address(where, r.address, a.address, orders);
        break;
      case 'return_delivered_order_items':
        this.items(where, r.items as readonly BfItemRef[] | undefined, order as Order, a.item_ids);
        this.payment(where, r.payment, a.payment_method_id, order);
        break;
      case 'information':
        if (r.topic !== a.topic) this.fail(where, `topic ${r.topic} ≠ ${String(a.topic)}`);
        else if (a.topic === 'gift_card_balance')
          this.payment(where, r.payment, a.payment_method_id, undefined);
        else if (a.topic !== 'order_total') this.fail(where, `unknown topic ${String(a.topic)}`);
        break;
      case 'refusal':
        if (r.action !== a.action) this.fail(where, `action ${r.action} ≠ ${String(a.action)}`);
        if (r.reason !== a.reason) this.fail(where, `reason ${r.reason} ≠ ${String(a.reason)}`);
        if (a.action === 'second_item_change') this.swaps(where, r.swaps ?? [], order as Order, a);
        else if (a.item_ids !== undefined || r.items !== undefined)
          this.items(where, r.items as readonly BfItemRef[] | undefined, order as Order, a.item_ids);
        if (r.wanted_product !== a.wanted_product)
          this.fail(where, `wanted product ${r.wanted_product} ≠ ${String(a.wanted_product)}`);
        if (a.payment_method_id !== undefined || r.refund_to !== undefined)
          this.payment(where, r.refund_to, a.payment_method_id, order);
        break;
      default:
        this.fail(where, `unknown constraint kind ${c.kind}`);
    }
  }
}

/**
 * The users the task's constraints belong to (a refused request about another user's order aside) (owners of their orders, `user_id` args; when neither exists, the
 * owners of their payment methods). A valid task has exactly one.
 */
function taskUsers(sql: SqlConnection, task: BfTask): Set<string> {
  const users = new Set<string>();
  for (const c of task.cove.constraints) {
    const a = c.args;
    if (a.action === 'other_users_order') continue;
    if (typeof a.order_id === 'string') {
      const o = sql.get('SELECT user_id FROM orders WHERE order_id = ?', a.order_id);
      users.add(o === undefined ? `<no owner of ${a.order_id}>` : s(o.user_id));
    }
    if (typeof a.user_id === 'string') users.add(a.user_id);
  }
  if (users.size > 0) return users;
  for (const c of task.cove.constraints) {
    if (typeof c.args.payment_method_id !== 'string') continue;
    for (const r of sql.all('SELECT user_id FROM payment_methods WHERE id = ?', c.args.payment_method_id))
      users.add(s(r.user_id));
  }
  return users;
}

/** Every user of the initial DB (read once per base: users are looked up before any change). */
const usersByBase = new WeakMap<EnvironmentBase, Record<string, unknown>[]>();

function usersMatching(base: EnvironmentBase, sql: SqlConnection, ref: BfUserRef): string[] {
  let all = usersByBase.get(base);
  if (all === undefined) {
    all = sql.all('SELECT user_id, first_name, last_name, zip, email FROM users ORDER BY pos');
    usersByBase.set(base, all);
  }
  return all
    .filter((u) =>
      ref.strategy === 'email'
        ? s(u.email).toLowerCase() === ref.email.toLowerCase()
        : s(u.first_name).toLowerCase() === ref.first_name.toLowerCase() &&
          s(u.last_name).toLowerCase() === ref.last_name.toLowerCase() &&
          s(u.zip) === ref.zip,
    )
    .map((u) => s(u.user_id));
}

/** Whether `id` exists in the initial DB as an id of this kind (for the task's user where that applies). */
function existsAs(sql: SqlConnection, id: string, kind: IdKind, userId: string): boolean {
  switch (kind) {
    case 'user':
      return sql.get('SELECT 1 AS x FROM users WHERE user_id = ?', id) !== undefined;
    case 'order':
      return (
        sql.get('SELECT 1 AS x FROM orders WHERE order_id = ? AND user_id = ?', id, userId) !== undefined
      );
    case 'item':
      return (
        sql.get(
          'SELECT 1 AS x FROM order_items i JOIN orders o ON o.order_id = i.order_id WHERE i.item_id = ? AND o.user_id = ?',
          id,
          userId,
        ) !== undefined
      );
    case 'variant':
      return sql.get('SELECT 1 AS x FROM variants WHERE item_id = ?', id) !== undefined;
    case 'payment':
      return (
        sql.get('SELECT 1 AS x FROM payment_methods WHERE id = ? AND user_id = ?', id, userId) !== undefined
      );
  }
}

/** Options of {@link bruteForceViolations}. */
export interface BruteForceOptions {
  /**
   * Also require every request's descriptions to be unique in the initial state (the user may bring all requests
   * up at once, before any change). The spec only asks for the state just before the request.
   */
  readonly alsoInitialState?: boolean;
}

/**
 * Every uniqueness / leak problem of one task, as readable lines (empty: the task passes).
 * The episode used is forked from `base` and closed before returning.
 */
export function bruteForceViolations(
  base: EnvironmentBase,
  task: BfTask,
  options: BruteForceOptions = {},
): string[] {
  const fuzz = task.cove.fuzz as BfFuzz;
  const constraints = task.cove.constraints;
  const episode = base.fork({ semantics: task.cove.semantics ?? 'parity' });
  const fresh = base.fork({ semantics: task.cove.semantics ?? 'parity' });
  try {
    const matched = usersMatching(base, episode.sql, fuzz.user);
    let owners = taskUsers(episode.sql, task);
    // a task whose only request is about another user's order: its user is whom the user description finds
    const foreignOnly = constraints.every((c) => c.args.action === 'other_users_order');
    if (owners.size === 0 && foreignOnly) owners = new Set(matched);
    if (owners.size !== 1) return [`${task.id}: constraints belong to ${owners.size} users [${[...owners]}]`];
    const userId = [...owners][0] as string;
    const check = new TaskChecker(episode, userId);
    check.exactlyOne(task.id, `user description ${JSON.stringify(fuzz.user)}`, matched, userId);
    check.hide(userId, 'user');
    if (fuzz.requests.length !== constraints.length)
      check.fail(task.id, `${fuzz.requests.length} requests for ${constraints.length} constraints`);
    const actions = [...task.evaluation_criteria.actions];
    constraints.forEach((c, i) => {
      const where = `${task.id} ${c.id} (${c.kind})`;
      const r = fuzz.requests[i];
      if (r === undefined) {
        check.fail(where, 'no request');
        return;
      }
      check.request(where, r, c);
      if (options.alsoInitialState === true && i > 0) {
        const initial = new TaskChecker(fresh, userId);
        initial.request(`${where} [initial state]`, r, c);
        check.problems.push(...initial.problems);
      }
      if (!WRITE_KINDS.has(c.kind)) return;
      const action = actions.shift();
      if (action === undefined || action.name !== c.kind) {
        check.fail(where, `gold action is ${action?.name ?? 'missing'}`);
        return;
      }
      const result = episode.call(action.name, toPyValue(action.arguments));
      if (result.error) check.fail(where, `gold action failed: ${result.content}`);
    });
    if (actions.length > 0) check.fail(task.id, `${actions.length} gold action(s) belong to no constraint`);

    // hidden ids are checked against the initial DB (the untouched fork), each as an id of the kind it replaced
    for (const id of fuzz.hidden_ids) {
      const kinds = check.replaced.get(id);
      if (kinds === undefined) check.fail(task.id, `hidden id ${id} was replaced by no description`);
      else if (![...kinds].some((k) => existsAs(fresh.sql, id, k, userId)))
        check.fail(task.id, `hidden id ${id} is not a ${[...kinds].join('/')} id of the user in the DB`);
      const anywhere = (['user', 'order', 'item', 'variant', 'payment'] as const).some((k) =>
        existsAs(fresh.sql, id, k, userId),
      );
      if (!anywhere) check.fail(task.id, `hidden id ${id} does not exist in the DB`);
    }
    for (const [id, kinds] of check.replaced) {
      if (!fuzz.hidden_ids.includes(id))
        check.fail(task.id, `${[...kinds].join('/')} id ${id} described but not hidden`);
    }
    const text = JSON.stringify(task.user_scenario);
    for (const id of new Set([...fuzz.hidden_ids, ...check.replaced.keys()])) {
      if (text.includes(id)) check.fail(task.id, `user text mentions hidden id ${id}`);
    }
    return check.problems;
  } finally {
    fresh.close();
    episode.close();
  }
}

// ---- strategies, derived from the references themselves ------------------------------------------------------

function orderStrategy(ref: BfOrderRef): string {
  if (ref.strategy === 'id') return 'order:id';
  if (ref.status !== undefined) return 'order:items+status';
  return ref.items.some((m) => m.options !== undefined) ? 'order:items+options' : 'order:items';
}

const itemStrategy = (ref: BfItemRef): string =>
  `item:${ref.strategy === 'name_options' ? 'name+options' : ref.strategy}`;

/** Every `<reference>:<strategy>` of one request, read off its references (order-insensitive use only). */
export function requestStrategies(r: BfRequest): string[] {
  const out: string[] = [];
  if (r.order !== undefined) out.push(orderStrategy(r.order));
  for (const it of [...(r.items ?? []), ...(r.swaps ?? [])]) {
    if ('replacement' in it) out.push(itemStrategy(it.item), `variant:${it.replacement.strategy}`);
    else out.push(itemStrategy(it));
  }
  if (r.payment !== undefined) out.push(`payment:${r.payment.strategy}`);
  if (r.refund_to !== undefined) out.push(`payment:${r.refund_to.strategy}`);
  if (r.address !== undefined) out.push(`address:${r.address.strategy}`);
  return out;
}

/** The user strategy and every request's strategies of a task's `cove.fuzz`. */
export function taskStrategies(fuzz: unknown): { user: string; requests: string[][] } {
  const f = fuzz as BfFuzz;
  return { user: `user:${f.user.strategy}`, requests: f.requests.map(requestStrategies) };
}
