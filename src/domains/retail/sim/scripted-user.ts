import type { Rng } from '../../../core/rng.js';
import type { UserSimulator, UserTurn, VisibleMessage } from '../../../sim/roles.js';
import { addressRefText, itemText, orderText, paymentText, variantText } from '../synthesis/phrases.js';
import type { AddressRef, ItemRef, OrderRef, PaymentRef, VariantRef } from '../synthesis/references.js';
import type { ItemSwap, RetailFuzz, RetailRequest } from '../synthesis/requests.js';
import { ACCEPT_REFUSAL, askFor, identify, opening, STOP, THANKS_NEXT, YES } from './user-texts.js';

/**
 * The scripted customer of the retail domain: plays the task from its fuzzy requests with seeded template
 * language. It states one request at a time; answers identity questions with its email or name + zip; says yes
 * to a proposed change only when the proposal mentions what it asked for (action, items, options, payment,
 * address), and no otherwise; accepts refusals and information answers; and ends with `###STOP###` only after
 * the agent reports the last request done — never in the same turn as a confirmation (tau2-bench pitfall D22).
 *
 * Limits: it recognises the agent's intent from keywords, so with an LLM agent it is a best-effort partner for
 * smoke tests, not a faithful customer.
 */
export class RetailScriptedUser implements UserSimulator {
  readonly #fuzz: RetailFuzz;
  readonly #rng: Rng;
  #request = 0;
  #identified = false;
  #confirmed = false;
  #turns = 0;

  constructor(fuzz: RetailFuzz, rng: Rng) {
    this.#fuzz = fuzz;
    this.#rng = rng;
  }

  async respond(visible: readonly VisibleMessage[]): Promise<UserTurn> {
    this.#turns++;
    return { content: this.#reply(visible[visible.length - 1]?.content ?? '') };
  }

  #current(): RetailRequest | undefined {
    return this.#fuzz.requests[this.#request];
  }

