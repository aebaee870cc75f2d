import type { Rng } from '../../../core/rng.js';
import { moneyText } from '../../../tasks/communicate.js';
import { addressText } from '../synthesis/phrases.js';
import type { AddressView, OrderItemView, OrderView, PaymentMethodView } from '../synthesis/views.js';

/**
 * What the oracle agent says, in cove's own words, with seeded variation. Confirmations spell out ids and the
 * details a customer recognises (product names, options, payment method, address), so the customer can check
 * the proposal against what they asked for.
 */

/** A dollar amount that contains Python's `str(round(x, 2))` (what τ²'s communicate check looks for). */
export function dollars(x: number): string {
  const fixed = Math.abs(x).toFixed(2);
  const text = fixed.includes(moneyText(Math.abs(x))) ? fixed : moneyText(Math.abs(x));
  return `$${text}`;
}

function optionText(options: Readonly<Record<string, string>>): string {
  return Object.entries(options)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

export function itemDescription(item: {
  name: string;
  item_id: string;
  options: Readonly<Record<string, string>>;
}): string {
  return `the ${item.name.toLowerCase()} (${optionText(item.options)}; item ${item.item_id})`;
}

export function orderSummary(order: OrderView): string {
  const names = order.items.map((i) => i.name.toLowerCase());
  return `order ${order.order_id} (${names.join(', ')})`;
}

export function methodText(method: PaymentMethodView, original = false): string {
  const base =
    method.source === 'credit_card'
      ? `your ${method.brand === undefined ? '' : `${method.brand[0]?.toUpperCase()}${method.brand.slice(1)} `}credit card ending in ${method.last_four ?? '????'} (${method.id})`
      : method.source === 'gift_card'
        ? `your gift card (${method.id})`
        : `your PayPal account (${method.id})`;
  return original ? `${base}, the original payment method` : base;
}

export function ask(rng: Rng): string {
  return rng.pick([
    'Shall I go ahead? (yes/no)',
    'Do you want me to proceed? (yes/no)',
    'Can you confirm (yes/no)?',
  ]);
}

export function anythingElse(rng: Rng): string {
  return rng.pick(['Is there anything else I can help you with?', 'Can I help you with anything else?']);
}

export const askIdentity = (rng: Rng): string =>
  rng.pick([
    'I can help with that. First I need to verify your identity: could you give me the email address on your account, or your first name, last name and zip code?',
    'Happy to help. Before we start, please tell me your email address, or your full name and zip code, so I can find your account.',
  ]);

export function swapLines(
  pairs: readonly [
    OrderItemView,
    { item_id: string; options: Readonly<Record<string, string>>; price: number },
  ][],
): string {
  return pairs
    .map(
      ([old, neu]) =>
        `${itemDescription(old)} → the ${old.name.toLowerCase()} (${optionText(neu.options)}; item ${neu.item_id}, ${dollars(neu.price)})`,
    )
    .join('; ');
}

export function differenceText(diff: number, method: string): string {
  if (Math.abs(diff) < 0.005) return `There is no price difference; ${method} is kept on record for it.`;
  return diff > 0
    ? `You will pay the difference of ${dollars(diff)} with ${method}.`
    : `The difference of ${dollars(diff)} will be refunded to ${method}.`;
}

export function addressLine(a: AddressView): string {
  return addressText(a);
}
