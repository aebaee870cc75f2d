import type { Rng } from '../../../core/rng.js';
import type {
  AddressRef,
  ItemMention,
  ItemRef,
  OrderRef,
  PaymentRef,
  UserRef,
  VariantRef,
} from './references.js';
import type { AddressView } from './views.js';

/**
 * How a customer words fuzzy references, in cove's own phrasing. Several variants per reference kind; the
 * caller's seeded Rng picks one, so texts vary across tasks but not across runs.
 */

function optionText(options: Readonly<Record<string, string>>): string {
  return Object.entries(options)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

function article(name: string): string {
  if (/[^s]s$/i.test(name)) return name; // plural names: "sunglasses", "winter gloves"
  return /^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`;
}

export function mentionText(m: ItemMention): string {
  const base = article(m.product_name.toLowerCase());
  return m.options === undefined || Object.keys(m.options).length === 0
    ? base
    : `${base} (${optionText(m.options)})`;
}

function listText(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export function addressText(a: AddressView): string {
  return [a.address1, a.address2, a.city, `${a.state} ${a.zip}`, a.country]
    .filter((x) => x !== '')
    .join(', ');
}

export function orderText(rng: Rng, ref: OrderRef): string {
  if (ref.strategy === 'id') return `order ${ref.order_id}`;
  const items = listText(ref.items.map(mentionText));
  const status = ref.status === undefined ? '' : `${ref.status} `;
  return rng.pick([
    `my ${status}order with ${items}`,
    `the ${status}order that has ${items} in it`,
    `my ${status}order containing ${items}`,
  ]);
}

export function itemText(ref: ItemRef): string {
  switch (ref.strategy) {
    case 'id':
      return `item ${ref.item_id}`;
    case 'name':
      return `the ${ref.product_name.toLowerCase()}`;
    case 'name_options':
      return `the ${ref.product_name.toLowerCase()} (${optionText(ref.options)})`;
  }
}

export function variantText(ref: VariantRef): string {
  if (ref.strategy === 'id') return `item ${ref.item_id}`;
  return `the same ${ref.product_name.toLowerCase()} but with ${optionText(ref.options)}`;
}

export function paymentText(ref: PaymentRef): string {
  switch (ref.strategy) {
    case 'id':
      return `payment method ${ref.payment_method_id}`;
    case 'kind':
      return ref.source === 'paypal'
        ? 'my PayPal account'
        : ref.source === 'gift_card'
          ? 'my gift card'
          : 'my credit card';
    case 'brand':
      return `my ${ref.brand[0]?.toUpperCase() ?? ''}${ref.brand.slice(1)} credit card`;
    case 'last_four':
      return `my credit card ending in ${ref.last_four}`;
    case 'original':
      return 'the payment method I originally used';
  }
}

export function addressRefText(ref: AddressRef): string {
  switch (ref.strategy) {
    case 'explicit':
      return addressText(ref.address);
    case 'default':
      return 'my default address from my profile';
    case 'order_city':
      return `the address in ${ref.city} that I used for one of my earlier orders`;
  }
}

export function userText(ref: UserRef): string {
  return ref.strategy === 'email'
    ? `my email is ${ref.email}`
    : `I'm ${ref.first_name} ${ref.last_name}, zip code ${ref.zip}`;
}

/** `2 × item` grouping for repeated references. */
export function countedList<T>(items: readonly T[], text: (x: T) => string): string {
  const counts = new Map<string, number>();
  for (const x of items) counts.set(text(x), (counts.get(text(x)) ?? 0) + 1);
  return listText([...counts].map(([t, n]) => (n === 1 ? t : `${n} of ${t.replace(/^the /, '')}`)));
}

export { listText };
