import type { Rng } from '../../../core/rng.js';
import type { Behaviour } from '../../../tasks/behaviour.js';
import type { Tau2Instructions } from '../../../tasks/tau2-task.js';
import {
  addressRefText,
  countedList,
  itemText,
  listText,
  mentionText,
  orderText,
  paymentText,
  variantText,
} from './phrases.js';
import type { ItemMention, PaymentRef, UserRef, VariantRef } from './references.js';
import type { RetailRequest } from './requests.js';

/**
 * The τ² user scenario of a generated task (`reason_for_call`, `known_info`, `unknown_info`,
 * `task_instructions`), in cove's own words with seeded variation. It never mentions an id that was fuzzified:
 * references are rendered from their descriptions.
 */

/** First person ("my order") to second person ("your order") for the scenario text. */
function second(text: string): string {
  return text
    .replace(/\bmy\b/g, 'your')
    .replace(/\bI\b/g, 'you')
    .replace(/\bme\b/g, 'you');
}

/** A replacement in the second person ("the same one as in your other order"). */
function replacementText(ref: VariantRef): string {
  return ref.strategy === 'same_as_order' ? second(variantText(ref)) : variantText(ref);
}

/** One request as a sentence of the scenario (second person). */
export function requestSentence(rng: Rng, r: RetailRequest): string {
  const o = (ref: Parameters<typeof orderText>[1]) => second(orderText(rng, ref));
  switch (r.kind) {
    case 'cancel_pending_order':
      return rng.pick([
        `You want to cancel ${o(r.order)} because it is ${r.reason}.`,
        `You would like ${o(r.order)} cancelled; the reason is "${r.reason}".`,
      ]);
    case 'modify_pending_order_address':
      return rng.pick([
        `You want ${o(r.order)} shipped to ${second(addressRefText(r.address))} instead.`,
        `You need to change the shipping address of ${o(r.order)} to ${second(addressRefText(r.address))}.`,
      ]);
    case 'modify_pending_order_payment':
      return rng.pick([
        `You want to pay for ${o(r.order)} with ${second(paymentText(r.payment))} instead.`,
        `You would like to switch the payment of ${o(r.order)} to ${second(paymentText(r.payment))}.`,
      ]);
    case 'modify_pending_order_items':
    case 'exchange_delivered_order_items': {
      const swaps = listText(r.items.map((s) => `${itemText(s.item)} for ${replacementText(s.replacement)}`));
      const verb = r.kind === 'exchange_delivered_order_items' ? 'exchange' : 'change';
      return rng.pick([
        `In ${o(r.order)} you want to ${verb} ${swaps}. Any price difference goes on ${second(paymentText(r.payment))}.`,
        `You want to ${verb} ${swaps} in ${o(r.order)}, settling the difference with ${second(paymentText(r.payment))}.`,
      ]);
    }
    case 'modify_user_address':
      return rng.pick([
        `You have moved and want the default address on your account changed to ${second(addressRefText(r.address))}.`,
        `You want your profile address updated to ${second(addressRefText(r.address))}.`,
      ]);
    case 'return_delivered_order_items':
      return rng.pick([
        `You want to return ${countedList(r.items, itemText)} from ${o(r.order)}, refunded to ${second(paymentText(r.payment))}.`,
        `You would like to send back ${countedList(r.items, itemText)} from ${o(r.order)}; the refund should go to ${second(paymentText(r.payment))}.`,
      ]);
    case 'information':
      return r.topic === 'order_total'
        ? rng.pick([
            `You want to know how much you paid for ${o(r.order)}.`,
            `You ask what the total charge for ${o(r.order)} was.`,
          ])
        : rng.pick([
            `You want to know the current balance of ${second(paymentText(r.payment))}.`,
            `You ask how much money is left on ${second(paymentText(r.payment))}.`,
          ]);
    case 'refusal':
      switch (r.action) {
        case 'cancel':
          return `You want to cancel ${o(r.order)} because it is ${r.reason ?? 'no longer needed'}.`;
        case 'return':
          return `You want to return ${countedList(r.items ?? [], itemText)} from ${o(r.order)}.`;
        case 'exchange':
          return `You want to exchange ${countedList(r.items ?? [], itemText)} from ${o(r.order)} for a different size or color.`;
        case 'modify_address':
          return `You want ${o(r.order)} sent to a new address.`;
        case 'exchange_other_product':
          return `You want to exchange ${countedList(r.items ?? [], itemText)} from ${o(r.order)} for a ${String(r.wanted_product).toLowerCase()} instead.`;
        case 'refund_other_method':
          return `You want to return ${countedList(r.items ?? [], itemText)} from ${o(r.order)} with the refund going to ${second(paymentText(r.refund_to as PaymentRef))}.`;
        case 'second_item_change': {
          const swaps = listText(
            (r.swaps ?? []).map((s) => `${itemText(s.item)} for ${replacementText(s.replacement)}`),
          );
          return `Only once the items of ${o(r.order)} have been changed as asked above, you remember that you also want to change ${swaps} in that order; ask for it then.`;
        }
        case 'other_users_order':
          return r.about === 'cancel'
            ? `Your partner placed ${o(r.order)} from their own account and asked you to cancel it; you ask the agent to cancel it.`
            : `Your partner placed ${o(r.order)} from their own account; you ask the agent for its status.`;
      }
  }
}

