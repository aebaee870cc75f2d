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

/** Options as "color blue, size M"; with an Rng, sometimes "blue color, M size", "color: blue" or just "blue, M". */
function optionText(options: Readonly<Record<string, string>>, rng?: Rng): string {
  const entries = Object.entries(options);
  const bare = entries.every(([, v]) => !/^(yes|no|none|true|false)$/i.test(v));
  const style = rng === undefined ? 0 : rng.int(0, bare ? 3 : 2);
  return entries
    .map(([k, v]) => (style === 1 ? `${v} ${k}` : style === 2 ? `${k}: ${v}` : style === 3 ? v : `${k} ${v}`))
    .join(', ');
}

function article(name: string): string {
  if (/[^s]s$/i.test(name)) return name; // plural names: "sunglasses", "winter gloves"
  return /^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`;
}

export function mentionText(m: ItemMention, rng?: Rng): string {
  const base = article(m.product_name.toLowerCase());
  return m.options === undefined || Object.keys(m.options).length === 0
    ? base
    : `${base} (${optionText(m.options, rng)})`;
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
  const items = listText(ref.items.map((m) => mentionText(m, rng)));
  const status = ref.status === undefined ? '' : `${ref.status} `;
  return rng.pick([
    `my ${status}order with ${items}`,
    `the ${status}order that has ${items} in it`,
    `my ${status}order containing ${items}`,
    `the ${status}order where I got ${items}`,
    `the ${status}order I placed for ${items}`,
    `my ${status}order that included ${items}`,
  ]);
}

/** An item of an order as the customer names it (with an Rng, in one of several wordings). */
export function itemText(ref: ItemRef, rng?: Rng): string {
  switch (ref.strategy) {
    case 'id':
      return `item ${ref.item_id}`;
    case 'name': {
      const name = ref.product_name.toLowerCase();
      return rng === undefined ? `the ${name}` : rng.pick([`the ${name}`, `the ${name}`, `my ${name}`]);
    }
    case 'name_options': {
      const name = ref.product_name.toLowerCase();
      const opts = optionText(ref.options, rng);
      if (rng === undefined) return `the ${name} (${opts})`;
      return rng.pick([
        `the ${name} (${opts})`,
        `the ${name} in ${opts}`,
        `the ${name} with ${opts}`,
        `my ${name} (${opts})`,
      ]);
    }
  }
}

/**
 * The replacement variant as the customer asks for it. A cheapest variant's wording always says "cheapest" and
 * its option values; a variant from another order always says "same" and "other order" (and the other order's
 * product when it narrows the order down): the agent listens for those words.
 */
export function variantText(ref: VariantRef, rng?: Rng): string {
  if (ref.strategy === 'id') return `item ${ref.item_id}`;
  const name = ref.product_name.toLowerCase();
  const one = (xs: string[]) => (rng === undefined ? (xs[0] as string) : rng.pick(xs));
  if (ref.strategy === 'cheapest') {
    const opts = optionText(ref.options, rng);
    return one([
      `the cheapest available ${name} with ${opts}`,
      `whichever ${name} with ${opts} is the cheapest`,
      `the cheapest one with ${opts} you have`,
      `the cheapest ${opts} option that is in stock`,
    ]);
  }
  if (ref.strategy === 'same_as_order') {
    const other =
      ref.with_product === undefined ? '' : ` (the one with ${article(ref.with_product.toLowerCase())})`;
    return one([
      `the same ${name} as the one in my other order${other}`,
      `the same one I got in my other order${other}`,
      `exactly the same ${name} as in my other order${other}`,
    ]);
  }
  const opts = optionText(ref.options, rng);
  if (rng === undefined) return `the same ${name} but with ${opts}`;
  return rng.pick([
    `the same ${name} but with ${opts}`,
    `one with ${opts} instead`,
    `the ${name} in ${opts}`,
    `the version with ${opts}`,
    `${article(name)} with ${opts}`,
    `the same model with ${opts}`,
  ]);
}

/** A payment method as the customer names it (with an Rng, in one of several wordings keeping its key words). */
export function paymentText(ref: PaymentRef, rng?: Rng): string {
  const one = (xs: string[]) => (rng === undefined ? (xs[0] as string) : rng.pick(xs));
  switch (ref.strategy) {
    case 'id':
      return `payment method ${ref.payment_method_id}`;
    case 'kind':
      return ref.source === 'paypal'
        ? one(['my PayPal account', 'PayPal', 'my PayPal', 'the PayPal account'])
        : ref.source === 'gift_card'
          ? one(['my gift card', 'the gift card', 'my store gift card', 'the gift card on my account'])
          : one([
              'my credit card',
              'the credit card',
              'my credit card on file',
              'the credit card I have with you',
            ]);
    case 'brand': {
      const brand = `${ref.brand[0]?.toUpperCase() ?? ''}${ref.brand.slice(1)}`;
      return one([`my ${brand} credit card`, `my ${brand} card`, `the ${brand} card`, `my ${brand}`]);
    }
    case 'last_four':
      return one([
        `my credit card ending in ${ref.last_four}`,
        `the card ending in ${ref.last_four}`,
        `the card that ends with ${ref.last_four}`,
        `my card ending ${ref.last_four}`,
      ]);
    case 'original':
      return one([
        'the payment method I originally used',
        'the original payment method',
        'whatever I originally paid with',
        'the same method I originally paid with',
      ]);
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

/** `2 × item` grouping for repeated references (grouped by `key`, each group worded once by `text`). */
export function countedList<T>(
  items: readonly T[],
  text: (x: T) => string,
  key: (x: T) => string = text,
): string {
  const groups = new Map<string, { item: T; n: number }>();
  for (const x of items) {
    const g = groups.get(key(x));
    if (g === undefined) groups.set(key(x), { item: x, n: 1 });
    else g.n++;
  }
  return listText(
    [...groups.values()].map(({ item, n }) => {
      const t = text(item);
      return n === 1 ? t : `${n} of ${t.replace(/^(the|my) /, '')}`;
    }),
  );
}

export { listText };
