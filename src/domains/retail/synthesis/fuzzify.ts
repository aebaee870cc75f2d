import type { Rng } from '../../../core/rng.js';
import {
  type AddressRef,
  type ItemMention,
  type ItemRef,
  matchAddresses,
  matchItemIds,
  matchOrders,
  matchPayments,
  matchVariants,
  type OrderRef,
  type PaymentRef,
  type UserRef,
  type VariantRef,
} from './references.js';
import type { AddressView, OrderItemView, OrderView, ProductView, UserView, VariantView } from './views.js';
import { sameAddress } from './views.js';

/**
 * CoVe's fuzzification for retail (seed paper; docs/design.md §5): each id becomes a description that the agent's
 * own lookups resolve to exactly the intended entity, in every state where the agent may resolve it (the
 * initial state and the state just before the request is handled). Returns `undefined` when no fuzzy
 * description is unique, so the sampler draws again.
 */

/** What the agent can see in one state: the user's profile and orders, and products on demand. */
export interface UserState {
  readonly user: UserView;
  readonly orders: readonly OrderView[];
  product(productId: string): ProductView | undefined;
}

/** Bookkeeping shared by all references of one task. */
export class FuzzContext {
  readonly strategies: string[] = [];
  readonly hidden = new Set<string>();
  readonly #rng: Rng;
  readonly #level: 0 | 1 | 2;
  /** States in which every description must be unique (initial first, then the current one). */
  states: readonly UserState[] = [];

  constructor(rng: Rng, level: 0 | 1 | 2) {
    this.#rng = rng;
    this.#level = level;
  }

  get rng(): Rng {
    return this.#rng;
  }

  /** Whether this reference is fuzzified (level 2: always, 0: never, 1: a seeded coin flip). */
  fuzzy(): boolean {
    return this.#level === 2 || (this.#level === 1 && this.#rng.chance(0.5));
  }

  note(reference: string, strategy: string, ...hiddenIds: string[]): void {
    this.strategies.push(`${reference}:${strategy}`);
    for (const id of hiddenIds) this.hidden.add(id);
  }
}

function subsets<T>(items: readonly T[], size: number): T[][] {
  if (size === 0) return [[]];
  const out: T[][] = [];
  items.forEach((item, i) => {
    for (const rest of subsets(items.slice(i + 1), size - 1)) out.push([item, ...rest]);
  });
  return out;
}

/** Describes the user: email or name + zip, whichever the seed picks (both must be unique). */
export function describeUser(
  context: FuzzContext,
  user: UserView,
  allUsers: readonly UserView[],
): UserRef | undefined {
  const byEmail = allUsers.filter((u) => u.email.toLowerCase() === user.email.toLowerCase()).length === 1;
  const byName =
    allUsers.filter(
      (u) =>
        u.name.first_name.toLowerCase() === user.name.first_name.toLowerCase() &&
        u.name.last_name.toLowerCase() === user.name.last_name.toLowerCase() &&
        u.address.zip === user.address.zip,
    ).length === 1;
  const options: UserRef[] = [];
  if (byEmail) options.push({ strategy: 'email', email: user.email });
  if (byName) {
    options.push({
      strategy: 'name_zip',
      first_name: user.name.first_name,
      last_name: user.name.last_name,
      zip: user.address.zip,
    });
  }
  if (options.length === 0) return undefined;
  const ref = context.rng.pick(options);
  context.note('user', ref.strategy, user.user_id);
  return ref;
}

function uniqueOrder(context: FuzzContext, ref: OrderRef, orderId: string): boolean {
  return context.states.every((s) => {
    const hits = matchOrders(ref, s.orders);
    return hits.length === 1 && hits[0]?.order_id === orderId;
  });
}

