import type { Rng } from '../../../core/rng.js';
import type { Behaviour, BehaviourEntry } from '../../../tasks/behaviour.js';
import { distinctAddresses } from '../synthesis/behaviour.js';
import type { UserState } from '../synthesis/fuzzify.js';
import {
  type ItemMention,
  type ItemRef,
  matchItemIds,
  matchOrders,
  matchPayments,
  type PaymentRef,
} from '../synthesis/references.js';
import type { RetailRequest } from '../synthesis/requests.js';
import type { OrderView, UserView } from '../synthesis/views.js';
import {
  addressLine,
  askAddress,
  askItems,
  askOrder,
  askPayment,
  askReason,
  askReplacement,
  askWhichAddress,
  askWhichCard,
  askWhichItem,
  askWhichOrder,
  countedNames,
  methodText,
} from './agent-texts.js';
import {
  addressMentioned,
  itemMentioned,
  mentions,
  orderMentioned,
  paymentMarker,
  replacementMentioned,
} from './mentions.js';
import { VAGUE_ADDRESS } from './user-texts.js';

/**
 * Which details of a request the customer has given so far, as the oracle agent reads them from the customer's
 * messages (docs/conversations.md): the agent knows the task's fuzzy request, but acts on a detail only once the
 * customer has said it, asks for the first one missing, and asks "which one" when what was said matches several
 * entities. A detail the customer named twice in different ways (a changed payment method or reason) counts as
 * the one named last.
 */

const REASONS = ['no longer needed', 'ordered by mistake'];

/** What the agent does next for a request: ask a question, read the unread orders, or act on `request`. */
export type SlotStep =
  | { readonly ask: string }
  | { readonly readAllOrders: true }
  | { readonly request: RetailRequest };

function event(b: Behaviour | undefined, kind: string, i: number, field: string): BehaviourEntry | undefined {
  return b?.events.find((e) => e.kind === kind && e.request === i && e.field === field);
}

function decoy(b: Behaviour | undefined, i: number): BehaviourEntry | undefined {
  return b?.events.find(
    (e) => (e.kind === 'change_of_mind' || e.kind === 'reject_proposal') && e.request === i,
  );
}

function orderLine(o: OrderView): string {
  const names = countedNames(o.items.map((it) => it.name.toLowerCase()));
  const list = names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `one with the ${list} (${o.status})`;
}

function verbOf(r: RetailRequest): string {
  return r.kind === 'exchange_delivered_order_items'
    ? 'exchange'
    : r.kind === 'return_delivered_order_items'
      ? 'return'
      : 'change';
}

/**
 * The next step for request `i` given the customer's text since the request came up (`said`, lower-cased).
 * `state` is what the agent has read; `allRead` whether every order of the user has been read.
 */
