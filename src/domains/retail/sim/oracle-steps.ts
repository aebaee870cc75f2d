import type { Rng } from '../../../core/rng.js';
import { sentences } from '../../../sim/scripted/behaviour.js';
import { say } from '../../../sim/scripted/grammar.js';
import type { UserState } from '../synthesis/fuzzify.js';
import type { UserRef } from '../synthesis/references.js';
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

/** The lookup that finds the user of a task's user reference: by email, or by name and zip. */
export function userLookup(u: UserRef): { name: string; args: Record<string, unknown> } {
  return u.strategy === 'email'
    ? { name: 'find_user_id_by_email', args: { email: u.email } }
    : {
        name: 'find_user_id_by_name_zip',
        args: { first_name: u.first_name, last_name: u.last_name, zip: u.zip },
      };
}

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

function method(said: string, state: UserState, id: unknown, order?: OrderView) {
  const m = state.user.payment_methods[id as string];
  if (m === undefined) throw new Error(`payment method ${String(id)} not found`);
  return methodText(said, m, order?.payment_history[0]?.payment_method_id === id);
}

/** The old items and their replacement variants of a swap, and the total price difference. */
export function swaps(
  state: UserState,
  order: OrderView,
  oldIds: readonly string[],
  newIds: readonly string[],
) {
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

/** The `calculate` expression of a write's total over several items (refund, or price difference). */
export function totalExpression(call: WriteCall, order: OrderView, state: UserState): string {
  const oldIds = call.arguments.item_ids as string[];
  if (call.name === 'return_delivered_order_items')
    return oldIds.map((id) => String(order.items.find((it) => it.item_id === id)?.price)).join(' + ');
  const { pairs } = swaps(state, order, oldIds, call.arguments.new_item_ids as string[]);
  return pairs.map(([o, n]) => `(${n.price} - ${o.price})`).join(' + ');
}

/**
 * The confirmation message of a proposed write: every detail a customer recognises, then a question about going
 * ahead. `said`: the customer's messages, lower-cased (ids are named only when the customer used them);
 * `total`: an amount the agent computed with `calculate`, when it did.
 */
export function confirmationText(
  rng: Rng,
  call: WriteCall,
  state: UserState,
  said: string,
  total?: number,
  notes: readonly (string | undefined)[] = [],
): string {
  const a = call.arguments;
  switch (call.name) {
    case 'cancel_pending_order': {
      const o = orderOf(state, a.order_id);
      const paid = dollars(o.payment_history[0]?.amount ?? 0);
      return say(rng, [
        `[Okay, |Alright, |]I can cancel ${orderSummary(said, o)}[ with the reason| for the reason] "${String(a.reason)}". The ${paid} you paid will be refunded to the original payment method. ${ask(rng)}`,
        `[Here is what I will do|To confirm]: cancel ${orderSummary(said, o)}, reason "${String(a.reason)}", and refund the ${paid} to the original payment method. ${ask(rng)}`,
      ]);
    }
    case 'modify_pending_order_address': {
      const o = orderOf(state, a.order_id);
      return say(rng, [
        `I will change the shipping address of ${orderSummary(said, o)} to ${addressLine(a as unknown as AddressView)}. ${ask(rng)}`,
        `[So|To confirm], ${orderSummary(said, o)} [would|will] ship to ${addressLine(a as unknown as AddressView)} [from now on|instead]; I will update the address. ${ask(rng)}`,
      ]);
    }
    case 'modify_pending_order_payment': {
      const o = orderOf(state, a.order_id);
      const old = o.payment_history[0]?.payment_method_id;
      const amount = dollars(o.payment_history[0]?.amount ?? 0);
      return say(rng, [
        `I will pay ${orderSummary(said, o)} (${amount}) with ${method(said, state, a.payment_method_id)} instead of ${method(said, state, old)}, which will be refunded. ${ask(rng)}`,
        `[To confirm|Here is the change]: you [would|will] pay the ${amount} for ${orderSummary(said, o)} with ${method(said, state, a.payment_method_id)}, and ${method(said, state, old)} gets refunded. ${ask(rng)}`,
      ]);
    }
    case 'modify_pending_order_items':
    case 'exchange_delivered_order_items': {
      const o = orderOf(state, a.order_id);
      const { pairs, diff } = swaps(state, o, a.item_ids as string[], a.new_item_ids as string[]);
      const verb = call.name === 'exchange_delivered_order_items' ? 'exchange' : 'change';
      const lead = say(rng, [
        `In ${orderSummary(said, o)} I will ${verb}:`,
        `[Here is the|This is the] ${verb} for ${orderSummary(said, o)}:`,
      ]);
      const once = say(rng, [
        `This can be done only once for this order, so please make sure these are all the items you want to ${verb}.`,
        `Note that an order can only be ${verb === 'exchange' ? 'exchanged' : 'changed'} once, so [please check|make sure] nothing else needs to ${verb === 'exchange' ? 'go in the exchange' : 'change'}.`,
      ]);
      return `${lead} ${swapLines(said, pairs, notes)}. ${differenceText(rng, total ?? diff, method(said, state, a.payment_method_id, o))} ${once} ${ask(rng)}`;
    }
    case 'modify_user_address':
      return say(rng, [
        `I will update the default address on your profile to ${addressLine(a as unknown as AddressView)}. ${ask(rng)}`,
        `[So|To confirm], your profile address [would become|becomes] ${addressLine(a as unknown as AddressView)}. ${ask(rng)}`,
      ]);
    case 'return_delivered_order_items': {
      const o = orderOf(state, a.order_id);
      const items = (a.item_ids as string[]).map(
        (id) => o.items.find((it) => it.item_id === id) as OrderItemView,
      );
      const refund = dollars(total ?? items.reduce((sum, it) => sum + it.price, 0));
      const list = items.map((it) => itemDescription(said, it)).join(', ');
      return say(rng, [
        `I will request a return of ${list} from ${orderSummary(said, o)}. The refund of ${refund} goes to ${method(said, state, a.payment_method_id, o)}, and you will receive return instructions by email. ${ask(rng)}`,
        `[Here is the return|To confirm the return]: ${list} from ${orderSummary(said, o)}, with ${refund} refunded to ${method(said, state, a.payment_method_id, o)}. Return instructions [will come|are sent] by email. ${ask(rng)}`,
      ]);
    }
    default:
      return `I will run ${call.name}. ${ask(rng)}`;
  }
}

/** The report after a successful write (no ids unless the customer used them). */
export function reportText(
  rng: Rng,
  call: WriteCall,
  orders: ReadonlyMap<string, OrderView>,
  user: UserView | undefined,
  said: string,
): string {
  const order = orders.get(call.arguments.order_id as string);
  const it = order === undefined ? 'the order' : orderSummary(said, order);
  const done = say(rng, ['Done:', 'All set:', 'That is done:', 'Done!', 'Great news:', 'All done:']);
  return sentences(reportBody(call, done, it, order, user, rng));
}

function reportBody(
  call: WriteCall,
  done: string,
  it: string,
  order: OrderView | undefined,
  user: UserView | undefined,
  rng: Rng,
): string {
  switch (call.name) {
    case 'cancel_pending_order':
      return say(rng, [
        `${done} ${it} is now cancelled.`,
        `${done} I have cancelled ${it}; the refund is on its way.`,
      ]);
    case 'modify_pending_order_address':
      return `${done} ${it} will now ship to ${order === undefined ? 'the new address' : addressLine(order.address)}.`;
    case 'modify_pending_order_payment':
      return say(rng, [
        `${done} the payment method of ${it} has been updated.`,
        `${done} I have switched the payment for ${it}.`,
      ]);
    case 'modify_pending_order_items':
      return say(rng, [
        `${done} the items of ${it} have been changed; its status is now "${order?.status}".`,
        `${done} ${it} has been updated with the new items.`,
      ]);
    case 'exchange_delivered_order_items':
      return say(rng, [
        `${done} your exchange has been requested; you will receive instructions by email.`,
        `${done} the exchange for ${it} is requested, and the instructions are on their way by email.`,
      ]);
    case 'return_delivered_order_items':
      return say(rng, [
        `${done} your return has been requested; you will receive instructions by email.`,
        `${done} the return for ${it} is requested; look out for an email with the instructions.`,
      ]);
    case 'modify_user_address':
      return `${done} your default address is now ${user === undefined ? 'updated' : addressLine(user.address)}.`;
    default:
      return `${done} the change has been made.`;
  }
}

/** The answer to an information request (it carries the value in τ²'s communicate format). */
export function infoText(rng: Rng, args: Args, state: UserState, said: string): string {
  if (args.topic === 'order_total') {
    const o = orderOf(state, args.order_id);
    const paid = dollars(o.payment_history[0]?.amount ?? 0);
    return say(rng, [
      `You paid ${paid} for ${orderSummary(said, o)}.`,
      `The total charged for ${orderSummary(said, o)} was ${paid}.`,
      `[I checked: |Let me see: ]${orderSummary(said, o)} came to ${paid} in total.`,
    ]);
  }
  const m = state.user.payment_methods[args.payment_method_id as string];
  const money = dollars(m?.balance ?? 0);
  const card = m === undefined ? 'your gift card' : methodText(said, m);
  return say(rng, [
    `${card} has a balance of ${money}.`,
    `There is ${money} left on ${card}.`,
    `[I checked: |]the balance of ${card} is ${money}.`,
  ]);
}

/**
 * A polite refusal of a request the policy forbids, with the reason. `foreign`: the order the customer named
 * when it belongs to another user (read by its id; nothing of it is told but that it is not theirs).
 */
export function refusalText(
  rng: Rng,
  args: Args,
  state: UserState,
  said: string,
  foreign?: OrderView,
): string {
  const sorry = say(rng, ["I'm sorry, but", 'Unfortunately,', 'I am afraid', "Sorry, I can't do that:"]);
  if (args.action === 'other_users_order') {
    const id = foreign?.order_id ?? String(args.order_id);
    const what = args.about === 'cancel' ? 'cancel it' : 'share its status or details';
    return say(rng, [
      `${sorry} order ${id} is not on your account. I can only help with orders placed from your own account, so I cannot ${what}.`,
      `${sorry} order ${id} belongs to a different account, and I can only discuss or change orders of the account holder I am speaking with, so I cannot ${what}. [The person who placed it can contact us directly.|]`,
    ]);
  }
  const o = orderOf(state, args.order_id);
  const it = orderSummary(said, o);
  switch (args.action) {
    case 'second_item_change': {
      const item = o.items.find((x) => x.item_id === (args.item_ids as string[] | undefined)?.[0]);
      const name = item === undefined ? 'another item' : `the ${item.name.toLowerCase()}`;
      return say(rng, [
        `${sorry} the items of ${it} have already been changed once (its status is now "${o.status}"), and an order's items can only be changed once, so I cannot change ${name} as well.`,
        `${sorry} ${it} already had its items modified, which can only be done once per order; its status is "${o.status}", so ${name} cannot be changed now.`,
      ]);
    }
    case 'cancel':
      return `${sorry} ${it} is ${o.status}, and only pending orders can be cancelled.`;
    case 'return':
      return `${sorry} ${it} is ${o.status} and has not been delivered yet, so it cannot be returned.`;
    case 'exchange':
      return `${sorry} ${it} is ${o.status} and has not been delivered yet, so its items cannot be exchanged.`;
    case 'exchange_other_product': {
      const item = o.items.find((x) => x.item_id === (args.item_ids as string[] | undefined)?.[0]);
      const name = item === undefined ? 'an item' : `a ${item.name.toLowerCase()}`;
      return `${sorry} an item can only be exchanged for another option of the same product, so ${name} from ${it} can be swapped for a different ${item?.name.toLowerCase() ?? 'variant'}, but not for a ${String(args.wanted_product).toLowerCase()}.`;
    }
    case 'refund_other_method': {
      const original = state.user.payment_methods[o.payment_history[0]?.payment_method_id ?? ''];
      const target = state.user.payment_methods[args.payment_method_id as string];
      const paidWith = original === undefined ? 'the original payment method' : methodText(said, original);
      const asked = target === undefined ? 'another method' : methodText(said, target);
      return `${sorry} a refund for ${it} can only go to the method it was paid with (${paidWith}) or to a gift card, not to ${asked}.`;
    }
    default:
      return `${sorry} ${it} is already ${o.status}; only pending orders can have their shipping address changed.`;
  }
}

/**
 * The agent's answer when the customer pushes back on a refusal: the policy still applies, for the refusal's own
 * reason (`action`: the refused action of the request).
 */
export function refusalAgain(rng: Rng, action: string): string {
  const why = REASONS[action] ?? "the order's status does not allow it";
  return say(
    rng,
    [
      "I understand[ how frustrating this is|], but I'm afraid I cannot make an exception: {why}.",
      "I'm sorry, I really can't make an exception here; {why}.",
    ],
    { why },
  );
}

/** Why each refused action stays refused (docs/conversations.md), as a clause. */
const REASONS: Readonly<Record<string, string>> = {
  cancel: 'only pending orders can be cancelled',
  return: 'only delivered orders can be returned',
  exchange: 'only delivered orders can have their items exchanged',
  modify_address: 'only pending orders can have their shipping address changed',
  exchange_other_product: 'an item can only be exchanged for another option of the same product',
  refund_other_method: 'a refund can only go to the original payment method or to a gift card',
  second_item_change: "an order's items can only be changed once",
  other_users_order: 'I can only help with orders placed from your own account',
};
