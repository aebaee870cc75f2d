import type { Rng } from '../../../core/rng.js';
import type { UserState } from '../synthesis/fuzzify.js';
import type { AddressView, OrderItemView, OrderView, UserView } from '../synthesis/views.js';
import {
  addressLine,
  ask,
  differenceText,
  dollars,
  itemDescription,
  methodText,
  orderSummary,
  swapLines,
} from './agent-texts.js';

/** A write tool call the oracle proposes, with exact arguments in τ²'s parameter order. */
export interface WriteCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

type Args = Readonly<Record<string, unknown>>;

function addressArgs(a: AddressView): Record<string, string> {
  return {
    address1: a.address1,
    address2: a.address2,
    city: a.city,
    state: a.state,
    country: a.country,
    zip: a.zip,
  };
}

/** The write call that carries out a resolved request. */
export function writeCall(kind: string, args: Args): WriteCall {
  switch (kind) {
    case 'modify_pending_order_address':
      return {
        name: kind,
        arguments: { order_id: args.order_id, ...addressArgs(args.address as AddressView) },
      };
    case 'modify_user_address':
      return {
        name: kind,
        arguments: { user_id: args.user_id, ...addressArgs(args.address as AddressView) },
      };
    default:
      return { name: kind, arguments: { ...args } };
  }
}

function orderOf(state: UserState, id: unknown): OrderView {
  const order = state.orders.find((o) => o.order_id === id);
  if (order === undefined) throw new Error(`order ${String(id)} not read`);
  return order;
}

function method(state: UserState, id: unknown, order?: OrderView) {
  const m = state.user.payment_methods[id as string];
  if (m === undefined) throw new Error(`payment method ${String(id)} not found`);
  return methodText(m, order?.payment_history[0]?.payment_method_id === id);
}

function swaps(state: UserState, order: OrderView, oldIds: readonly string[], newIds: readonly string[]) {
  const pairs: [OrderItemView, { item_id: string; options: Record<string, string>; price: number }][] = [];
  let diff = 0;
  oldIds.forEach((oldId, i) => {
    const old = order.items.find((it) => it.item_id === oldId) as OrderItemView;
    const variant = state.product(old.product_id)?.variants[newIds[i] as string];
    if (variant === undefined) throw new Error('replacement not read');
    pairs.push([old, variant]);
    diff += variant.price - old.price;
  });
  return { pairs, diff };
}

/** The confirmation message of a proposed write: every detail, then a yes/no question. */
export function confirmationText(rng: Rng, call: WriteCall, state: UserState): string {
  const a = call.arguments;
  switch (call.name) {
    case 'cancel_pending_order': {
      const o = orderOf(state, a.order_id);
      return `I can cancel ${orderSummary(o)} with the reason "${String(a.reason)}". The ${dollars(o.payment_history[0]?.amount ?? 0)} you paid will be refunded to the original payment method. ${ask(rng)}`;
    }
    case 'modify_pending_order_address': {
      const o = orderOf(state, a.order_id);
      return `I will change the shipping address of ${orderSummary(o)} to ${addressLine(a as unknown as AddressView)}. ${ask(rng)}`;
    }
    case 'modify_pending_order_payment': {
      const o = orderOf(state, a.order_id);
      const old = o.payment_history[0]?.payment_method_id;
      return `I will pay ${orderSummary(o)} (${dollars(o.payment_history[0]?.amount ?? 0)}) with ${method(state, a.payment_method_id)} instead of ${method(state, old)}, which will be refunded. ${ask(rng)}`;
    }
    case 'modify_pending_order_items':
    case 'exchange_delivered_order_items': {
      const o = orderOf(state, a.order_id);
      const { pairs, diff } = swaps(state, o, a.item_ids as string[], a.new_item_ids as string[]);
      const verb = call.name === 'exchange_delivered_order_items' ? 'exchange' : 'change';
      return (
        `In ${orderSummary(o)} I will ${verb}: ${swapLines(pairs)}. ${differenceText(diff, method(state, a.payment_method_id, o))} ` +
        `This can be done only once for this order, so please make sure these are all the items you want to ${verb}. ${ask(rng)}`
      );
    }
    case 'modify_user_address':
      return `I will update the default address on your profile to ${addressLine(a as unknown as AddressView)}. ${ask(rng)}`;
    case 'return_delivered_order_items': {
      const o = orderOf(state, a.order_id);
      const items = (a.item_ids as string[]).map(
        (id) => o.items.find((it) => it.item_id === id) as OrderItemView,
      );
      const total = items.reduce((sum, it) => sum + it.price, 0);
      return (
        `I will request a return of ${items.map(itemDescription).join(', ')} from ${orderSummary(o)}. The refund of ` +
        `${dollars(total)} goes to ${method(state, a.payment_method_id, o)}, and you will receive return instructions by email. ${ask(rng)}`
      );
    }
    default:
      return `I will run ${call.name}. ${ask(rng)}`;
  }
}

