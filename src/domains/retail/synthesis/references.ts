import type {
  AddressView,
  OrderItemView,
  OrderView,
  PaymentMethodView,
  ProductView,
  UserView,
  VariantView,
} from './views.js';
import { sameAddress } from './views.js';

/**
 * Fuzzy references of the retail domain (CoVe's five strategies, docs/design.md §5) and how an agent resolves them
 * against what the read tools show. A reference is kept only when this resolution yields exactly the intended
 * entity, so the same functions serve the fuzzifier (uniqueness) and the oracle agent (resolution).
 */

/** Who the user is: an email, or first name + last name + zip (matched as τ²'s lookups do). */
export type UserRef =
  | { readonly strategy: 'email'; readonly email: string }
  | {
      readonly strategy: 'name_zip';
      readonly first_name: string;
      readonly last_name: string;
      readonly zip: string;
    };

/** An item as a user mentions it: a product name, optionally with some of its options. */
export interface ItemMention {
  readonly product_name: string;
  readonly options?: Readonly<Record<string, string>>;
}

/** One of the user's orders: its id, or a subset of its items (plus its status when needed). */
export type OrderRef =
  | { readonly strategy: 'id'; readonly order_id: string }
  | { readonly strategy: 'items'; readonly items: readonly ItemMention[]; readonly status?: string };

/** An item inside a known order: its id, its product name, or name + distinguishing options. */
export type ItemRef =
  | { readonly strategy: 'id'; readonly item_id: string }
  | { readonly strategy: 'name'; readonly product_name: string }
  | {
      readonly strategy: 'name_options';
      readonly product_name: string;
      readonly options: Readonly<Record<string, string>>;
    };

/**
 * The replacement variant for an item: its id; the options that change relative to the old item; the cheapest
 * available variant of the product that has some options (`cheapest`: "the cheapest one in blue"); or the variant
 * of the product the user got in another of their orders (`same_as_order`: "the same one as in my other order",
 * optionally "… as in my order with the <product>" when the user has several other orders with it).
 */
export type VariantRef =
  | { readonly strategy: 'id'; readonly item_id: string }
  | {
      readonly strategy: 'options';
      readonly product_name: string;
      readonly options: Readonly<Record<string, string>>;
    }
  | {
      readonly strategy: 'cheapest';
      readonly product_name: string;
      readonly options: Readonly<Record<string, string>>;
    }
  | { readonly strategy: 'same_as_order'; readonly product_name: string; readonly with_product?: string };

/** Where a replacement is resolved: the user's orders and the order the old item is in (for `same_as_order`). */
export interface VariantScope {
  readonly orders: readonly OrderView[];
  readonly orderId: string;
}

/** One of the user's payment methods. */
export type PaymentRef =
  | { readonly strategy: 'id'; readonly payment_method_id: string }
  | { readonly strategy: 'kind'; readonly source: PaymentMethodView['source'] }
  | { readonly strategy: 'brand'; readonly source: 'credit_card'; readonly brand: string }
  | { readonly strategy: 'last_four'; readonly source: 'credit_card'; readonly last_four: string }
  | { readonly strategy: 'original' };

/** A target address: spelled out, the user's default address, or the address of one of their orders in a city. */
export type AddressRef =
  | { readonly strategy: 'explicit'; readonly address: AddressView }
  | { readonly strategy: 'default' }
  | { readonly strategy: 'order_city'; readonly city: string };

function optionsMatch(
  options: Readonly<Record<string, string>>,
  wanted: Readonly<Record<string, string>> | undefined,
): boolean {
  if (wanted === undefined) return true;
  return Object.entries(wanted).every(([k, v]) => options[k] === v);
}

function mentionMatches(item: OrderItemView, mention: ItemMention): boolean {
  return item.name === mention.product_name && optionsMatch(item.options, mention.options);
}

/** True when distinct items of the order can be assigned to every mention (a multiset match). */
export function orderHasItems(order: OrderView, mentions: readonly ItemMention[]): boolean {
  const used = new Array<boolean>(order.items.length).fill(false);
  const assign = (i: number): boolean => {
    const mention = mentions[i];
    if (mention === undefined) return true;
    for (let j = 0; j < order.items.length; j++) {
      const item = order.items[j] as OrderItemView;
      if (!used[j] && mentionMatches(item, mention)) {
        used[j] = true;
        if (assign(i + 1)) return true;
        used[j] = false;
      }
    }
    return false;
  };
  return assign(0);
}

