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
import type { PaymentRef, UserRef } from '../synthesis/references.js';
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
): string {
  if (w.items !== undefined) return w.items;
  if (r.kind === 'refusal') return countedList(r.items ?? [], itemText);
  if (r.kind === 'return_delivered_order_items') return countedList(r.items, itemText);
  return listText(r.items.map((s) => `${itemText(s.item)} for ${variantText(s.replacement)}`));
}

/** A request stated in full (with the wording overrides). */
export function statement(rng: Rng, r: RetailRequest, w: Wording = {}): string {
  const order = () => w.order ?? ('order' in r ? orderText(rng, r.order) : '');
  const pay = () => w.payment ?? ('payment' in r ? paymentText(r.payment) : '');
  const slots = (): Slots => ({ order: order(), pay: pay() });
  switch (r.kind) {
    case 'cancel_pending_order':
      return say(
        rng,
        [
          "[I'd like to|I want to|I need to|Please] cancel {order}. [It's|The reason is:|Reason:] {reason}.",
          'Can you cancel {order} for me? [It was {reason}.|Reason: {reason}.|I want it cancelled as {reason}.]',
          '{order}, I need to cancel it[, please|]: {reason}.',
        ],
        { ...slots(), reason: w.reason ?? r.reason },
      );
    case 'modify_pending_order_address':
      return say(
        rng,
        [
          'Could you ship {order} to {addr} instead?',
          'I need to change the [delivery|shipping] address of {order} to {addr}.',
          '[Hi, |]{order} should go to a different address: {addr}.',
        ],
        { ...slots(), addr: addressRefText(r.address) },
      );
    case 'modify_pending_order_payment':
      return say(
        rng,
        [
          "I'd like to pay for {order} with {pay} instead.",
          'Can you switch the payment of {order} to {pay}?',
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
          'In {order} I want to {verb} {swaps}. [Please use|Put] {pay} for any price difference.',
          "I'd like to {verb} {swaps} in {order}, with {pay} for the difference.",
          '[About|Regarding] {order}: [can you|could you] {verb} {swaps}? {pay} [for any difference|can cover the difference].',
        ],
        { ...slots(), verb, swaps: swapsText(r, w) },
      );
    }
    case 'modify_user_address':
      return say(
        rng,
        [
          "I've moved. [Please update|Can you update] the default address on my account to {addr}?",
          'Can you change my profile address to {addr}?',
          'My address [has changed|is different now]; please set it to {addr}.',
        ],
        { addr: addressRefText(r.address) },
      );
    case 'return_delivered_order_items':
      return say(
        rng,
        [
          'I want to return {items} from {order}. [Please refund|The refund should go to] {pay}.',
          "I'd like to send back {items} from {order}, with the refund going to {pay}.",
          '[I need to|Can I] return {items} from {order}? {pay} for the refund[, please|].',
        ],
        { ...slots(), items: swapsText(r, w) },
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
      const s = { ...slots(), items: swapsText(r, w), reason: r.reason ?? 'no longer needed' };
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
      }
    }
  }
}

