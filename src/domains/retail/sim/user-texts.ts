import type { Rng } from '../../../core/rng.js';
import { type Slots, say } from '../../../sim/scripted/grammar.js';
import {
  addressRefText,
  countedList,
  itemText,
  listText,
  orderText,
  paymentText,
  variantText,
} from '../synthesis/phrases.js';
import type { RetailRequest } from '../synthesis/requests.js';

/**
 * What the scripted customer says (docs/conversations.md): paraphrase-grammar templates per situation, first
 * person, cove's own phrasing. The reference phrases (orders by their items, payment methods, addresses) keep
 * their exact words; everything around them varies. Every way of asking for a request carries its intent word
 * (cancel, return, exchange, change, address, pay, balance, how much), which the oracle agent listens for.
 */

/** What the customer currently says for the references of a request (overrides for decoys and vague mentions). */
export interface Wording {
  readonly order?: string;
  readonly payment?: string;
  readonly reason?: string;
  readonly items?: string;
  readonly address?: string;
}

function swapsText(
  r: Extract<
    RetailRequest,
    {
      kind:
        | 'refusal'
        | 'return_delivered_order_items'
        | 'exchange_delivered_order_items'
        | 'modify_pending_order_items';
    }
  >,
  w: Wording,
  rng: Rng,
): string {
  if (w.items !== undefined) return w.items;
  if (r.kind === 'refusal')
    return countedList(
      r.items ?? [],
      (x) => itemText(x, rng),
      (x) => itemText(x),
    );
  if (r.kind === 'return_delivered_order_items')
    return countedList(
      r.items,
      (x) => itemText(x, rng),
      (x) => itemText(x),
    );
  return listText(r.items.map((s) => `${itemText(s.item, rng)} for ${variantText(s.replacement, rng)}`));
}

/** The vague address mention of an `ambiguous_reference` on `address` (several orders ship to other places). */
export const VAGUE_ADDRESS = 'the address of one of my other orders';