/** The user's orders that a reference matches. */
export function matchOrders(ref: OrderRef, orders: readonly OrderView[]): OrderView[] {
  if (ref.strategy === 'id') return orders.filter((o) => o.order_id === ref.order_id);
  return orders.filter(
    (o) => (ref.status === undefined || o.status === ref.status) && orderHasItems(o, ref.items),
  );
}

/** The distinct item ids of an order that a reference matches. */
export function matchItemIds(ref: ItemRef, order: OrderView): string[] {
  const hits = order.items.filter((it) =>
    ref.strategy === 'id'
      ? it.item_id === ref.item_id
      : it.name === ref.product_name &&
        optionsMatch(it.options, ref.strategy === 'name_options' ? ref.options : undefined),
  );
  return [...new Set(hits.map((it) => it.item_id))];
}

/**
 * The variants of the old item's product that a replacement reference matches. `cheapest`: the available
 * variants with the options, at their lowest price (the old item included, so a description whose cheapest is
 * the old item matches two); `same_as_order`: the distinct variants of the product, other than the old item, in
 * the user's other orders (those holding `with_product` when given).
 */
export function matchVariants(
  ref: VariantRef,
  oldItem: OrderItemView,
  product: ProductView,
  scope?: VariantScope,
): VariantView[] {
  const variants = Object.values(product.variants);
  if (ref.strategy === 'id') return variants.filter((v) => v.item_id === ref.item_id);
  if (ref.strategy === 'cheapest') {
    const offered = variants.filter((v) => v.available && optionsMatch(v.options, ref.options));
    const lowest = Math.min(...offered.map((v) => v.price));
    return offered.filter((v) => v.price === lowest);
  }
  if (ref.strategy === 'same_as_order') {
    const ids = new Set<string>();
    for (const o of scope?.orders ?? []) {
      if (o.order_id === scope?.orderId) continue;
      if (ref.with_product !== undefined && !o.items.some((it) => it.name === ref.with_product)) continue;
      for (const it of o.items)
        if (it.product_id === product.product_id && it.item_id !== oldItem.item_id) ids.add(it.item_id);
    }
    return variants.filter((v) => ids.has(v.item_id));
  }
  const wanted = { ...oldItem.options, ...ref.options };
  return variants.filter(
    (v) =>
      Object.keys(v.options).length === Object.keys(wanted).length &&
      Object.entries(wanted).every(([k, val]) => v.options[k] === val),
  );
}

/** The user's payment methods that a reference matches (`original`: the order's first payment's method). */
export function matchPayments(ref: PaymentRef, user: UserView, order?: OrderView): PaymentMethodView[] {
  const methods = Object.values(user.payment_methods);
  switch (ref.strategy) {
    case 'id':
      return methods.filter((m) => m.id === ref.payment_method_id);
    case 'kind':
      return methods.filter((m) => m.source === ref.source);
    case 'brand':
      return methods.filter(
        (m) => m.source === 'credit_card' && m.brand?.toLowerCase() === ref.brand.toLowerCase(),
      );
    case 'last_four':
      return methods.filter((m) => m.source === 'credit_card' && m.last_four === ref.last_four);
    case 'original': {
      const first = order?.payment_history[0]?.payment_method_id;
      return methods.filter((m) => m.id === first);
    }
  }
}

/** The distinct addresses a reference matches (`order_city`: addresses of the user's orders in that city). */
export function matchAddresses(ref: AddressRef, user: UserView, orders: readonly OrderView[]): AddressView[] {
  if (ref.strategy === 'explicit') return [ref.address];
  if (ref.strategy === 'default') return [user.address];
  const out: AddressView[] = [];
  for (const o of orders) {
    if (o.address.city === ref.city && !out.some((a) => sameAddress(a, o.address))) out.push(o.address);
  }
  return out;
}

/** The ids a reference names outright (so that texts can be checked for leaks). */
export function idsOf(ref: OrderRef | ItemRef | VariantRef | PaymentRef): string[] {
  switch (ref.strategy) {
    case 'id':
      return ['order_id' in ref ? ref.order_id : 'item_id' in ref ? ref.item_id : ref.payment_method_id];
    default:
      return [];
  }
}
