import type { Rng } from '../../../core/rng.js';
import {
  BEHAVIOUR_SHARES,
  type Behaviour,
  type BehaviourEntry,
  mistypeDigit,
  PERSONAS,
  partialTendency,
  refusalEvents,
} from '../../../tasks/behaviour.js';
import type { UserState } from './fuzzify.js';
import {
  type ItemMention,
  matchItemIds,
  matchOrders,
  matchPayments,
  type OrderRef,
  type PaymentRef,
  type UserRef,
} from './references.js';
import type { RetailRequest } from './requests.js';
import {
  type AddressView,
  type OrderView,
  type PaymentMethodView,
  sameAddress,
  type UserView,
} from './views.js';

/**
 * The retail user's behaviour (docs/conversations.md), drawn from the task's seed after its requests: which
 * requests the user opens with only part of the details, a wrong identity detail given first, references that
 * first match several entities (checked against the state in which the agent resolves them), a payment method or
 * cancellation reason the user changes at the proposal, push-back on a refusal, a side question, two requests in
 * one message. Every detail is checked here so that the oracle agent can follow it from the messages alone.
 */

const CANCEL_REASONS = ['no longer needed', 'ordered by mistake'];

/** What the draw needs besides the requests: the state each request is resolved in, and every user. */
export interface BehaviourInputs {
  readonly user: UserRef;
  readonly requests: readonly RetailRequest[];
  /** Per request, the user's state just before it is handled. */
  readonly states: readonly UserState[];
  readonly allUsers: readonly UserView[];
}

function wrongDetail(rng: Rng, inputs: BehaviourInputs): BehaviourEntry | undefined {
  const u = inputs.user;
  const swapDigit = (s: string): string => mistypeDigit(rng, s);
  if (u.strategy === 'email') {
    const [local, domain] = u.email.split('@') as [string, string];
    const wrong = `${swapDigit(local)}@${domain}`;
    if (inputs.allUsers.some((x) => x.email.toLowerCase() === wrong.toLowerCase())) return undefined;
    return { kind: 'wrong_detail', field: 'email', value: wrong };
  }
  const wrong = swapDigit(u.zip);
  const taken = inputs.allUsers.some(
    (x) =>
      x.name.first_name.toLowerCase() === u.first_name.toLowerCase() &&
      x.name.last_name.toLowerCase() === u.last_name.toLowerCase() &&
      x.address.zip === wrong,
  );
  return taken ? undefined : { kind: 'wrong_detail', field: 'zip', value: wrong };
}

/**
 * An order id the user gives with one digit off for a request that names its order by id (fuzz levels that use
 * ids), checked to be no order of the database, so `get_order_details` answers "Error: Order not found".
 */
function wrongOrderId(
  rng: Rng,
  inputs: BehaviourInputs,
  events: readonly BehaviourEntry[],
): BehaviourEntry | undefined {
  const candidates = inputs.requests.flatMap((r, i) =>
    'order' in r &&
    r.order.strategy === 'id' &&
    r.kind !== 'refusal' &&
    // a second request stated in the opening, or an order first named vaguely, keeps its exact id
    !(i === 1 && events.some((e) => e.kind === 'two_requests')) &&
    !events.some((e) => e.request === i && e.kind === 'ambiguous_reference' && e.field === 'order')
      ? [{ i, id: r.order.order_id }]
      : [],
  );
  if (candidates.length === 0) return undefined;
  const { i, id } = rng.pick(candidates);
  const digits = [...id].map((c, k) => (/\d/.test(c) ? k : -1)).filter((k) => k >= 0);
  if (digits.length === 0) return undefined;
  const k = rng.pick(digits);
  const wrong = `${id.slice(0, k)}${(Number(id[k]) + rng.int(1, 9)) % 10}${id.slice(k + 1)}`;
  const taken = inputs.allUsers.some((u) => u.orders.includes(wrong));
  return taken ? undefined : { kind: 'wrong_order_id', request: i, value: wrong };
}