/** Describes an order by a subset of its items (names first, then with options, then with its status). */
export function describeOrder(context: FuzzContext, order: OrderView): OrderRef | undefined {
  if (!context.fuzzy()) {
    context.note('order', 'id');
    return { strategy: 'id', order_id: order.order_id };
  }
  const maxSize = Math.min(3, order.items.length);
  for (let size = 1; size <= maxSize; size++) {
    const combos = context.rng.shuffle(subsets(order.items, size));
    for (const withOptions of [false, true]) {
      for (const withStatus of [false, true]) {
        for (const combo of combos) {
          const items: ItemMention[] = combo.map((it) =>
            withOptions ? { product_name: it.name, options: { ...it.options } } : { product_name: it.name },
          );
          const ref: OrderRef = withStatus
            ? { strategy: 'items', items, status: order.status }
            : { strategy: 'items', items };
          if (uniqueOrder(context, ref, order.order_id)) {
            context.note(
              'order',
              withStatus ? 'items+status' : withOptions ? 'items+options' : 'items',
              order.order_id,
            );
            return ref;
          }
        }
      }
    }
  }
  return undefined;
}

/** Describes an item of an order by its product name, adding the fewest options that tell it apart. */
export function describeItem(
  context: FuzzContext,
  order: OrderView,
  item: OrderItemView,
): ItemRef | undefined {
  if (!context.fuzzy()) {
    context.note('item', 'id');
    return { strategy: 'id', item_id: item.item_id };
  }
  const unique = (ref: ItemRef) => {
    const hits = matchItemIds(ref, order);
    return hits.length === 1 && hits[0] === item.item_id;
  };
  const byName: ItemRef = { strategy: 'name', product_name: item.name };
  if (unique(byName)) {
    context.note('item', 'name', item.item_id);
    return byName;
  }
  const keys = Object.keys(item.options);
  for (let size = 1; size <= keys.length; size++) {
    for (const subset of context.rng.shuffle(subsets(keys, size))) {
      const options = Object.fromEntries(subset.map((k) => [k, item.options[k] as string]));
      const ref: ItemRef = { strategy: 'name_options', product_name: item.name, options };
      if (unique(ref)) {
        context.note('item', 'name+options', item.item_id);
        return ref;
      }
    }
  }
  return undefined;
}

/**
 * Describes a replacement variant: by the options that change relative to the old item, or now and then (when
 * unique) as the cheapest available variant with one or two of its options, or as the same variant the user got
 * in another order (issue 13: requests the agent resolves with the product's or the other order's details).
 * `orderId`: the order the old item is in.
 */
export function describeVariant(
  context: FuzzContext,
  oldItem: OrderItemView,
  newItemId: string,
  product: ProductView,
  orderId: string,
): VariantRef | undefined {
  if (!context.fuzzy()) {
    context.note('variant', 'id');
    return { strategy: 'id', item_id: newItemId };
  }
  const target = product.variants[newItemId];
  if (target === undefined) return undefined;
  const unique = (ref: VariantRef) =>
    context.states.every((s) => {
      const hits = matchVariants(ref, oldItem, product, { orders: s.orders, orderId });
      return hits.length === 1 && hits[0]?.item_id === newItemId;
    });
  const changed = Object.fromEntries(
    Object.entries(target.options).filter(([k, v]) => oldItem.options[k] !== v),
  );
  const byOptions: VariantRef = { strategy: 'options', product_name: product.name, options: changed };
  const plain = unique(byOptions) ? byOptions : undefined;
  const same = sameAsOrderRef(context, product, unique);
  const cheapest = cheapestRef(context, target, product, unique);
  // a variant from another order is rare (the draw picks one half the time when the user has one), so it is
  // described that way more often than the cheapest one
  const ref =
    same !== undefined && context.rng.chance(0.6)
      ? same
      : cheapest !== undefined && (plain === undefined || context.rng.chance(0.2))
        ? cheapest
        : (plain ?? same ?? cheapest);
  if (ref === undefined) return undefined;
  context.note('variant', ref.strategy, newItemId);
  return ref;
}

