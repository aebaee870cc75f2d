import type { Draft } from './candidates.js';
import {
  describeAddress,
  describeItem,
  describeOrder,
  describePayment,
  describeVariant,
  type FuzzContext,
  type UserState,
} from './fuzzify.js';
import type { ItemRef } from './references.js';
import type { ForeignAsk, ItemSwap, RefusedAction, RetailRequest } from './requests.js';
import { resolveRequest } from './resolve.js';
import type { AddressView, OrderItemView, OrderView } from './views.js';

/**
 * Turns a drawn constraint (exact ids) into the fuzzy request the user and the oracle receive, describing every
 * reference in the state just before the request is handled. `undefined`: some reference has no unique
 * description.
 */
export function buildRequest(
  context: FuzzContext,
  draft: Draft,
  state: UserState,
): RetailRequest | undefined {
  const a = draft.args;
  if (a.action === 'other_users_order') return foreignRequest(context, draft);
  const order =
    draft.orderId === undefined ? undefined : state.orders.find((o) => o.order_id === draft.orderId);
  const orderRef = order === undefined ? undefined : describeOrder(context, order);
  const needOrder = draft.orderId !== undefined;
  if (needOrder && (order === undefined || orderRef === undefined)) return undefined;
  const payment = (id: unknown, o?: OrderView) => describePayment(context, id as string, o);

  switch (draft.kind) {
    case 'cancel_pending_order':
      return orderRef && { kind: 'cancel_pending_order', order: orderRef, reason: a.reason as string };
    case 'modify_pending_order_address':
      return (
        orderRef && {
          kind: 'modify_pending_order_address',
          order: orderRef,
          address: describeAddress(context, a.address as AddressView, order?.address),
        }
      );
    case 'modify_pending_order_payment': {
      const p = payment(a.payment_method_id);
      return orderRef && p && { kind: 'modify_pending_order_payment', order: orderRef, payment: p };
    }
    case 'modify_pending_order_items':
    case 'exchange_delivered_order_items': {
      if (order === undefined || orderRef === undefined) return undefined;
      const swaps = describeSwaps(context, state, order, a.item_ids as string[], a.new_item_ids as string[]);
      const p = payment(a.payment_method_id, order);
      return swaps && p && { kind: draft.kind, order: orderRef, items: swaps, payment: p };
    }
    case 'modify_user_address':
      return {
        kind: 'modify_user_address',
        address: describeAddress(context, a.address as AddressView, state.user.address),
      };
    case 'return_delivered_order_items': {
      if (order === undefined || orderRef === undefined) return undefined;
      const items = describeItems(context, order, a.item_ids as string[]);
      const p = payment(a.payment_method_id, order);
      return items && p && { kind: 'return_delivered_order_items', order: orderRef, items, payment: p };
    }
    case 'information': {
      if (a.topic === 'order_total')
        return orderRef && { kind: 'information', topic: 'order_total', order: orderRef };
      const p = payment(a.payment_method_id);
      return p && { kind: 'information', topic: 'gift_card_balance', payment: p };
    }
    case 'refusal': {
      if (order === undefined || orderRef === undefined) return undefined;
      if (a.action === 'second_item_change') {
        const swaps = describeSwaps(
          context,
          state,
          order,
          a.item_ids as string[],
          a.new_item_ids as string[],
        );
        if (swaps === undefined) return undefined;
        const r: RetailRequest = { kind: 'refusal', action: 'second_item_change', order: orderRef, swaps };
        // the order's items changed since the task began: the descriptions must hold before and after
        return resolvesInEveryState(context, r, draft) ? r : undefined;
      }
      const items =
        a.item_ids === undefined ? undefined : describeItems(context, order, a.item_ids as string[]);
      if (a.item_ids !== undefined && items === undefined) return undefined;
      const refundTo = a.payment_method_id === undefined ? undefined : payment(a.payment_method_id, order);
      if (a.payment_method_id !== undefined && refundTo === undefined) return undefined;
      return {
        kind: 'refusal',
        action: a.action as RefusedAction,
        order: orderRef,
        ...(items === undefined ? {} : { items }),
        ...(a.reason === undefined ? {} : { reason: a.reason as string }),
        ...(a.wanted_product === undefined ? {} : { wanted_product: a.wanted_product as string }),
        ...(refundTo === undefined ? {} : { refund_to: refundTo }),
      };
    }
    default:
      return undefined;
  }
}

/** A request about another user's order: the user names it by its id (not hidden: it is not theirs). */
function foreignRequest(context: FuzzContext, draft: Draft): RetailRequest {
  context.note('order', 'id');
  return {
    kind: 'refusal',
    action: 'other_users_order',
    order: { strategy: 'id', order_id: draft.args.order_id as string },
    about: draft.args.about as ForeignAsk,
  };
}

/** Whether `request` resolves to exactly the draft's arguments in every state of the context. */
function resolvesInEveryState(context: FuzzContext, request: RetailRequest, draft: Draft): boolean {
  return context.states.every((state) => {
    const r = resolveRequest(request, state);
    return (
      'args' in r &&
      Object.entries(draft.args).every(([k, v]) => JSON.stringify(r.args[k]) === JSON.stringify(v))
    );
  });
}

function findItem(order: OrderView, itemId: string): OrderItemView | undefined {
  return order.items.find((it) => it.item_id === itemId);
}

function describeItems(
  context: FuzzContext,
  order: OrderView,
  itemIds: readonly string[],
): ItemRef[] | undefined {
  const refs: ItemRef[] = [];
  for (const id of itemIds) {
    const item = findItem(order, id);
    const ref = item === undefined ? undefined : describeItem(context, order, item);
    if (ref === undefined) return undefined;
    refs.push(ref);
  }
  return refs;
}

function describeSwaps(
  context: FuzzContext,
  state: UserState,
  order: OrderView,
  oldIds: readonly string[],
  newIds: readonly string[],
): ItemSwap[] | undefined {
  const swaps: ItemSwap[] = [];
  for (const [i, oldId] of oldIds.entries()) {
    const item = findItem(order, oldId);
    const product = item === undefined ? undefined : state.product(item.product_id);
    if (item === undefined || product === undefined) return undefined;
    const ref = describeItem(context, order, item);
    const replacement = describeVariant(context, item, newIds[i] as string, product, order.order_id);
    if (ref === undefined || replacement === undefined) return undefined;
    swaps.push({ item: ref, replacement });
  }
  return swaps;
}