/** A request stated with only its intent (the agent must ask for the details). */
export function partialStatement(rng: Rng, r: RetailRequest): string {
  switch (r.kind) {
    case 'cancel_pending_order':
      return say(rng, [
        'I [want|need] to cancel an order.',
        '[Can you help me|I need help to] cancel an order?',
      ]);
    case 'modify_pending_order_address':
      return say(rng, [
        'I need to change the shipping address on an order.',
        'One of my orders should ship to a different address.',
      ]);
    case 'modify_pending_order_payment':
      return say(rng, [
        'I want to change how I pay for an order.',
        "I'd like to switch the payment method on one of my orders, so I pay differently.",
      ]);
    case 'modify_pending_order_items':
      return say(rng, [
        'I want to change [something|an item] in an order that has not shipped yet.',
        "I'd like to change [some items|a product] in one of my orders.",
      ]);
    case 'exchange_delivered_order_items':
      return say(rng, [
        'I [want|need] to exchange [something|an item] I received.',
        "I'd like to exchange [a product|something] from one of my orders.",
      ]);
    case 'modify_user_address':
      return say(rng, ['I need to update my address.', 'My address [changed|is different now].']);
    case 'return_delivered_order_items':
      return say(rng, [
        'I [want|need] to return [some items|something|a couple of things].',
        "I'd like to return [a few things|something] from an order.",
      ]);
    case 'information':
      return r.topic === 'order_total'
        ? say(rng, [
            'I want to know how much I paid for one of my orders.',
            'How much was I charged for an order?',
          ])
        : say(rng, [
            'I want to check the balance [on|of] my gift card.',
            'How much is left on my gift card?',
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

/** The identity details as the customer gives them. */
export function identityText(rng: Rng, user: UserRef, override?: { email?: string; zip?: string }): string {
  if (user.strategy === 'email') {
    const email = override?.email ?? user.email;
    return say(rng, ['my email is {e}', "it's {e}", 'the email is {e}', 'my account email is {e}'], {
      e: email,
    });
  }
  return say(
    rng,
    [
      "I'm {f} {l}, zip code {z}",
      'my name is {f} {l} and my zip code is {z}',
      '{f} {l}, zip {z}',
      "it's {f} {l}, zip code {z}",
    ],
    { f: user.first_name, l: user.last_name, z: override?.zip ?? user.zip },
  );
}

export function identify(rng: Rng, identity: string, forgotEmail: boolean): string {
  const lead = forgotEmail
    ? say(rng, [
        "I don't remember [which email I used|my email address], but",
        "I can't recall the email, sorry.",
        '[Hmm, |]not sure about the email, but',
      ])
    : say(rng, ['Sure,', 'Of course.', 'Yes,', 'Okay,', 'No problem:', '']);
  return say(rng, ['{lead} {id}.'], { lead, id: identity });
}

export function correctIdentity(rng: Rng, identity: string): string {
  return say(
    rng,
    [
      '[Oh, sorry|Oops|My mistake], [I mistyped it|that was a typo|I got that wrong]. {id}.',
      '[Sorry|Ah], let me try again: {id}.',
      'Hmm, try this: {id}.',
    ],
    { id: identity },
  );
}

export function yes(rng: Rng): string {
  return say(rng, [
    '[Yes|Yeah|Yep|Sure|Correct], [please go ahead|that is right|go ahead|do it|that works|sounds good|go for it|please proceed].',
    'Yes[, please|].',
    '[That is|That looks] correct[, go ahead|]. ',
    '[Okay|Ok], [go ahead|confirmed|please proceed].',
    'Yes, I confirm.',
    '[Perfect|Great], yes[, please do that|].',
  ]);
}

export function changeMind(rng: Rng, reject: boolean, what: string, field: 'payment' | 'reason'): string {
  const lead = reject
    ? say(rng, ["No, that's not quite right.", 'Hmm, no, wait.', "No, sorry, that's not what I want."])
    : say(rng, ["Actually, I've changed my mind.", 'Wait, on second thought,', 'Hold on, actually,']);
  const body =
    field === 'payment'
      ? say(rng, ["[Please use|Could you use|Let's use] {w} instead.", 'I would rather [use|go with] {w}.'], {
          w: what,
        })
      : say(rng, ['[Please put|Make] the reason "{w}" instead.', 'The reason should be "{w}".'], { w: what });
  return `${lead} ${body}`;
}

export function decline(rng: Rng, restated: string): string {
  return say(rng, ['No, that is not what I asked for. {r}', "No, that's wrong. {r}"], { r: restated });
}

export function thanks(rng: Rng): string {
  return say(rng, [
    'Thanks!',
    'Thank you.',
    'Great, thank you.',
    'Perfect.',
    'Great!',
    'Cool, thanks.',
    'Okay, good.',
    'Wonderful.',
  ]);
}

/** What leads into the next request after an acknowledgement ('' sometimes). */
export function connector(rng: Rng): string {
  return say(rng, [
    'There is one more thing.',
    'I also have another request.',
    'One more thing:',
    'Also,',
    'Next,',
    '',
    'While I have you,',
    'And',
  ]);
}

export function nudge(rng: Rng): string {
  return say(rng, [
    '[Thanks!|Great.|Perfect.] [And what about|Now, about|Can we do] the other thing I mentioned?',
    '[Thank you.|Good.] [What about|And] my other request?',
  ]);
}

export function acceptRefusal(rng: Rng): string {
  return say(rng, [
    'I see, that is a pity, but I understand.',
    'Oh, okay. I understand.',
    '[Hmm, |]okay, [fair enough|I get it|if that is the policy].',
    "That's disappointing, but fine.",
  ]);
}

export function pushBack(rng: Rng): string {
  return say(rng, [
    "[Really?|Are you sure?|Hmm.] [Can't you make an exception|Is there really nothing you can do][ this once|]? [I really need this.|It's important to me.|]",
    "Is there no way to make an exception? [I'm a regular customer.|It would help me a lot.]",
  ]);
}

export function askHuman(rng: Rng): string {
  return say(rng, [
    "Then I'd like to speak to a human agent, please.",
    'Can you transfer me to a human agent?',
    "[I'd rather|Let me] talk to a real person about this. Please transfer me to a human agent.",
  ]);
}

export function sideQuestion(rng: Rng, topic: string): string {
  return topic === 'products'
    ? say(rng, [
        '[Quick question|By the way|Out of curiosity]: what [kinds|types] of products do you [sell|carry]?',
        'Also, what [kinds|types] of products do you sell these days?',
      ])
    : say(rng, [
        '[By the way|Also|Quick question], how long does a refund [usually |]take?',
        'How long does it take for a refund to [come through|arrive|show up]?',
      ]);
}

export function afterSide(rng: Rng, next: string): string {
  return say(rng, ['[Good to know|Thanks for the info|Got it|Okay, thanks]. {n}'], { n: next });
}

export function stop(rng: Rng): string {
  return say(rng, [
    "That's everything, thank you! ###STOP###",
    '[Great|Perfect], that is all I needed. Thanks for your help. ###STOP###',
    "[No|Nope], that's it. [Thanks|Thank you][ so much|]! ###STOP###",
    "That's all for today, thanks! ###STOP###",
    'Nothing else, thank you[ for your help|]. ###STOP###',
    '[All good|I am all set] now. Bye! ###STOP###',
  ]);
}

export function transferred(): string {
  return '###TRANSFER###';
}

/** Answers to the agent's questions about one detail. */
export function answerOrder(rng: Rng, text: string): string {
  return say(rng, ["It's {o}.", '{o}.', 'The one [I mean is|I am talking about is] {o}.', '{o}, I think.'], {
    o: text,
  });
}

export function answerItems(rng: Rng, text: string): string {
  return say(rng, ["It's {i}.", '{i}.', 'I mean {i}.'], { i: text });
}

export function answerPayment(rng: Rng, ref: PaymentRef | string): string {
  const p = typeof ref === 'string' ? ref : paymentText(ref);
  return say(rng, ['[Please use|Use] {p}.', '{p}[, please|].', "Let's [use|go with] {p}."], { p });
}

export function answerAddress(rng: Rng, text: string): string {
  return say(rng, ['The address is {a}.', "It's {a}.", '{a}.'], { a: text });
}

export function answerReason(rng: Rng, reason: string): string {
  return say(rng, ["It's {r}.", '{r}.', 'The reason is: {r}.'], { r: reason });
}

export function answerReplacement(rng: Rng, text: string): string {
  return say(rng, ['I would like {t}.', '{t}, please.', 'I want {t}.'], { t: text });
}