function targetOrder(ref: OrderRef, state: UserState): OrderView | undefined {
  const hits = matchOrders(ref, state.orders);
  return hits.length === 1 ? hits[0] : undefined;
}

/** A vague order mention (one product name) that matches two or three of the user's orders, the target among them. */
function vagueOrder(rng: Rng, ref: OrderRef, state: UserState): ItemMention | undefined {
  const order = targetOrder(ref, state);
  if (order === undefined) return undefined;
  const names = rng.shuffle([...new Set(order.items.map((i) => i.name))]);
  for (const name of names) {
    const hits = matchOrders({ strategy: 'items', items: [{ product_name: name }] }, state.orders);
    if (hits.length >= 2 && hits.length <= 3) return { product_name: name };
  }
  return undefined;
}

/** "my credit card" when the user has two or three cards and the request names one of them more precisely. */
function vaguePayment(ref: PaymentRef, user: UserView): PaymentRef | undefined {
  if (ref.strategy !== 'brand' && ref.strategy !== 'last_four') return undefined;
  const n = matchPayments({ strategy: 'kind', source: 'credit_card' }, user).length;
  return n >= 2 && n <= 3 ? { strategy: 'kind', source: 'credit_card' } : undefined;
}

/** How many distinct addresses the user's orders ship to ("one of my other orders" is ambiguous from 2 on). */
export function orderAddressCount(state: UserState): number {
  return distinctAddresses(state.orders).length;
}

/** The distinct shipping addresses of `orders`, in order of first appearance. */
export function distinctAddresses(orders: readonly OrderView[]): AddressView[] {
  const out: AddressView[] = [];
  for (const o of orders) if (!out.some((a) => sameAddress(a, o.address))) out.push(o.address);
  return out;
}

/** A product name that matches two or three distinct items of the order (the request names one by its options). */
function vagueItem(request: RetailRequest, state: UserState): string | undefined {
  if (!('items' in request) || request.items === undefined || !('order' in request)) return undefined;
  const order = targetOrder(request.order, state);
  if (order === undefined) return undefined;
  for (const x of request.items) {
    const item = 'replacement' in x ? x.item : x;
    if (item.strategy !== 'name_options') continue;
    const n = matchItemIds({ strategy: 'name', product_name: item.product_name }, order).length;
    if (n >= 2 && n <= 3 && request.items.length === 1) return item.product_name;
  }
  return undefined;
}

function methodOf(ref: PaymentRef, user: UserView, order?: OrderView): PaymentMethodView | undefined {
  const hits = matchPayments(ref, user, order);
  return hits.length === 1 ? hits[0] : undefined;
}

/** A payment method the user names first and then changes from, described so it is unique and clearly different. */
function decoyPayment(rng: Rng, request: RetailRequest, state: UserState): PaymentRef | undefined {
  if (!('payment' in request) || request.kind === 'information' || !('order' in request)) return undefined;
  const order = targetOrder(request.order, state);
  const final = methodOf(request.payment, state.user, order);
  if (final === undefined || order === undefined) return undefined;
  const original = order.payment_history[0]?.payment_method_id;
  const candidates: PaymentRef[] = [];
  const methods = Object.values(state.user.payment_methods);
  const unique = (ref: PaymentRef) => methodOf(ref, state.user, order) !== undefined;
  for (const m of methods) {
    if (m.id === final.id || m.source === final.source) continue;
    if (request.payment.strategy === 'original' && m.id === original) continue;
    if (request.kind === 'return_delivered_order_items') {
      // refunds go to the original method or a gift card (policy); the decoy must be allowed too
      if (m.source !== 'gift_card' && m.id !== original) continue;
    } else if (m.source === 'gift_card') continue;
    if (request.kind === 'modify_pending_order_payment' && m.id === original) continue;
    const kind: PaymentRef = { strategy: 'kind', source: m.source };
    if (unique(kind)) candidates.push(kind);
    else if (m.source === 'credit_card' && m.last_four !== undefined) {
      const four: PaymentRef = { strategy: 'last_four', source: 'credit_card', last_four: m.last_four };
      if (unique(four)) candidates.push(four);
    }
  }
  return candidates.length === 0 ? undefined : rng.pick(candidates);
}

