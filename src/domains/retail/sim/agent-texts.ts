import type { Rng } from '../../../core/rng.js';
import { dollars } from '../../../sim/scripted/agent-phrases.js';
import { say } from '../../../sim/scripted/grammar.js';
import { addressText } from '../synthesis/phrases.js';
import type { VariantRef } from '../synthesis/references.js';
import type { AddressView, OrderItemView, OrderView, PaymentMethodView } from '../synthesis/views.js';

/**
 * What the oracle agent says (docs/conversations.md): paraphrase-grammar templates per situation, in cove's own
 * words. Confirmations spell out the details a customer recognises (product names, options, payment method,
 * address); internal ids appear only when the customer used them (`said` is everything the customer wrote,
 * lower-cased). Questions that ask for a detail carry a word naming it (order, item, payment method, address,
 * reason), and proposals end with a question about going ahead, so the scripted customer can tell them apart.
 */

export {
  anythingElse,
  ask,
  dollars,
  howCanIHelp,
  TRANSFER_TEXT,
} from '../../../sim/scripted/agent-phrases.js';

function optionText(options: Readonly<Record<string, string>>): string {
  return Object.entries(options)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/** ` (#W123)` when the customer used the id, else nothing. */
function idIf(said: string, id: string, label = ''): string {
  return said.includes(id.toLowerCase()) ? ` (${label}${id})` : '';
}

export function itemDescription(said: string, item: OrderItemView): string {
  return `the ${item.name.toLowerCase()} (${optionText(item.options)}${said.includes(item.item_id) ? `; item ${item.item_id}` : ''})`;
}

/** An order as the agent names it: by its items, with its id only when the customer used it. */
export function orderSummary(said: string, order: OrderView): string {
  const names = countedNames(order.items.map((i) => i.name.toLowerCase()));
  const list =
    names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `your order${idIf(said, order.order_id)} with the ${list}`;
}

const COUNTS = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** Each product name once, in first-seen order, with a count when repeated ("two stand mixers"). */
export function countedNames(names: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, c]) => (c === 1 ? n : `${COUNTS[c] ?? String(c)} ${plural(n)}`));
}

