import type { Rng } from '../../../core/rng.js';
import { CANCEL_REASONS } from '../vocabulary.js';
import type { UserState } from './fuzzify.js';
import type { RefusedAction } from './requests.js';
import type { AddressView, OrderItemView, OrderView, PaymentMethodView } from './views.js';
import { sameAddress } from './views.js';

/**
 * Candidate constraints for one user, drawn on the initial state following the retail policy: cancel and
 * modify-items only on `pending` orders, address/payment changes on pending-like orders, returns and exchanges on
 * `delivered` ones, replacements among available variants of the same product, payment methods of the user,
 * gift cards that cover the amount. Each draw returns exact args (ids), or `undefined` when the user has no
 * entity that qualifies.
 */

export type Draft = {
  readonly kind: string;
  readonly orderId?: string;
  readonly args: Record<string, unknown>;
};

const STREETS = [
  'Alder Lane',
  'Birch Court',
  'Quarry Road',
  'Juniper Way',
  'Harbor View Drive',
  'Mill Pond Road',
  'Orchard Terrace',
  'Cobblestone Row',
];
const CITIES: readonly [string, string, string][] = [
  ['Fairview', 'OR', '97024'],
  ['Riverton', 'WY', '82501'],
  ['Lakewood', 'CO', '80226'],
  ['Greenville', 'SC', '29601'],
  ['Springdale', 'AR', '72764'],
  ['Brookfield', 'WI', '53045'],
];

/** A new address for a user to move to (street names and towns of cove's own). */
export function newAddress(rng: Rng): AddressView {
  const [city, state, zip] = rng.pick(CITIES);
  return {
    address1: `${rng.int(10, 9899)} ${rng.pick(STREETS)}`,
    address2: rng.chance(0.5) ? `Apt ${rng.int(1, 40)}` : '',
    city,
    country: 'USA',
    state,
    zip,
  };
}

function methods(state: UserState): PaymentMethodView[] {
  return Object.values(state.user.payment_methods);
}

/** Prices of the variants that an item may be swapped for (available, same product, other item id). */
function alternatives(state: UserState, item: OrderItemView): { item_id: string; price: number }[] {
  const product = state.product(item.product_id);
  if (product === undefined) return [];
  return Object.values(product.variants).filter((v) => v.available && v.item_id !== item.item_id);
}

/**
 * Picks 1–3 items of an order that have replacements, and a replacement for each: half the time, when there is
 * one, a variant the user has in another order (so "the same one as in my other order" can describe it).
 */
function drawSwaps(
  rng: Rng,
  state: UserState,
  order: OrderView,
): { oldIds: string[]; newIds: string[]; diff: number } | undefined {
  const positions = order.items
    .map((it, i) => ({ it, i }))
    .filter(({ it }) => alternatives(state, it).length > 0);
  if (positions.length === 0) return undefined;
  const chosen = rng.sample(positions, rng.int(1, Math.min(3, positions.length)));
  const elsewhere = new Set(
    state.orders.filter((o) => o.order_id !== order.order_id).flatMap((o) => o.items.map((it) => it.item_id)),
  );
  let diff = 0;
  const oldIds: string[] = [];
  const newIds: string[] = [];
  for (const { it } of chosen) {
    const options = alternatives(state, it);
    const owned = options.filter((v) => elsewhere.has(v.item_id));
    const v = rng.pick(owned.length > 0 && rng.chance(0.5) ? owned : options);
    oldIds.push(it.item_id);
    newIds.push(v.item_id);
    diff += v.price - it.price;
  }
  return { oldIds, newIds, diff };
}

/** A payment method able to pay `amount` (gift cards need the balance). */
function payer(rng: Rng, state: UserState, amount: number, exclude?: string): PaymentMethodView | undefined {
  const ok = methods(state).filter(
    (m) => m.id !== exclude && (m.source !== 'gift_card' || (m.balance ?? 0) >= amount),
  );
  return ok.length === 0 ? undefined : rng.pick(ok);
}

function ordersWith(
  state: UserState,
  used: ReadonlySet<string>,
  test: (o: OrderView) => boolean,
): OrderView[] {
  return state.orders.filter((o) => !used.has(o.order_id) && test(o));
}

/** Addresses of the user's orders that differ from `current`, plus a brand-new one. */
function targetAddress(rng: Rng, state: UserState, current: AddressView): AddressView {
  const known = state.orders
    .map((o) => o.address)
    .concat([state.user.address])
    .filter((a) => !sameAddress(a, current));
  return known.length > 0 && rng.chance(0.7) ? rng.pick(known) : newAddress(rng);
}

