import type { AddressRef, ItemRef, OrderRef, PaymentRef, VariantRef } from '../synthesis/references.js';
import type { RetailRequest } from '../synthesis/requests.js';

/**
 * Whether a text (lower-cased) mentions a reference or a request, as the scripted roles read each other's
 * messages: the customer checks a proposal against its request, the oracle agent checks which details the
 * customer has given so far (docs/conversations.md). Matching is by the words of the descriptions (product names,
 * option values, card brand, last four digits, address lines), never by ids the customer did not use.
 */

const VERBS: Record<string, RegExp> = {
  cancel_pending_order: /cancel/,
  modify_pending_order_address: /address/,
  modify_pending_order_payment: /pay/,
  modify_pending_order_items: /(change|modify|swap|replace)/,
  modify_user_address: /address/,
  return_delivered_order_items: /return/,
  exchange_delivered_order_items: /exchange/,
};

export function mentions(text: string, value: string): boolean {
  return text.includes(value.toLowerCase());
}

export function orderMentioned(text: string, ref: OrderRef): boolean {
  return ref.strategy === 'id'
    ? mentions(text, ref.order_id)
    : ref.items.every((m) => mentions(text, m.product_name));
}

export function itemMentioned(text: string, ref: ItemRef): boolean {
  if (ref.strategy === 'id') return mentions(text, ref.item_id);
  const options = ref.strategy === 'name_options' ? Object.values(ref.options) : [];
  return mentions(text, ref.product_name) && options.every((v) => mentions(text, v));
}

/**
 * Whether a text names a replacement: its id, its options, "cheapest" and the options asked for, or "same" and
 * "other order" (and the other order's product when the reference names one).
 */
export function replacementMentioned(text: string, ref: VariantRef): boolean {
  switch (ref.strategy) {
    case 'id':
      return mentions(text, ref.item_id);
    case 'options':
      return Object.values(ref.options).every((v) => mentions(text, v));
    case 'cheapest':
      return mentions(text, 'cheapest') && Object.values(ref.options).every((v) => mentions(text, v));
    case 'same_as_order':
      return (
        mentions(text, 'same') &&
        mentions(text, 'other order') &&
        (ref.with_product === undefined || mentions(text, ref.with_product))
      );
  }
}

/** The words by which a text names a payment reference (lower-cased). */
export function paymentMarker(ref: PaymentRef): string {
  switch (ref.strategy) {
    case 'id':
      return ref.payment_method_id.toLowerCase();
    case 'kind':
      return ref.source === 'credit_card'
        ? 'credit card'
        : ref.source === 'gift_card'
          ? 'gift card'
          : 'paypal';
    case 'brand':
      return ref.brand.toLowerCase();
    case 'last_four':
      return ref.last_four;
    case 'original':
      return 'original';
  }
}

export function paymentMentioned(text: string, ref: PaymentRef): boolean {
  return text.includes(paymentMarker(ref));
}

export function addressMentioned(text: string, ref: AddressRef): boolean {
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

/** The words a customer uses for each kind of request (one of them appears in every way the customer asks). */
const INTENTS: Record<string, RegExp> = {
  cancel_pending_order: /\bcancel\b/,
  modify_pending_order_address: /\b(address|ship|send|deliver)/,
  modify_pending_order_payment: /\b(pay|payment)\b/,
  modify_pending_order_items: /\b(change|swap|switch|modify)\b/,
  modify_user_address: /\baddress\b/,
  return_delivered_order_items: /\b(return|send back|sending back)\b/,
  exchange_delivered_order_items: /\bexchange\b/,
  order_total: /\b(how much|total|paid|charged?)\b/,
  gift_card_balance: /\b(balance|left on)\b/,
  cancel: /\bcancel\b/,
  return: /\b(return|send back)\b/,
  exchange: /\bexchange\b/,
  modify_address: /\b(address|send)\b/,
  exchange_other_product: /\bexchange\b/,
  refund_other_method: /\b(return|refund)\b/,
  second_item_change: /\b(change|swap|switch|modify)\b/,
  'other_users_order:cancel': /\bcancel\b/,
  'other_users_order:status': /\bstatus\b/,
};

/** The intent word pattern of a request. */
export function intentOf(request: RetailRequest): RegExp {
  const key =
    request.kind === 'information'
      ? request.topic
      : request.kind === 'refusal'
        ? request.action === 'other_users_order'
          ? `${request.action}:${request.about}`
          : request.action
        : request.kind;
  return INTENTS[key] as RegExp;
}

/** Whether `text` states the request in full: its intent word and its main reference. */
export function requestStated(request: RetailRequest, text: string): boolean {
  if (!intentOf(request).test(text)) return false;
  if ('order' in request) return orderMentioned(text, request.order);
  if ('payment' in request) return paymentMentioned(text, request.payment);
  if ('address' in request) return addressMentioned(text, request.address);
  return true;
}
