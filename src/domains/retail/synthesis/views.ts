import { toPyValue } from '../../../core/py-value.js';
import { parseSharedJson } from '../../../core/shared-json.js';
import type { Episode } from '../../../env/episode.js';

/**
 * What an agent learns from the retail read tools, as parsed JSON. Fuzzy descriptions are matched against these
 * views, so "unique" means unique for the lookups an agent can actually make.
 */

export interface AddressView {
  address1: string;
  address2: string;
  city: string;
  country: string;
  state: string;
  zip: string;
}

export interface PaymentMethodView {
  source: 'credit_card' | 'gift_card' | 'paypal';
  id: string;
  brand?: string;
  last_four?: string;
  balance?: number;
}

export interface UserView {
  user_id: string;
  name: { first_name: string; last_name: string };
  address: AddressView;
  email: string;
  payment_methods: Record<string, PaymentMethodView>;
  orders: string[];
}

export interface OrderItemView {
  name: string;
  product_id: string;
  item_id: string;
  price: number;
  options: Record<string, string>;
}

export interface OrderView {
  order_id: string;
  user_id: string;
  address: AddressView;
  items: OrderItemView[];
  status: string;
  fulfillments: { tracking_id: string[]; item_ids: string[] }[];
  payment_history: { transaction_type: string; amount: number; payment_method_id: string }[];
}

export interface VariantView {
  item_id: string;
  options: Record<string, string>;
  available: boolean;
  price: number;
}

export interface ProductView {
  name: string;
  product_id: string;
  variants: Record<string, VariantView>;
}

/** Reads the agent-visible view of entities by calling the read tools on an episode (no state change). */
export class ViewReader {
  readonly #episode: Episode;
  constructor(episode: Episode) {
    this.#episode = episode;
  }

  #read<T>(tool: string, args: Record<string, string>): T | undefined {
    const r = this.#episode.call(tool, toPyValue(args));
    return r.error ? undefined : (parseSharedJson(r.content) as T);
  }

  user(userId: string): UserView | undefined {
    return this.#read('get_user_details', { user_id: userId });
  }

  order(orderId: string): OrderView | undefined {
    return this.#read('get_order_details', { order_id: orderId });
  }

  product(productId: string): ProductView | undefined {
    return this.#read('get_product_details', { product_id: productId });
  }

  /** The orders of a user that exist, in the user's list order. */
  ordersOf(user: UserView): OrderView[] {
    return user.orders.map((id) => this.order(id)).filter((o): o is OrderView => o !== undefined);
  }
}

/** Two addresses are the same when all six fields are equal. */
export function sameAddress(a: AddressView, b: AddressView): boolean {
  return (
    a.address1 === b.address1 &&
    a.address2 === b.address2 &&
    a.city === b.city &&
    a.country === b.country &&
    a.state === b.state &&
    a.zip === b.zip
  );
}
