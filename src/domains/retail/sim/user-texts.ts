import type { Rng } from '../../../core/rng.js';
import {
  addressRefText,
  countedList,
  itemText,
  listText,
  orderText,
  paymentText,
  userText,
  variantText,
} from '../synthesis/phrases.js';
import type { UserRef } from '../synthesis/references.js';
import type { RetailRequest } from '../synthesis/requests.js';

/** What the scripted customer says, first person, cove's own phrasing, several variants per situation. */

/** A request as the customer asks for it. */
export function askFor(rng: Rng, r: RetailRequest): string {
  switch (r.kind) {
    case 'cancel_pending_order':
      return rng.pick([
        `I'd like to cancel ${orderText(rng, r.order)}. It's ${r.reason}.`,
        `Can you cancel ${orderText(rng, r.order)} for me? Reason: ${r.reason}.`,
      ]);
    case 'modify_pending_order_address':
      return rng.pick([
        `Could you ship ${orderText(rng, r.order)} to ${addressRefText(r.address)} instead?`,
        `I need to change the delivery address of ${orderText(rng, r.order)} to ${addressRefText(r.address)}.`,
      ]);
    case 'modify_pending_order_payment':
      return rng.pick([
        `I'd like to pay for ${orderText(rng, r.order)} with ${paymentText(r.payment)} instead.`,
        `Can you switch the payment of ${orderText(rng, r.order)} to ${paymentText(r.payment)}?`,
      ]);
    case 'modify_pending_order_items':
    case 'exchange_delivered_order_items': {
      const swaps = listText(r.items.map((s) => `${itemText(s.item)} for ${variantText(s.replacement)}`));
      const verb = r.kind === 'exchange_delivered_order_items' ? 'exchange' : 'change';
      return rng.pick([
        `In ${orderText(rng, r.order)} I want to ${verb} ${swaps}. Please use ${paymentText(r.payment)} for any price difference.`,
        `I'd like to ${verb} ${swaps} in ${orderText(rng, r.order)}, with ${paymentText(r.payment)} for the difference.`,
      ]);
    }
    case 'modify_user_address':
      return rng.pick([
        `I've moved. Please update the default address on my account to ${addressRefText(r.address)}.`,
        `Can you change my profile address to ${addressRefText(r.address)}?`,
      ]);
    case 'return_delivered_order_items':
      return rng.pick([
        `I want to return ${countedList(r.items, itemText)} from ${orderText(rng, r.order)}. Please refund ${paymentText(r.payment)}.`,
        `I'd like to send back ${countedList(r.items, itemText)} from ${orderText(rng, r.order)}, with the refund going to ${paymentText(r.payment)}.`,
      ]);
    case 'information':
      return r.topic === 'order_total'
        ? rng.pick([
            `How much did I pay for ${orderText(rng, r.order)}?`,
            `What was the total charge for ${orderText(rng, r.order)}?`,
          ])
        : rng.pick([
            `What's the balance on ${paymentText(r.payment)}?`,
            `How much is left on ${paymentText(r.payment)}?`,
          ]);
    case 'refusal':
      switch (r.action) {
        case 'cancel':
          return `I'd like to cancel ${orderText(rng, r.order)}. It's ${r.reason ?? 'no longer needed'}.`;
        case 'return':
          return `I want to return ${countedList(r.items ?? [], itemText)} from ${orderText(rng, r.order)}.`;
        case 'exchange':
          return `I'd like to exchange ${countedList(r.items ?? [], itemText)} from ${orderText(rng, r.order)} for another size or color.`;
        case 'modify_address':
          return `Can you send ${orderText(rng, r.order)} to a different address?`;
      }
  }
}

export function opening(rng: Rng, request: string, identity?: UserRef): string {
  const hello = rng.pick(['Hi!', 'Hello.', 'Hi there.', 'Good morning.']);
  return identity === undefined
    ? `${hello} ${request}`
    : `${hello} ${request} By the way, ${userText(identity)}.`;
}

export function identify(rng: Rng, user: UserRef): string {
  return rng.pick([
    `Sure, ${userText(user)}.`,
    `Of course. ${userText(user)[0]?.toUpperCase()}${userText(user).slice(1)}.`,
  ]);
}

export const YES = ['Yes, please go ahead.', 'Yes, that is right.', 'Yes, please.'];
export const THANKS_NEXT = [
  'Thanks! There is one more thing.',
  'Great, thank you. I also have another request.',
  'Perfect. One more thing:',
];
export const ACCEPT_REFUSAL = ['I see, that is a pity, but I understand.', 'Oh, okay. I understand.'];
export const STOP = [
  "That's everything, thank you! ###STOP###",
  'Great, that is all I needed. Thanks for your help. ###STOP###',
];