/** A request stated in full (with the wording overrides). */
export function statement(rng: Rng, r: RetailRequest, w: Wording = {}): string {
  const order = () => w.order ?? ('order' in r ? orderText(rng, r.order) : '');
  const pay = () => w.payment ?? ('payment' in r ? paymentText(r.payment, rng) : '');
  const slots = (): Slots => ({ order: order(), pay: pay() });
  switch (r.kind) {
    case 'cancel_pending_order':
      return say(
        rng,
        [
          "[I'd like to|I want to|I need to|Please|I would like to] cancel {order}[ for me|][.|, please.] [It's|The reason is:|Reason:|It was|Honestly, it's] {reason}.",
          "Could you cancel {order}[ for me|]? [It's|The reason is:|Reason:|It was|Honestly, it's] {reason}.",
          'Can you cancel {order} for me? [It was {reason}.|Reason: {reason}.|I want it cancelled as {reason}.]',
          '{order}, I need to cancel it[, please|]: {reason}.',
        ],
        { ...slots(), reason: w.reason ?? r.reason },
      );
    case 'modify_pending_order_address':
      return say(
        rng,
        [
          '[Could|Can] you [ship|send|deliver] {order} to {addr} instead?',
          'I [need|want|would like] to change the [delivery|shipping] address [of|for|on] {order}[ to| so it goes to] {addr}.',
          '[Hi, |]{order} should go to a different address: {addr}.',
        ],
        { ...slots(), addr: w.address ?? addressRefText(r.address) },
      );
    case 'modify_pending_order_payment':
      return say(
        rng,
        [
          "I'd [like|prefer] to pay for {order} with {pay} instead[ of what I used|].",
          '[Can|Could] you [switch|move] the payment [of|for] {order} [to|over to] {pay}?',
          'I want to change how I pay for {order}: please use {pay}.',
        ],
        slots(),
      );
    case 'modify_pending_order_items':
    case 'exchange_delivered_order_items': {
      const verb = r.kind === 'exchange_delivered_order_items' ? 'exchange' : 'change';
      return say(
        rng,
        [
          'In {order} I [want|would like|need] to {verb} {swaps}. [Please use|Put|Charge] {pay} for [any|the] price difference.',
          "I'd like to {verb} {swaps} [in|from] {order}, with {pay} [for|covering] the difference.",
          '[About|Regarding] {order}: [can you|could you] {verb} {swaps}? {pay} [for any difference|can cover the difference].',
        ],
        { ...slots(), verb, swaps: swapsText(r, w, rng) },
      );
    }
    case 'modify_user_address':
      return say(
        rng,
        [
          "I've moved. [Please update the default address on my account to {addr}.|Can you update the default address on my account to {addr}?]",
          'Can you change my profile address to {addr}?',
          'My address [has changed|is different now]; please set it to {addr}.',
        ],
        { addr: w.address ?? addressRefText(r.address) },
      );
    case 'return_delivered_order_items':
      return say(
        rng,
        [
          'I [want|need|would like] to return {items} from {order}. [Please refund|The refund should go to|Refund it to|Put the money back on] {pay}.',
          "I'd like to [send back|return] {items} [from|that came in] {order}, with the [refund|money] going [to|back to] {pay}.",
          '[I need to|Can I] return {items} from {order}? {pay} for the refund[, please|].',
        ],
        { ...slots(), items: swapsText(r, w, rng) },
      );
    case 'information':
      return r.topic === 'order_total'
        ? say(
            rng,
            [
              'How much did I pay for {order}?',
              'What was the total charged for {order}?',
              "[I'm doing my budget|I'm checking my statement] and want to know how much I paid for {order}.",
            ],
            slots(),
          )
        : say(
            rng,
            [
              "What's the balance on {pay}?",
              'How much is left on {pay}?',
              'Could you check the balance of {pay} for me?',
            ],
            slots(),
          );
    case 'refusal': {
      const s = { ...slots(), items: swapsText(r, w, rng), reason: r.reason ?? 'no longer needed' };
      switch (r.action) {
        case 'cancel':
          return say(
            rng,
            ["I'd like to cancel {order}. It's {reason}.", 'Please cancel {order}; {reason}.'],
            s,
          );
        case 'return':
          return say(
            rng,
            ['I want to return {items} from {order}.', 'Can I return {items} from {order}?'],
            s,
          );
        case 'exchange':
          return say(
            rng,
            [
              "I'd like to exchange {items} from {order} for another size or color.",
              'Can I exchange {items} from {order}? I need a different size or color.',
            ],
            s,
          );
        case 'modify_address':
          return say(
            rng,
            ['Can you send {order} to a different address?', 'I need {order} to go to another address.'],
            s,
          );
        case 'exchange_other_product':
          return say(
            rng,
            [
              "I'd like to exchange {items} from {order} for {wanted} instead.",
              'Can I exchange {items} from {order}? I [would rather have|want] {wanted}.',
            ],
            { ...s, wanted: `a ${String(r.wanted_product).toLowerCase()}` },
          );
        case 'refund_other_method':
          return say(
            rng,
            [
              'I want to return {items} from {order}, and [please put|I want] the refund [on|to go to] {refund}.',
              'Can I return {items} from {order} and get the refund on {refund}?',
            ],
            { ...s, refund: r.refund_to === undefined ? '' : paymentText(r.refund_to, rng) },
          );
        case 'second_item_change':
          return say(
            rng,
            [
              '[Oh, |Actually, |Hmm, ]I [also|just remembered I also] want to change {swaps} in {order}[ too|].',
              'One more change to {order}: can you [also |]swap {swaps}?',
              'Can I also change {swaps} in {order}? I forgot to [mention|ask about] it.',
            ],
            {
              ...s,
              swaps: listText(
                (r.swaps ?? []).map((x) => `${itemText(x.item, rng)} for ${variantText(x.replacement, rng)}`),
              ),
            },
          );
        case 'other_users_order':
          return r.about === 'cancel'
            ? say(
                rng,
                [
                  '[Please cancel {order}.|Could you cancel {order}?] [My partner|My sister|My roommate] placed it[ from their account|] and asked me to [sort it out|cancel it].',
                  'I need to cancel {order}. [It was ordered by my partner|My brother ordered it], but I am handling it for [them|him].',
                ],
                s,
              )
            : say(
                rng,
                [
                  '[Can you|Could you] [tell me|check] the status of {order}? [My sister|A friend|My partner] placed it[ for me|].',
                  "What's the status of {order}? [It's my partner's order|My brother placed it], [but|and] I am [waiting for it|keeping track of it].",
                ],
                s,
              );
      }
    }
  }
}

