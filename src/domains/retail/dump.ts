import type { PyModel } from '../../core/py-json.js';
import { parsePyJson } from '../../core/py-json-parse.js';
import type { PyDict } from '../../core/py-value.js';
import type { DumpStyle } from '../../env/environment.js';
import { num, numOrNull, type SqlConnection, type SqlRow, text, textOrNull } from '../../env/sql.js';

/**
 * Retail entities rebuilt from SQL rows as τ² model dumps (field order = model order). `model_dump` style keeps
 * every field (what tools return and hashes see); `file` style omits null optionals, as τ²'s db.json does.
 */

export function addressOf(row: SqlRow): PyModel {
  return {
    address1: text(row, 'address1'),
    address2: text(row, 'address2'),
    city: text(row, 'city'),
    country: text(row, 'country'),
    state: text(row, 'state'),
    zip: text(row, 'zip'),
  };
}

/** Parses an options column (JSON object text) into an ordered dict. */
export function optionsOf(row: SqlRow, column = 'options'): PyDict {
  return parsePyJson(text(row, column)) as PyDict;
}

function listOrNull(row: SqlRow, column: string): string[] | null {
  const v = textOrNull(row, column);
  return v === null ? null : (parsePyJson(v) as string[]);
}

/** A `Variant` dump from a `variants` row. */
export function variantDump(row: SqlRow): PyModel {
  return {
    item_id: text(row, 'item_id'),
    options: optionsOf(row),
    available: row.available === 1n || row.available === 1,
    price: num(row, 'price'),
  };
}

/** A `Product` dump, or undefined. */
export function productDump(sql: SqlConnection, productId: string): PyModel | undefined {
  return sql.cachedEntity(`products\u0000${productId}`, 'dump', () => productDumpUncached(sql, productId));
}

function productDumpUncached(sql: SqlConnection, productId: string): PyModel | undefined {
  const p = sql.get('SELECT product_id, name FROM products WHERE product_id = ?', productId);
  if (p === undefined) return undefined;
  const variants = new Map<string, PyModel>();
  for (const v of sql.all('SELECT * FROM variants WHERE product_id = ? ORDER BY pos', productId)) {
    variants.set(text(v, 'item_id'), variantDump(v));
  }
  return { name: text(p, 'name'), product_id: text(p, 'product_id'), variants };
}

/** A payment method dump (its fields depend on `source`). */
export function paymentMethodDump(row: SqlRow): PyModel {
  const source = text(row, 'source');
  const id = text(row, 'id');
  if (source === 'credit_card') {
    return { source, id, brand: text(row, 'brand'), last_four: text(row, 'last_four') };
  }
  if (source === 'gift_card') return { source, id, balance: num(row, 'balance') };
  return { source, id };
}

/** A `User` dump, or undefined. */
export function userDump(sql: SqlConnection, userId: string): PyModel | undefined {
  return sql.cachedEntity(`users\u0000${userId}`, 'dump', () => userDumpUncached(sql, userId));
}

function userDumpUncached(sql: SqlConnection, userId: string): PyModel | undefined {
  const u = sql.get('SELECT * FROM users WHERE user_id = ?', userId);
  if (u === undefined) return undefined;
  const methods = new Map<string, PyModel>();
  for (const m of sql.all('SELECT * FROM payment_methods WHERE user_id = ? ORDER BY pos', userId)) {
    methods.set(text(m, 'id'), paymentMethodDump(m));
  }
  const orders = sql.all('SELECT order_id FROM user_orders WHERE user_id = ? ORDER BY pos', userId);
  return {
    user_id: text(u, 'user_id'),
    name: { first_name: text(u, 'first_name'), last_name: text(u, 'last_name') },
    address: addressOf(u),
    email: text(u, 'email'),
    payment_methods: methods,
    orders: orders.map((r) => text(r, 'order_id')),
  };
}

const OPTIONAL_ORDER_FIELDS = [
  'cancel_reason',
  'exchange_items',
  'exchange_new_items',
  'exchange_payment_method_id',
  'exchange_price_difference',
  'return_items',
  'return_payment_method_id',
] as const;

/** An `Order` dump, or undefined. */
export function orderDump(
  sql: SqlConnection,
  orderId: string,
  style: DumpStyle = 'model_dump',
): PyModel | undefined {
  return sql.cachedEntity(`orders\u0000${orderId}`, style, () => orderDumpUncached(sql, orderId, style));
}

function orderDumpUncached(sql: SqlConnection, orderId: string, style: DumpStyle): PyModel | undefined {
  const o = sql.get('SELECT * FROM orders WHERE order_id = ?', orderId);
  if (o === undefined) return undefined;
  const items = sql.all('SELECT * FROM order_items WHERE order_id = ? ORDER BY pos', orderId).map((r) => ({
    name: text(r, 'name'),
    product_id: text(r, 'product_id'),
    item_id: text(r, 'item_id'),
    price: num(r, 'price'),
    options: optionsOf(r),
  }));
  const fulfillments = sql
    .all('SELECT * FROM fulfillments WHERE order_id = ? ORDER BY pos', orderId)
    .map((r) => ({
      tracking_id: parsePyJson(text(r, 'tracking_ids')) as string[],
      item_ids: parsePyJson(text(r, 'item_ids')) as string[],
    }));
  const payments = sql.all('SELECT * FROM payments WHERE order_id = ? ORDER BY pos', orderId).map((r) => ({
    transaction_type: text(r, 'transaction_type'),
    amount: num(r, 'amount'),
    payment_method_id: text(r, 'payment_method_id'),
  }));
  const optional: Record<(typeof OPTIONAL_ORDER_FIELDS)[number], PyModel[string]> = {
    cancel_reason: textOrNull(o, 'cancel_reason'),
    exchange_items: listOrNull(o, 'exchange_items'),
    exchange_new_items: listOrNull(o, 'exchange_new_items'),
    exchange_payment_method_id: textOrNull(o, 'exchange_payment_method_id'),
    exchange_price_difference: numOrNull(o, 'exchange_price_difference'),
    return_items: listOrNull(o, 'return_items'),
    return_payment_method_id: textOrNull(o, 'return_payment_method_id'),
  };
  const dump: Record<string, PyModel[string]> = {
    order_id: text(o, 'order_id'),
    user_id: text(o, 'user_id'),
    address: addressOf(o),
    items,
    status: text(o, 'status'),
    fulfillments,
    payment_history: payments,
  };
  for (const field of OPTIONAL_ORDER_FIELDS) {
    if (style === 'model_dump' || optional[field] !== null) dump[field] = optional[field];
  }
  return dump;
}