/** What a draw may look at besides the user: the task's drafts so far, and orders of other users. */
export interface DrawScope {
  readonly drafts: readonly Draft[];
  /** Ids of orders that belong to other users (in the DB's order). */
  otherUsersOrders(): readonly string[];
}

type DrawFn = (rng: Rng, state: UserState, used: ReadonlySet<string>, scope: DrawScope) => Draft | undefined;

/** An items swap (modify a pending order, exchange a delivered one): items, replacements and a payer. */
function drawSwapDraft(
  kind: string,
  eligible: (o: OrderView) => boolean,
  rng: Rng,
  state: UserState,
  used: ReadonlySet<string>,
): Draft | undefined {
  const orders = ordersWith(state, used, eligible);
  if (orders.length === 0) return undefined;
  const o = rng.pick(orders);
  const swaps = drawSwaps(rng, state, o);
  const m = swaps === undefined ? undefined : payer(rng, state, swaps.diff);
  if (swaps === undefined || m === undefined) return undefined;
  return {
    kind,
    orderId: o.order_id,
    args: {
      order_id: o.order_id,
      item_ids: swaps.oldIds,
      new_item_ids: swaps.newIds,
      payment_method_id: m.id,
    },
  };
}

/** Names of products the user has bought that are not in `order` (what an exchange into another product asks for). */
function otherProducts(state: UserState, order: OrderView): string[] {
  const here = new Set(order.items.map((it) => it.name));
  const names = state.orders.flatMap((o) => o.items.map((it) => it.name)).filter((n) => !here.has(n));
  return [...new Set(names)].sort();
}

/** The user's methods a refund for `order` may not go to (neither the original method nor a gift card). */
function forbiddenRefundMethods(state: UserState, order: OrderView): PaymentMethodView[] {
  const original = order.payment_history[0]?.payment_method_id;
  return methods(state).filter((m) => m.source !== 'gift_card' && m.id !== original);
}

/** The refused actions of the `refusal` draw (the two others have draws of their own). */
type OrderRefusal = Exclude<RefusedAction, 'second_item_change' | 'other_users_order'>;

const REFUSALS: Record<OrderRefusal, (o: OrderView, state: UserState) => boolean> = {
  cancel: (o) => o.status === 'processed' || o.status === 'delivered',
  // not yet delivered, and no other action would serve the user instead
  return: (o) => o.status === 'processed',
  exchange: (o) => o.status === 'processed',
  modify_address: (o) => o.status === 'processed' || o.status === 'delivered',
  exchange_other_product: (o, state) => o.status === 'delivered' && otherProducts(state, o).length > 0,
  refund_other_method: (o, state) => o.status === 'delivered' && forbiddenRefundMethods(state, o).length > 0,
};