/** The behaviour's knowledge entries and events as second-person instructions (docs/conversations.md). */
export function behaviourSentences(behaviour: Behaviour, requests: readonly RetailRequest[]): string[] {
  const n = (i: unknown) => (requests.length === 1 ? 'your request' : `request (${Number(i) + 1})`);
  const out: string[] = [];
  for (const k of behaviour.knowledge) {
    if (k.kind === 'wrong_detail')
      out.push(
        k.field === 'email'
          ? `The first time you give your email you get it slightly wrong (${String(k.value)}); when the agent cannot find your account, correct it.`
          : `The first time you give your zip code you get it wrong (${String(k.value)}); when the agent cannot find your account, correct it.`,
      );
    if (k.kind === 'wrong_order_id') {
      const r = requests[Number(k.request)];
      const right = r !== undefined && 'order' in r && r.order.strategy === 'id' ? r.order.order_id : '';
      out.push(
        `For ${n(k.request)}, the first time you give the order number you get one digit wrong (${String(k.value)}); when the agent cannot find that order, correct it to ${right}.`,
      );
    }
    if (k.kind === 'partial_info')
      out.push(
        `For ${n(k.request)}, first say only what you want done; give the details (which order, which items, which payment method or address) only when the agent asks for them.`,
      );
  }
  for (const e of behaviour.events) {
    const r = requests[e.request ?? 0];
    switch (e.kind) {
      case 'ambiguous_reference':
        out.push(
          e.field === 'order'
            ? `For ${n(e.request)}, at first call the order just "the order with ${mentionText(e.mention as ItemMention)}"; say which one exactly when the agent asks.`
            : e.field === 'payment'
              ? `For ${n(e.request)}, at first just say "your credit card"; name the card exactly when the agent asks which one.`
              : e.field === 'address'
                ? `For ${n(e.request)}, at first just say "the address of one of your other orders"; say which city when the agent asks which address.`
                : `For ${n(e.request)}, at first just say "the ${String(e.product_name).toLowerCase()}"; give its options when the agent asks which one.`,
        );
        break;
      case 'change_of_mind':
      case 'reject_proposal': {
        const first =
          e.field === 'reason'
            ? `the reason "${String(e.first)}"`
            : second(paymentText(e.first as PaymentRef));
        const final =
          e.field === 'reason' && r?.kind === 'cancel_pending_order'
            ? `the reason "${r.reason}"`
            : r !== undefined && 'payment' in r
              ? second(paymentText(r.payment))
              : 'what is described above';
        out.push(
          `For ${n(e.request)}, first ask for ${first}; when the agent proposes it, change your mind and ask for ${final} instead (that is what you finally want).`,
        );
        break;
      }
      case 'push_back':
        out.push(
          `If the agent says ${n(e.request)} is not possible, push back once and ask for an exception before accepting.`,
        );
        break;
      case 'transfer':
        out.push('If the agent still refuses after you push back, ask to be transferred to a human agent.');
        break;
      case 'side_question':
        out.push(
          `After ${n(e.request)} is dealt with, ask ${e.topic === 'products' ? 'what kinds of products the store sells' : 'how long a refund takes'}.`,
        );
        break;
      case 'two_requests':
        out.push('Mention your first two requests together in one message.');
        break;
    }
  }
  return out;
}

/** The whole scenario of a task. */
export function scenarioInstructions(
  rng: Rng,
  user: UserRef,
  requests: readonly RetailRequest[],
  behaviour?: Behaviour,
): Tau2Instructions {
  const sentences = requests.map((r) => requestSentence(rng, r));
  const reason =
    sentences.length === 1
      ? (sentences[0] as string)
      : `${rng.pick(['You have several things to sort out.', 'You are calling about a few things.'])} ${sentences
          .map((s, i) => `(${i + 1}) ${s}`)
          .join(' ')}`;
  const known =
    user.strategy === 'email'
      ? `Your email address is ${user.email}.`
      : `You are ${user.first_name} ${user.last_name} and your zip code is ${user.zip}.`;
  const unknown =
    user.strategy === 'email'
      ? 'You do not know your user id or your order ids.'
      : 'You do not remember your email address, your user id or your order ids.';
  const refused = requests.some((r) => r.kind === 'refusal');
  const instructions = [
    rng.pick(['Bring up one request at a time.', 'Deal with your requests one by one, in the order given.']),
    'Only give details when the agent asks for them, and describe things the way you know them.',
    'Say yes to a proposed change only if it matches what you want.',
    refused ? 'If the agent explains that something is not possible, accept that and move on.' : '',
    ...(behaviour === undefined ? [] : behaviourSentences(behaviour, requests)),
    'When everything is done, thank the agent and end the conversation.',
  ].filter((x) => x !== '');
  return {
    domain: 'retail',
    reason_for_call: reason,
    known_info: known,
    unknown_info: unknown,
    task_instructions: instructions.join(' '),
  };
}