  /** Moves to the next request: its opening line, or the stop message when none is left. */
  #advance(prefix: string): string {
    this.#request++;
    this.#confirmed = false;
    const next = this.#current();
    return next === undefined ? this.#rng.pick(STOP) : `${prefix} ${askFor(this.#rng, next)}`;
  }

  #reply(agent: string): string {
    const request = this.#current();
    if (request === undefined || this.#turns > 6 + 10 * this.#fuzz.requests.length)
      return this.#rng.pick(STOP);
    if (this.#turns === 1) {
      const early = this.#rng.chance(0.3);
      this.#identified = early;
      return opening(this.#rng, askFor(this.#rng, request), early ? this.#fuzz.user : undefined);
    }
    const text = agent.toLowerCase();
    if (!this.#identified && /(e-?mail|zip|identity|verify|authenticat)/.test(text)) {
      this.#identified = true;
      return identify(this.#rng, this.#fuzz.user);
    }
    const isWrite = request.kind !== 'information' && request.kind !== 'refusal';
    if (
      isWrite &&
      !this.#confirmed &&
      /(\(yes\/no\)|yes or no|proceed|go ahead|confirm|shall i)/.test(text)
    ) {
      if (proposalMatches(request, text)) {
        this.#confirmed = true;
        return this.#rng.pick(YES);
      }
      return `No, that is not what I asked for. ${askFor(this.#rng, request)}`;
    }
    if (
      isWrite &&
      this.#confirmed &&
      /(done|has been|have been|is now|all set|requested|updated|cancelled)/.test(text)
    ) {
      return this.#advance(this.#rng.pick(THANKS_NEXT));
    }
    if (
      request.kind === 'refusal' &&
      /(sorry|unfortunately|cannot|can't|unable|not possible|only)/.test(text)
    ) {
      return this.#advance(this.#rng.pick(ACCEPT_REFUSAL));
    }
    if (request.kind === 'information' && /\$?\d+\.\d{1,2}\b/.test(text)) {
      return this.#advance(this.#rng.pick(THANKS_NEXT));
    }
    const answer = text.includes('?') ? answerQuestion(this.#rng, request, text) : undefined;
    if (answer !== undefined) return answer;
    return (
      this.#rng.pick(['Let me repeat what I need:', 'To be clear:', 'Sorry if I was unclear.']) +
      ` ${askFor(this.#rng, request)}`
    );
  }
}

/**
 * A direct answer to an agent's question about one part of the request (which payment method, which address,
 * which items, which order), from the fuzzy descriptions; `undefined` when the question is about something else.
 */
function answerQuestion(rng: Rng, request: RetailRequest, text: string): string | undefined {
  const r = request as Partial<{
    payment: PaymentRef;
    address: AddressRef;
    items: readonly (ItemRef | ItemSwap)[];
    order: OrderRef;
  }>;
  if (r.payment !== undefined && /(payment|pay with|card|refund)/.test(text))
    return `Please use ${paymentText(r.payment)}.`;
  if (r.address !== undefined && /(address|ship)/.test(text))
    return `The address is ${addressRefText(r.address)}.`;
  if (r.items !== undefined && /(item|which one|option|size|color|colour)/.test(text)) {
    const parts = r.items.map((x) =>
      'replacement' in x ? `${itemText(x.item)} for ${variantText(x.replacement)}` : itemText(x),
    );
    return `It's ${parts.join(' and ')}.`;
  }
  if (r.order !== undefined && /order/.test(text)) return `It's ${orderText(rng, r.order)}.`;
  return undefined;
}

const VERBS: Record<string, RegExp> = {
  cancel_pending_order: /cancel/,
  modify_pending_order_address: /address/,
  modify_pending_order_payment: /pay/,
  modify_pending_order_items: /(change|modify|swap|replace)/,
  modify_user_address: /address/,
  return_delivered_order_items: /return/,
  exchange_delivered_order_items: /exchange/,
};

function mentions(text: string, value: string): boolean {
  return text.includes(value.toLowerCase());
}

function orderMentioned(text: string, ref: OrderRef): boolean {
  return ref.strategy === 'id'
    ? mentions(text, ref.order_id)
    : ref.items.every((m) => mentions(text, m.product_name));
}

function itemMentioned(text: string, ref: ItemRef): boolean {
  if (ref.strategy === 'id') return mentions(text, ref.item_id);
  const options = ref.strategy === 'name_options' ? Object.values(ref.options) : [];
  return mentions(text, ref.product_name) && options.every((v) => mentions(text, v));
}

function replacementMentioned(text: string, ref: VariantRef): boolean {
  return ref.strategy === 'id'
    ? mentions(text, ref.item_id)
    : Object.values(ref.options).every((v) => mentions(text, v));
}

function paymentMentioned(text: string, ref: PaymentRef): boolean {
  switch (ref.strategy) {
    case 'id':
      return mentions(text, ref.payment_method_id);
    case 'kind':
      return mentions(
        text,
        ref.source === 'credit_card' ? 'credit card' : ref.source === 'gift_card' ? 'gift card' : 'paypal',
      );
    case 'brand':
      return mentions(text, ref.brand);
    case 'last_four':
      return mentions(text, ref.last_four);
    case 'original':
      return mentions(text, 'original');
  }
}

function addressMentioned(text: string, ref: AddressRef): boolean {
  if (ref.strategy === 'explicit')
    return mentions(text, ref.address.address1) && mentions(text, ref.address.zip);
  return ref.strategy === 'order_city' ? mentions(text, ref.city) : true;
}

/** Whether a proposal (the agent's confirmation text, lower-cased) matches the customer's request. */
export function proposalMatches(request: RetailRequest, text: string): boolean {
  const verb = VERBS[request.kind];
  if (verb !== undefined && !verb.test(text)) return false;
  switch (request.kind) {
    case 'cancel_pending_order':
      return orderMentioned(text, request.order) && mentions(text, request.reason);
    case 'modify_pending_order_address':
      return orderMentioned(text, request.order) && addressMentioned(text, request.address);
    case 'modify_pending_order_payment':
      return orderMentioned(text, request.order) && paymentMentioned(text, request.payment);
    case 'modify_pending_order_items':
    case 'exchange_delivered_order_items':
      return (
        orderMentioned(text, request.order) &&
        request.items.every(
          (s) => itemMentioned(text, s.item) && replacementMentioned(text, s.replacement),
        ) &&
        paymentMentioned(text, request.payment)
      );
    case 'modify_user_address':
      return addressMentioned(text, request.address);
    case 'return_delivered_order_items':
      return (
        orderMentioned(text, request.order) &&
        request.items.every((i) => itemMentioned(text, i)) &&
        paymentMentioned(text, request.payment)
      );
    default:
      return false;
  }
}