/** One draw function per constraint kind. */
export const CANDIDATE_DRAWS: Record<string, DrawFn> = {
  cancel_pending_order(rng, state, used) {
    const orders = ordersWith(state, used, (o) => o.status === 'pending');
    if (orders.length === 0) return undefined;
    const o = rng.pick(orders);
    return {
      kind: 'cancel_pending_order',
      orderId: o.order_id,
      args: { order_id: o.order_id, reason: rng.pick(CANCEL_REASONS) },
    };
  },
  modify_pending_order_address(rng, state, used) {
    const orders = ordersWith(state, used, (o) => o.status.includes('pending'));
    if (orders.length === 0) return undefined;
    const o = rng.pick(orders);
    return {
      kind: 'modify_pending_order_address',
      orderId: o.order_id,
      args: { order_id: o.order_id, address: targetAddress(rng, state, o.address) },
    };
  },
  modify_pending_order_payment(rng, state, used) {
    const orders = ordersWith(
      state,
      used,
      (o) =>
        o.status.includes('pending') &&
        o.payment_history.length === 1 &&
        o.payment_history[0]?.transaction_type === 'payment',
    );
    if (orders.length === 0) return undefined;
    const o = rng.pick(orders);
    const paid = o.payment_history[0];
    const m = paid === undefined ? undefined : payer(rng, state, paid.amount, paid.payment_method_id);
    if (m === undefined) return undefined;
    return {
      kind: 'modify_pending_order_payment',
      orderId: o.order_id,
      args: { order_id: o.order_id, payment_method_id: m.id },
    };
  },
  modify_pending_order_items: (rng, state, used) =>
    drawSwapDraft('modify_pending_order_items', (o) => o.status === 'pending', rng, state, used),
  modify_user_address(rng, state, used) {
    if (used.has('user-address')) return undefined;
    return {
      kind: 'modify_user_address',
      args: { user_id: state.user.user_id, address: targetAddress(rng, state, state.user.address) },
    };
  },
  return_delivered_order_items(rng, state, used) {
    const orders = ordersWith(state, used, (o) => o.status === 'delivered');
    if (orders.length === 0) return undefined;
    const o = rng.pick(orders);
    const items = rng.sample(o.items, rng.int(1, o.items.length)).map((it) => it.item_id);
    const original = o.payment_history[0]?.payment_method_id;
    const options = methods(state).filter((m) => m.id === original || m.source === 'gift_card');
    if (options.length === 0) return undefined;
    const m = rng.pick(options);
    return {
      kind: 'return_delivered_order_items',
      orderId: o.order_id,
      args: { order_id: o.order_id, item_ids: items, payment_method_id: m.id },
    };
  },
  exchange_delivered_order_items: (rng, state, used) =>
    drawSwapDraft('exchange_delivered_order_items', (o) => o.status === 'delivered', rng, state, used),
  information(rng, state, used) {
    const giftCard = methods(state).find((m) => m.source === 'gift_card');
    if (giftCard !== undefined && !used.has('info-gift-card') && rng.chance(0.4)) {
      return {
        kind: 'information',
        args: { topic: 'gift_card_balance', payment_method_id: giftCard.id, value: giftCard.balance ?? 0 },
      };
    }
    // one payment and no refund: "how much did I pay" has a single answer
    const orders = ordersWith(state, used, (o) => o.payment_history.length === 1);
    if (orders.length === 0) return undefined;
    const o = rng.pick(orders);
    const amount = o.payment_history[0]?.amount ?? 0;
    return {
      kind: 'information',
      orderId: o.order_id,
      args: { topic: 'order_total', order_id: o.order_id, value: amount },
    };
  },
  /**
   * After an item change of a pending order drawn earlier in the task, a further change of another item of the
   * same order: the policy lets an order's items change once, so the agent must refuse it.
   */
  second_item_change(rng, state, _used, scope) {
    const refused = new Set(
      scope.drafts.filter((d) => d.args.action === 'second_item_change').map((d) => d.orderId),
    );
    const firsts = scope.drafts.filter(
      (d) => d.kind === 'modify_pending_order_items' && !refused.has(d.orderId),
    );
    if (firsts.length === 0) return undefined;
    const first = rng.pick(firsts);
    const o = state.orders.find((x) => x.order_id === first.orderId);
    if (o === undefined) return undefined;
    const touched = new Set([...(first.args.item_ids as string[]), ...(first.args.new_item_ids as string[])]);
    const items = o.items.filter((it) => !touched.has(it.item_id) && alternatives(state, it).length > 0);
    if (items.length === 0) return undefined;
    const item = rng.pick(items);
    const replacement = rng.pick(alternatives(state, item));
    return {
      kind: 'refusal',
      orderId: o.order_id,
      args: {
        action: 'second_item_change',
        order_id: o.order_id,
        item_ids: [item.item_id],
        new_item_ids: [replacement.item_id],
      },
    };
  },
  /** A question about, or a cancellation of, an order of another user, named by its id. */
  other_users_order(rng, state, used, scope) {
    if (used.has('other-users-order')) return undefined;
    const own = new Set(state.user.orders);
    const ids = scope.otherUsersOrders().filter((id) => !own.has(id) && !used.has(id));
    if (ids.length === 0) return undefined;
    const id = rng.pick(ids);
    return {
      kind: 'refusal',
      orderId: id,
      args: { action: 'other_users_order', order_id: id, about: rng.pick(['status', 'cancel']) },
    };
  },
  refusal(rng, state, used) {
    const eligible = (a: OrderRefusal) => ordersWith(state, used, (o) => REFUSALS[a](o, state));
    const actions = (Object.keys(REFUSALS) as OrderRefusal[]).filter((a) => eligible(a).length > 0);
    if (actions.length === 0) return undefined;
    const action = rng.pick(actions);
    const o = rng.pick(eligible(action));
    const args: Record<string, unknown> = { action, order_id: o.order_id };
    if (action === 'cancel') args.reason = rng.pick(CANCEL_REASONS);
    if (action !== 'cancel' && action !== 'modify_address') args.item_ids = [rng.pick(o.items).item_id];
    if (action === 'modify_address') args.address = newAddress(rng);
    if (action === 'exchange_other_product') args.wanted_product = rng.pick(otherProducts(state, o));
    if (action === 'refund_other_method')
      args.payment_method_id = rng.pick(forbiddenRefundMethods(state, o)).id;
    return { kind: 'refusal', orderId: o.order_id, args };
  },
};