/** "The cheapest available one with <options>": the fewest of the target's options that make it unique. */
function cheapestRef(
  context: FuzzContext,
  target: VariantView,
  product: ProductView,
  unique: (ref: VariantRef) => boolean,
): VariantRef | undefined {
  const keys = Object.keys(target.options);
  for (let size = 1; size <= Math.min(2, keys.length); size++) {
    for (const subset of context.rng.shuffle(subsets(keys, size))) {
      const options = Object.fromEntries(subset.map((k) => [k, target.options[k] as string]));
      const ref: VariantRef = { strategy: 'cheapest', product_name: product.name, options };
      if (unique(ref)) return ref;
    }
  }
  return undefined;
}

/** "The same one as in my other order", narrowed to "my order with the <product>" when needed. */
function sameAsOrderRef(
  context: FuzzContext,
  product: ProductView,
  unique: (ref: VariantRef) => boolean,
): VariantRef | undefined {
  const plain: VariantRef = { strategy: 'same_as_order', product_name: product.name };
  if (unique(plain)) return plain;
  const names = new Set<string>();
  for (const o of context.states[0]?.orders ?? [])
    if (o.items.some((it) => it.product_id === product.product_id))
      for (const it of o.items) if (it.product_id !== product.product_id) names.add(it.name);
  for (const name of context.rng.shuffle([...names].sort())) {
    const ref: VariantRef = { strategy: 'same_as_order', product_name: product.name, with_product: name };
    if (unique(ref)) return ref;
  }
  return undefined;
}

/** Describes a payment method: its kind, card brand, last four digits, or "the original one". */
export function describePayment(
  context: FuzzContext,
  methodId: string,
  order?: OrderView,
): PaymentRef | undefined {
  if (!context.fuzzy()) {
    context.note('payment', 'id');
    return { strategy: 'id', payment_method_id: methodId };
  }
  const first = context.states[0];
  const method = first?.user.payment_methods[methodId];
  if (method === undefined) return undefined;
  const candidates: PaymentRef[] = [{ strategy: 'kind', source: method.source }];
  if (method.source === 'credit_card' && method.brand !== undefined) {
    candidates.push({ strategy: 'brand', source: 'credit_card', brand: method.brand });
  }
  if (method.source === 'credit_card' && method.last_four !== undefined) {
    candidates.push({ strategy: 'last_four', source: 'credit_card', last_four: method.last_four });
  }
  if (order !== undefined) candidates.push({ strategy: 'original' });
  const valid = candidates.filter((ref) =>
    context.states.every((s) => {
      const o = order === undefined ? undefined : s.orders.find((x) => x.order_id === order.order_id);
      const hits = matchPayments(ref, s.user, o);
      return hits.length === 1 && hits[0]?.id === methodId;
    }),
  );
  if (valid.length === 0) return undefined;
  const ref = context.rng.pick(valid);
  context.note('payment', ref.strategy, methodId);
  return ref;
}

/**
 * Describes a target address: the user's default address, or "the address of one of my orders in <city>", when
 * that resolves to exactly this address; otherwise the address spelled out (addresses are not ids).
 */
export function describeAddress(
  context: FuzzContext,
  target: AddressView,
  current?: AddressView,
): AddressRef {
  const candidates: AddressRef[] = [];
  if (context.fuzzy()) {
    const fuzzy: AddressRef[] = [{ strategy: 'default' }, { strategy: 'order_city', city: target.city }];
    for (const ref of fuzzy) {
      const ok = context.states.every((s) => {
        const hits = matchAddresses(ref, s.user, s.orders);
        return hits.length === 1 && hits[0] !== undefined && sameAddress(hits[0], target);
      });
      if (ok && (current === undefined || !sameAddress(current, target))) candidates.push(ref);
    }
  }
  const ref =
    candidates.length > 0
      ? context.rng.pick(candidates)
      : ({ strategy: 'explicit', address: target } as const);
  context.note('address', ref.strategy);
  return ref;
}
