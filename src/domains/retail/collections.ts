import type { StateCollection } from '../../env/environment.js';
import { orderDump, productDump, userDump } from './dump.js';

/** Retail state collections in τ²'s `RetailDB` field order. */
export const RETAIL_COLLECTIONS: readonly StateCollection[] = [
  {
    name: 'products',
    table: 'products',
    key: 'product_id',
    children: [{ table: 'variants', key: 'product_id' }],
    dump: (sql, key) => productDump(sql, key),
  },
  {
    name: 'users',
    table: 'users',
    key: 'user_id',
    children: [
      { table: 'payment_methods', key: 'user_id' },
      { table: 'user_orders', key: 'user_id' },
    ],
    dump: (sql, key) => userDump(sql, key),
  },
  {
    name: 'orders',
    table: 'orders',
    key: 'order_id',
    children: [
      { table: 'order_items', key: 'order_id' },
      { table: 'fulfillments', key: 'order_id' },
      { table: 'payments', key: 'order_id' },
    ],
    dump: (sql, key, style) => orderDump(sql, key, style),
  },
];