/** The report after a successful write. */
export function reportText(
  rng: Rng,
  call: WriteCall,
  orders: ReadonlyMap<string, OrderView>,
  user: UserView | undefined,
): string {
  const order = orders.get(call.arguments.order_id as string);
  const done = rng.pick(['Done:', 'All set:', 'That is done:']);
  switch (call.name) {
    case 'cancel_pending_order':
      return `${done} order ${order?.order_id} is now cancelled.`;
    case 'modify_pending_order_address':
      return `${done} order ${order?.order_id} will now ship to ${order === undefined ? 'the new address' : addressLine(order.address)}.`;
    case 'modify_pending_order_payment':
      return `${done} the payment method of order ${order?.order_id} has been updated.`;
    case 'modify_pending_order_items':
      return `${done} the items of order ${order?.order_id} have been changed; its status is now "${order?.status}".`;
    case 'exchange_delivered_order_items':
      return `${done} your exchange for order ${order?.order_id} has been requested; you will receive instructions by email.`;
    case 'return_delivered_order_items':
      return `${done} your return for order ${order?.order_id} has been requested; you will receive instructions by email.`;
    case 'modify_user_address':
      return `${done} your default address is now ${user === undefined ? 'updated' : addressLine(user.address)}.`;
    default:
      return `${done} the change has been made.`;
  }
}

/** The answer to an information request (it carries the value in τ²'s communicate format). */
export function infoText(rng: Rng, args: Args, state: UserState): string {
  if (args.topic === 'order_total') {
    const o = orderOf(state, args.order_id);
    return rng.pick([
      `You paid ${dollars(o.payment_history[0]?.amount ?? 0)} for ${orderSummary(o)}.`,
      `The total charged for ${orderSummary(o)} was ${dollars(o.payment_history[0]?.amount ?? 0)}.`,
    ]);
  }
  const m = state.user.payment_methods[args.payment_method_id as string];
  return rng.pick([
    `Your gift card ${m?.id} has a balance of ${dollars(m?.balance ?? 0)}.`,
    `There is ${dollars(m?.balance ?? 0)} left on your gift card ${m?.id}.`,
  ]);
}

/** A polite refusal of a request the policy forbids, with the reason. */
export function refusalText(rng: Rng, args: Args, state: UserState): string {
  const o = orderOf(state, args.order_id);
  const sorry = rng.pick(["I'm sorry, but", 'Unfortunately']);
  switch (args.action) {
    case 'cancel':
      return `${sorry} ${orderSummary(o)} is ${o.status}, and only pending orders can be cancelled.`;
    case 'return':
      return `${sorry} ${orderSummary(o)} is ${o.status} and has not been delivered yet, so it cannot be returned.`;
    case 'exchange':
      return `${sorry} ${orderSummary(o)} is ${o.status} and has not been delivered yet, so its items cannot be exchanged.`;
    default:
      return `${sorry} ${orderSummary(o)} is already ${o.status}; only pending orders can have their shipping address changed.`;
  }
}