/** A request stated with only its intent (the agent must ask for the details). */
export function partialStatement(rng: Rng, r: RetailRequest): string {
  switch (r.kind) {
    case 'cancel_pending_order':
      return say(rng, [
        'I [want|need|would like] to cancel [an order|one of my orders|something I ordered].',
        '[Can you help me|Could you help me] cancel [an order|a recent order]?',
        'I need help to cancel [an order|a recent order].',
        'I [placed|made] an order [I no longer want|by mistake] and [want|need] to cancel it.',
      ]);
    case 'modify_pending_order_address':
      return say(rng, [
        'I [need|want] to change the [shipping|delivery] address on [an order|one of my orders].',
        'One of my orders should [ship|go] to a different address.',
        'Can I [change|update] the address an order [ships to|is delivered to]?',
      ]);
    case 'modify_pending_order_payment':
      return say(rng, [
        'I want to change how I pay for [an order|one of my orders].',
        "I'd like to switch the payment method on [one of my orders|an order], so I pay differently.",
        'Can I pay for [an order|a recent order] with a different [payment method|card]?',
      ]);
    case 'modify_pending_order_items':
      return say(rng, [
        'I want to change [something|an item] in an order that has [yet to ship|only just been placed].',
        "I'd like to change [some items|a product|an option] in one of my orders.",
        'Can I [change|swap] [an item|something] in an order before it ships?',
      ]);
    case 'exchange_delivered_order_items':
      return say(rng, [
        'I [want|need] to exchange [something|an item] I received.',
        "I'd like to exchange [a product|something] from one of my orders.",
        'Something I [got|received] [is the wrong size|needs a different option]; can I exchange it?',
      ]);
    case 'modify_user_address':
      return say(rng, [
        'I [need|want] to update my address.',
        'My address [changed|is different now][, I moved|].',
        'Can you update the address [on my account|in my profile]?',
      ]);
    case 'return_delivered_order_items':
      return say(rng, [
        'I [want|need] to return [some items|something|a couple of things][ I bought|].',
        "I'd like to return [a few things|something|an item] from [an order|one of my orders].",
        '[Can I|How do I] return [something|a purchase|an item I received]?',
      ]);
    case 'information':
      return r.topic === 'order_total'
        ? say(rng, [
            'I want to know how much I paid for one of my orders.',
            'How much was I charged for an order?',
            "[I'm|I am] [checking my statement|doing my budget]: what was the total [paid|charged] for one of my orders?",
          ])
        : say(rng, [
            'I want to check the balance [on|of] my gift card.',
            'How much is left on my gift card?',
            'Could you tell me my gift card balance?',
          ]);
    case 'refusal':
      return statement(rng, r);
  }
}

/** The opening message. */
export function opening(rng: Rng, core: string, identity?: string): string {
  const hello = say(rng, [
    'Hi!',
    'Hello.',
    'Hi there.',
    'Good morning.',
    'Hey.',
    'Good afternoon.',
    '',
    'Hello!',
  ]);
  const base = hello === '' ? core : `${hello} ${core}`;
  return identity === undefined
    ? base
    : `${base} ${say(rng, ['By the way, {id}.', '{id}, if you need it.', 'For my account: {id}.'], { id: identity })}`;
}

/** A product the request is about (lower-cased), when the customer knows one by name. */
function productOf(r: RetailRequest): string | undefined {
  // a refused second item change is about its own item, not the order's reference product
  if (r.kind === 'refusal' && r.swaps !== undefined) {
    for (const x of r.swaps) if (x.item.strategy !== 'id') return x.item.product_name.toLowerCase();
  }
  if ('items' in r && r.items !== undefined) {
    for (const x of r.items) {
      const ref = 'replacement' in x ? x.item : x;
      if (ref.strategy !== 'id') return ref.product_name.toLowerCase();
    }
  }
  if ('order' in r && r.order.strategy === 'items') return r.order.items[0]?.product_name.toLowerCase();
  return undefined;
}

/** What a yes to the proposal of `r` is about ("the return of the desk lamp", "the address change"). */
export function subjectOf(rng: Rng, r: RetailRequest): string {
  const p = productOf(r);
  const thing = p === undefined ? 'the order' : `the ${p}`;
  const pick = (xs: string[]) =>
    say(rng, xs, { t: thing, p: p ?? 'order' }).replace(/^./, (c) => c.toLowerCase());
  switch (r.kind) {
    case 'cancel_pending_order':
      return pick(['the cancellation', 'cancelling it', 'cancelling the order with {t}']);
    case 'modify_pending_order_address':
      return pick(['the new address', 'the address change', 'shipping it there']);
    case 'modify_pending_order_payment':
      return pick(['the payment change', 'switching the payment', 'that payment method']);
    case 'modify_pending_order_items':
      return pick(['the change', 'swapping {t}', 'the new {p}']);
    case 'exchange_delivered_order_items':
      return pick(['the exchange', 'exchanging {t}', 'the exchange of {t}']);
    case 'return_delivered_order_items':
      return pick(['the return', 'returning {t}', 'the refund', 'the return of {t}']);
    case 'modify_user_address':
      return pick(['the address update', 'updating my address', 'the new address']);
    default:
      return 'it';
  }
}

/** What the conversation was about, for the last message. */
export function topicOf(r: RetailRequest | undefined): string {
  if (r === undefined) return 'everything';
  const p = productOf(r);
  return p === undefined ? (r.kind === 'modify_user_address' ? 'my address' : 'my order') : `the ${p}`;
}
