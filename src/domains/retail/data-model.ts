import { z } from 'zod';
import { model, pyDictOf, pyFloat } from '../../core/schema-helpers.js';
import { CANCEL_REASONS, ORDER_STATUSES } from './vocabulary.js';

/**
 * τ² retail data model (`src/tau2/domains/retail/data_model.py`; τ²'s `domains/retail/data_model.py`) as zod schemas over
 * Python values. Field order here is τ²'s model order, which is the JSON output order.
 */

export { ADDRESS_FIELDS, CANCEL_REASONS, ORDER_STATUSES, type OrderStatus } from './vocabulary.js';

export const addressSchema = model(
  z.object({
    address1: z.string(),
    address2: z.string(),
    city: z.string(),
    country: z.string(),
    state: z.string(),
    zip: z.string(),
  }),
);
export type Address = z.output<typeof addressSchema>;

export const variantSchema = model(
  z.object({
    item_id: z.string(),
    options: pyDictOf(z.string()),
    available: z.boolean(),
    price: pyFloat,
  }),
);

export const productSchema = model(
  z.object({ name: z.string(), product_id: z.string(), variants: pyDictOf(variantSchema) }),
);

const paymentMethodSchema = model(
  z.discriminatedUnion('source', [
    z.object({ source: z.literal('credit_card'), id: z.string(), brand: z.string(), last_four: z.string() }),
    z.object({ source: z.literal('gift_card'), id: z.string(), balance: pyFloat }),
    z.object({ source: z.literal('paypal'), id: z.string() }),
  ]),
);
export type PaymentMethod = z.output<typeof paymentMethodSchema>;

export const userSchema = model(
  z.object({
    user_id: z.string(),
    name: model(z.object({ first_name: z.string(), last_name: z.string() })),
    address: addressSchema,
    email: z.string(),
    payment_methods: pyDictOf(paymentMethodSchema),
    orders: z.array(z.string()),
  }),
);

const orderItemSchema = model(
  z.object({
    name: z.string(),
    product_id: z.string(),
    item_id: z.string(),
    price: pyFloat,
    options: pyDictOf(z.string()),
  }),
);

export const orderSchema = model(
  z.object({
    order_id: z.string(),
    user_id: z.string(),
    address: addressSchema,
    items: z.array(orderItemSchema),
    status: z.enum(ORDER_STATUSES),
    fulfillments: z.array(
      model(z.object({ tracking_id: z.array(z.string()), item_ids: z.array(z.string()) })),
    ),
    payment_history: z.array(
      model(
        z.object({
          transaction_type: z.enum(['payment', 'refund']),
          amount: pyFloat,
          payment_method_id: z.string(),
        }),
      ),
    ),
    cancel_reason: z.enum(CANCEL_REASONS).nullable().optional(),
    exchange_items: z.array(z.string()).nullable().optional(),
    exchange_new_items: z.array(z.string()).nullable().optional(),
    exchange_payment_method_id: z.string().nullable().optional(),
    exchange_price_difference: pyFloat.nullable().optional(),
    return_items: z.array(z.string()).nullable().optional(),
    return_payment_method_id: z.string().nullable().optional(),
  }),
);
export type Order = z.output<typeof orderSchema>;

/** The whole retail DB (`RetailDB`, `extra="forbid"` at the top level). */
export const retailDbSchema = model(
  z.strictObject({
    products: pyDictOf(productSchema),
    users: pyDictOf(userSchema),
    orders: pyDictOf(orderSchema),
  }),
);
export type RetailDb = z.output<typeof retailDbSchema>;
