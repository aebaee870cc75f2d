import type { UserState } from './fuzzify.js';
import {
  type AddressRef,
  type ItemRef,
  matchAddresses,
  matchItemIds,
  matchOrders,
  matchPayments,
  matchVariants,
  type OrderRef,
  type PaymentRef,
} from './references.js';
import type { ItemSwap, RetailRequest } from './requests.js';
import type { AddressView, OrderView } from './views.js';

/**
 * Resolves a fuzzy request back to exact tool arguments from what the read tools show, exactly as the oracle
 * agent does; fails when any reference matches no entity or more than one. Used to re-check tasks and by the
 * oracle agent.
 */

export type Resolution = { readonly args: Record<string, unknown> } | { readonly error: string };

class Unresolved extends Error {}

function one<T>(hits: readonly T[], what: string): T {
  if (hits.length !== 1) throw new Unresolved(`${what} matches ${hits.length} entities`);
  return hits[0] as T;
}

export function resolveOrder(ref: OrderRef, state: UserState): OrderView {
  return one(matchOrders(ref, state.orders), 'order');
}

export function resolveItem(ref: ItemRef, order: OrderView): string {
  return one(matchItemIds(ref, order), 'item');
}

export function resolveSwap(swap: ItemSwap, order: OrderView, state: UserState): [string, string] {
  const oldId = resolveItem(swap.item, order);
  const item = order.items.find((it) => it.item_id === oldId);
  const product = item === undefined ? undefined : state.product(item.product_id);
  if (item === undefined || product === undefined) throw new Unresolved('product of the item not found');
  const scope = { orders: state.orders, orderId: order.order_id };
  return [oldId, one(matchVariants(swap.replacement, item, product, scope), 'replacement').item_id];
}

export function resolvePayment(ref: PaymentRef, state: UserState, order?: OrderView): string {
  return one(matchPayments(ref, state.user, order), 'payment method').id;
}

export function resolveAddress(ref: AddressRef, state: UserState): AddressView {
  return one(matchAddresses(ref, state.user, state.orders), 'address');
}

/** Resolves every reference of a request in one state. */
export function resolveRequest(request: RetailRequest, state: UserState): Resolution {
  try {
    return { args: resolveArgs(request, state) };
  } catch (e) {
    if (e instanceof Unresolved) return { error: e.message };
    throw e;
  }
}

function resolveArgs(r: RetailRequest, state: UserState): Record<string, unknown> {
  switch (r.kind) {
    case 'cancel_pending_order':
      return { order_id: resolveOrder(r.order, state).order_id, reason: r.reason };
    case 'modify_pending_order_address':
      return { order_id: resolveOrder(r.order, state).order_id, address: resolveAddress(r.address, state) };
    case 'modify_pending_order_payment':
      return {
        order_id: resolveOrder(r.order, state).order_id,
        payment_method_id: resolvePayment(r.payment, state),
      };
    case 'modify_pending_order_items':
    case 'exchange_delivered_order_items': {
      const order = resolveOrder(r.order, state);
      const pairs = r.items.map((s) => resolveSwap(s, order, state));
      return {
        order_id: order.order_id,
        item_ids: pairs.map((p) => p[0]),
        new_item_ids: pairs.map((p) => p[1]),
        payment_method_id: resolvePayment(r.payment, state, order),
      };
    }
    case 'modify_user_address':
      return { user_id: state.user.user_id, address: resolveAddress(r.address, state) };
    case 'return_delivered_order_items': {
      const order = resolveOrder(r.order, state);
      return {
        order_id: order.order_id,
        item_ids: r.items.map((i) => resolveItem(i, order)),
        payment_method_id: resolvePayment(r.payment, state, order),
      };
    }
    case 'information':
      return r.topic === 'order_total'
        ? { topic: r.topic, order_id: resolveOrder(r.order, state).order_id }
        : { topic: r.topic, payment_method_id: resolvePayment(r.payment, state) };
    case 'refusal': {
      if (r.action === 'other_users_order') {
        // named by its id; the agent reads it and sees that it is not one of the customer's orders
        const id = r.order.strategy === 'id' ? r.order.order_id : '';
        if (id === '' || state.user.orders.includes(id)) throw new Unresolved('order is the customer’s own');
        return { action: r.action, order_id: id, about: r.about };
      }
      const order = resolveOrder(r.order, state);
      const out: Record<string, unknown> = { action: r.action, order_id: order.order_id };
      if (r.items !== undefined) out.item_ids = r.items.map((i) => resolveItem(i, order));
      if (r.swaps !== undefined) {
        const pairs = r.swaps.map((s) => resolveSwap(s, order, state));
        out.item_ids = pairs.map((p) => p[0]);
        out.new_item_ids = pairs.map((p) => p[1]);
      }
      if (r.wanted_product !== undefined) out.wanted_product = r.wanted_product;
      if (r.refund_to !== undefined) out.payment_method_id = resolvePayment(r.refund_to, state, order);
      return out;
    }
  }
}