/** Draws the behaviour of one retail task. */
export function drawRetailBehaviour(rng: Rng, inputs: BehaviourInputs): Behaviour {
  const persona = rng.pick(PERSONAS);
  const knowledge: BehaviourEntry[] = [];
  const events: BehaviourEntry[] = [];
  const { requests, states } = inputs;
  if (inputs.user.strategy === 'name_zip') knowledge.push({ kind: 'no_email' });
  if (rng.chance(BEHAVIOUR_SHARES.wrongDetail)) {
    const wrong = wrongDetail(rng, inputs);
    if (wrong !== undefined) knowledge.push(wrong);
  }
  const partial = partialTendency(persona);
  let changed = false;
  requests.forEach((r, i) => {
    const state = states[i] as UserState;
    if (rng.chance(partial)) knowledge.push({ kind: 'partial_info', request: i });
    if ('order' in r && rng.chance(0.3)) {
      const mention = vagueOrder(rng, r.order, state);
      if (mention !== undefined)
        events.push({ kind: 'ambiguous_reference', request: i, field: 'order', mention });
    }
    if ('payment' in r && rng.chance(0.5)) {
      const vague = vaguePayment(r.payment, state.user);
      if (vague !== undefined)
        events.push({ kind: 'ambiguous_reference', request: i, field: 'payment', vague });
    }
    if (rng.chance(0.5)) {
      const name = vagueItem(r, state);
      if (name !== undefined)
        events.push({ kind: 'ambiguous_reference', request: i, field: 'item', product_name: name });
    }
    if ('address' in r && r.address.strategy === 'order_city' && rng.chance(0.5)) {
      if (orderAddressCount(state) >= 2)
        events.push({ kind: 'ambiguous_reference', request: i, field: 'address' });
    }
    if (!changed && rng.chance(0.3)) {
      const kind = rng.pick(['change_of_mind', 'reject_proposal']);
      if (r.kind === 'cancel_pending_order') {
        const first = CANCEL_REASONS.find((x) => x !== r.reason) as string;
        events.push({ kind, request: i, field: 'reason', first });
        changed = true;
      } else {
        const first = decoyPayment(rng, r, state);
        if (first !== undefined && !events.some((e) => e.request === i && e.field === 'payment')) {
          events.push({ kind, request: i, field: 'payment', first });
          changed = true;
        }
      }
    }
    if (r.kind === 'refusal') events.push(...refusalEvents(rng, i, i === requests.length - 1));
  });
  if (rng.chance(0.2))
    events.push({
      kind: 'side_question',
      request: rng.int(0, requests.length - 1),
      topic: rng.pick(['products', 'refund_time', 'products']),
    });
  // the second request is then stated in full, so it carries no partial or ambiguous opening of its own; a
  // second item change is asked for only after the first one is made (asked together, both belong in one call)
  const second = requests[1];
  const plainSecond =
    ![...knowledge, ...events].some(
      (e) => e.request === 1 && (e.kind === 'partial_info' || e.kind === 'ambiguous_reference'),
    ) && !(second?.kind === 'refusal' && second.action === 'second_item_change');
  if (requests.length >= 2 && plainSecond && rng.chance(BEHAVIOUR_SHARES.twoRequests))
    events.push({ kind: 'two_requests', request: 0 });
  if (rng.chance(0.25)) {
    const wrong = wrongOrderId(rng, inputs, events);
    if (wrong !== undefined) knowledge.push(wrong);
  }
  return { persona, knowledge, events };
}