export function slotStep(
  rng: Rng,
  request: RetailRequest,
  i: number,
  said: string,
  state: UserState,
  allRead: boolean,
  behaviour: Behaviour | undefined,
): SlotStep {
  let effective: RetailRequest = request;
  if ('order' in request) {
    if (!orderMentioned(said, request.order)) {
      const vague = event(behaviour, 'ambiguous_reference', i, 'order');
      const mention = vague?.mention as ItemMention | undefined;
      if (mention !== undefined && mentions(said, mention.product_name)) {
        if (!allRead) return { readAllOrders: true };
        const hits = matchOrders(
          { strategy: 'items', items: [{ product_name: mention.product_name }] },
          state.orders,
        );
        if (hits.length >= 2) return { ask: askWhichOrder(rng, hits.map(orderLine)) };
      }
      return { ask: askOrder(rng) };
    }
  }
  if ('items' in request && request.items !== undefined && request.kind !== 'refusal') {
    const refs: ItemRef[] = request.items.map((x) => ('replacement' in x ? x.item : x));
    if (!refs.every((ref) => itemMentioned(said, ref))) {
      const vague = event(behaviour, 'ambiguous_reference', i, 'item');
      const name = vague?.product_name as string | undefined;
      const order = matchOrders(request.order, state.orders)[0];
      if (name !== undefined && order !== undefined && mentions(said, name)) {
        const ids = matchItemIds({ strategy: 'name', product_name: name }, order);
        if (ids.length >= 2) {
          const lines = ids.map((id) => {
            const it = order.items.find((x) => x.item_id === id);
            return Object.entries(it?.options ?? {})
              .map(([k, v]) => `${k} ${v}`)
              .join(', ');
          });
          return { ask: askWhichItem(rng, name, lines) };
        }
      }
      return { ask: askItems(rng, verbOf(request)) };
    }
    if (request.kind !== 'return_delivered_order_items') {
      if (!request.items.every((s) => 'replacement' in s && replacementMentioned(said, s.replacement)))
        return { ask: askReplacement(rng) };
    }
  }
  if ('payment' in request) {
    const first = decoy(behaviour, i);
    const options: PaymentRef[] = [request.payment];
    if (first?.field === 'payment') options.push(first.first as PaymentRef);
    let best: PaymentRef | undefined;
    let at = -1;
    for (const ref of options) {
      const pos = said.lastIndexOf(paymentMarker(ref));
      if (pos > at) {
        at = pos;
        best = ref;
      }
    }
    if (best === undefined) {
      const vague = event(behaviour, 'ambiguous_reference', i, 'payment');
      if (vague !== undefined && mentions(said, 'credit card')) {
        const cards = matchPayments(vague.vague as PaymentRef, state.user);
        if (cards.length >= 2)
          return {
            ask: askWhichCard(
              rng,
              cards.map((c) => methodText(said, c).replace(/^your /, 'a ')),
            ),
          };
      }
      return { ask: askPayment(rng, request.kind === 'return_delivered_order_items') };
    }
    effective = { ...effective, payment: best } as RetailRequest;
  }
  if ('address' in request && !addressMentioned(said, request.address)) {
    // "the address of one of my other orders": name the places the user's orders ship to and ask which
    if (event(behaviour, 'ambiguous_reference', i, 'address') !== undefined && said.includes(VAGUE_ADDRESS)) {
      if (!allRead) return { readAllOrders: true };
      const places = distinctAddresses(state.orders);
      if (places.length >= 2) return { ask: askWhichAddress(rng, places.map(addressLine)) };
    }
    return { ask: askAddress(rng) };
  }
  if (request.kind === 'cancel_pending_order') {
    let reason: string | undefined;
    let at = -1;
    for (const r of REASONS) {
      const pos = said.lastIndexOf(r);
      if (pos > at) {
        at = pos;
        reason = r;
      }
    }
    if (reason === undefined) return { ask: askReason(rng) };
    effective = { ...request, reason };
  }
  return { request: effective };
}

/** The product a swap still needs read (for its replacement variants), or undefined. */
export function productToRead(request: RetailRequest, state: UserState): string | undefined {
  if (request.kind !== 'modify_pending_order_items' && request.kind !== 'exchange_delivered_order_items')
    return undefined;
  const order = matchOrders(request.order, state.orders)[0];
  if (order === undefined) return undefined;
  for (const swap of request.items) {
    const ref = swap.item;
    const hit = order.items.find((it) =>
      ref.strategy === 'id' ? it.item_id === ref.item_id : it.name === ref.product_name,
    );
    if (hit !== undefined && state.product(hit.product_id) === undefined) return hit.product_id;
  }
  return undefined;
}

/** Whether a request asks for a replacement "the same one as in my other order". */
export function sameAsOtherOrder(request: RetailRequest): boolean {
  return (
    (request.kind === 'modify_pending_order_items' || request.kind === 'exchange_delivered_order_items') &&
    request.items.some((s) => s.replacement.strategy === 'same_as_order')
  );
}

/**
 * What the oracle resolves of a request: a refused second item change needs only the order and its items (the
 * order's status already rules the change out; the replacement is never looked up).
 */
export function refusalScope(request: RetailRequest): RetailRequest {
  if (request.kind !== 'refusal' || request.swaps === undefined) return request;
  const { swaps, ...rest } = request;
  return { ...rest, items: swaps.map((s) => s.item) };
}

/**
 * For a request about another user's order: that order as the agent read it by its id, once its `user_id` shows
 * it is not the customer's (`null` when it is theirs or not read); `undefined` for every other request.
 */
export function foreignOrder(
  request: RetailRequest,
  read: ReadonlyMap<string, OrderView>,
  userId: string | undefined,
): OrderView | null | undefined {
  if (request.kind !== 'refusal' || request.action !== 'other_users_order') return undefined;
  const order = read.get(request.order.strategy === 'id' ? request.order.order_id : '');
  return order !== undefined && order.user_id !== userId ? order : null;
}

/** The last order number in `said` that is none of the user's orders and none a request names (a mistyped one). */
export function unknownOrderId(
  said: string,
  user: UserView,
  requests: readonly RetailRequest[],
): string | undefined {
  const known = new Set([
    ...user.orders,
    ...requests.flatMap((r) => ('order' in r && r.order.strategy === 'id' ? [r.order.order_id] : [])),
  ]);
  const ids = [...said.matchAll(/#w\d+/g)].map((m) => m[0].toUpperCase());
  return ids.filter((id) => !known.has(id)).pop();
}