function plural(name: string): string {
  if (/(s|x|z|ch|sh)$/.test(name)) return `${name}es`;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

export function methodText(said: string, method: PaymentMethodView, original = false): string {
  const brand =
    method.brand === undefined ? '' : `${method.brand[0]?.toUpperCase()}${method.brand.slice(1)} `;
  const base =
    method.source === 'credit_card'
      ? `your ${brand}credit card ending in ${method.last_four ?? '????'}${idIf(said, method.id)}`
      : method.source === 'gift_card'
        ? `your gift card${idIf(said, method.id)}`
        : `your PayPal account${idIf(said, method.id)}`;
  return original ? `${base}, the original payment method` : base;
}

export function addressLine(a: AddressView): string {
  return addressText(a);
}

export function askIdentity(rng: Rng, first: boolean): string {
  return say(rng, [
    `${first ? '[I can help with that. |Sure, I can look into that. |Happy to help. |]' : ''}[First|Before anything else], I need to verify your identity: [could you give me the email address on your account, or your first name, last name and zip code?|please share the email address on your account, or your first name, last name and zip code.]`,
    `${first ? '[Happy to help|Of course|I can help with that]. ' : ''}[To|So I can] find your account, [please tell me your email address, or your full name and zip code.|could you tell me your email address, or your full name and zip code?]`,
    `${first ? '[Sure|Certainly]. ' : ''}[Could I have|May I have] the email address on your account? [If you do not have it, your name and zip code work too.|Your full name and zip code also work.]`,
  ]);
}

export function identityNotFound(rng: Rng, field: 'email' | 'zip'): string {
  return say(rng, [
    `I'm sorry, I [could not|couldn't] find an account with [that|this] ${field === 'email' ? 'email address' : 'name and zip code'}. Could you [double-check|check] it[ for me|]?`,
    field === 'email'
      ? `[Hmm, |][that|this] email [does not|doesn't] match any account[ I can see|]. Could you [verify|check] it, or give me your full name and zip code instead?`
      : `[Hmm, |][that|this] name and zip code [do not|don't] match any account[ I can see|]. Could you [verify|check] them again, or give me your email address instead?`,
  ]);
}

/** The order id the customer gave is no order (`get_order_details` answered "Error: Order not found"). */
export function orderNotFound(rng: Rng, id: string): string {
  return say(rng, [
    `I'm sorry, I [could not|couldn't] find order ${id}. Could you [check|double-check] the order number[ for me|]?`,
    `[Hmm, |]I [could not|couldn't] find [an|any] order ${id} in our system. Could you [check|verify] the number?`,
  ]);
}

export function identityFailed(): string {
  return 'I am sorry, but I cannot help without verifying your identity.';
}

/** Slot questions: each names the detail it asks for. */
export function askOrder(rng: Rng): string {
  return say(rng, [
    'Which order is this about?',
    '[Sure. |Okay. |]Which order [do you mean|are we talking about]? [You can describe what was in it.|A product that was in it is enough.|]',
    '[Could you|Can you] tell me which order [it is|this concerns]?',
  ]);
}

export function askItems(rng: Rng, verb: string): string {
  return say(rng, [
    `Which item[s|] would you like to ${verb}?`,
    `[Okay. |Got it. |]Which [of the items|products] [do you want|would you like] to ${verb}?`,
    `Could you tell me which item[s|] you want to ${verb}?`,
  ]);
}

export function askReplacement(rng: Rng): string {
  return say(rng, [
    'What would you like [it|them] replaced with? [Which options, for example color or size?|]',
    '[Got it. |]Which new option[s|] would you like instead?',
    'What should [it|they] be replaced with?',
  ]);
}

export function askPayment(rng: Rng, refund: boolean): string {
  return refund
    ? say(rng, [
        'Which payment method should the refund go to? [It can go to the original payment method or to a gift card.|]',
        '[Where|To which payment method] would you like the refund [sent|to go]?',
      ])
    : say(rng, [
        'Which payment method would you like to use[ for the difference|]?',
        'How would you like to pay[ for any price difference|]? Which payment method?',
        '[And |]which payment method should I [use|charge]?',
      ]);
}

export function askAddress(rng: Rng): string {
  return say(rng, [
    'What is the new address?',
    '[Sure. |]Which address should I [use|put on it]?',
    'Could you give me the [new |]address, please?',
  ]);
}

export function askReason(rng: Rng): string {
  return say(rng, [
    'May I ask the reason: is it no longer needed, or was it ordered by mistake?',
    'What is the reason for the cancellation: no longer needed, or ordered by mistake?',
  ]);
}

export function askWhichOrder(rng: Rng, orders: readonly string[]): string {
  return say(rng, [
    `I [see|found] ${orders.length} orders that match: ${orders.join('; ')}. Which of these orders do you mean?`,
    `[There are|You have] ${orders.length} orders with that: ${orders.join('; ')}. Which order is it?`,
  ]);
}

export function askWhichCard(rng: Rng, cards: readonly string[]): string {
  return say(rng, [
    `You have ${cards.length} credit cards on file: ${cards.join('; ')}. Which card [should I use|do you mean]?`,
    `[I see|There are] ${cards.length} credit cards on your account: ${cards.join('; ')}. Which payment method do you mean?`,
  ]);
}

/** "Which address": the addresses the user's orders ship to (each a full line), for a vague address mention. */
export function askWhichAddress(rng: Rng, addresses: readonly string[]): string {
  const list = `${addresses.slice(0, -1).join('; ')}; or ${addresses[addresses.length - 1]}`;
  return say(rng, [
    `Your orders ship to several addresses: ${list}. Which of these addresses do you mean?`,
    `I see these addresses on your orders: ${list}. Which of these addresses should I use?`,
  ]);
}

export function askWhichItem(rng: Rng, name: string, variants: readonly string[]): string {
  return say(rng, [
    `There are ${variants.length} ${name.toLowerCase()} items in that order: ${variants.join('; ')}. Which item do you mean?`,
    `[That order|It] has ${variants.length} of them: ${variants.join('; ')}. Which item is it?`,
  ]);
}

/**
 * The swaps of a proposal, old item → new variant with its price. `notes[i]`: how the customer described the
 * i-th replacement when the options alone do not say it ("the cheapest available with color blue").
 */
export function swapLines(
  said: string,
  pairs: readonly [
    OrderItemView,
    { item_id: string; options: Readonly<Record<string, string>>; price: number },
  ][],
  notes: readonly (string | undefined)[] = [],
): string {
  return pairs
    .map(([old, neu], i) => {
      const note = notes[i] === undefined ? '' : `${notes[i]}, `;
      return `${itemDescription(said, old)} → the ${old.name.toLowerCase()} with ${optionText(neu.options)} (${note}${said.includes(neu.item_id) ? `item ${neu.item_id}, ` : ''}${dollars(neu.price)})`;
    })
    .join('; ');
}

/** How the agent names a replacement the customer described by price or by another order (else undefined). */
export function replacementNote(ref: VariantRef): string | undefined {
  if (ref.strategy === 'cheapest') return `the cheapest available with ${optionText(ref.options)}`;
  if (ref.strategy === 'same_as_order')
    return `the same one as in your other order${ref.with_product === undefined ? '' : ` with the ${ref.with_product.toLowerCase()}`}`;
  return undefined;
}

export function differenceText(rng: Rng, diff: number, method: string): string {
  if (Math.abs(diff) < 0.005)
    return say(rng, [
      `There is no price difference; ${method} is kept on record for it.`,
      `The price is the same, so nothing is charged; ${method} stays on record.`,
    ]);
  return diff > 0
    ? say(rng, [
        `You will pay the difference of ${dollars(diff)} with ${method}.`,
        `The difference of ${dollars(diff)} will be charged to ${method}.`,
      ])
    : say(rng, [
        `The difference of ${dollars(diff)} will be refunded to ${method}.`,
        `You will get ${dollars(diff)} back on ${method}.`,
      ]);
}

/** The answer to a side question (policy facts or the product types tool's result). */
export function sideAnswer(rng: Rng, topic: 'products' | 'refund_time', types?: readonly string[]): string {
  if (topic === 'refund_time')
    return say(rng, [
      'Refunds to a gift card are immediate; refunds to other payment methods take 5 to 7 business days.',
      'A refund to a gift card arrives at once; for a card or PayPal it takes 5-7 business days.',
    ]);
  const list = (types ?? []).slice(0, 4).map((t) => t.toLowerCase());
  return say(rng, [
    `We carry ${types?.length ?? 0} product types, for example ${list.join(', ')}.`,
    `We sell ${types?.length ?? 0} kinds of products, including ${list.join(', ')}.`,
  ]);
}
