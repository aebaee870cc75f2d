import { ToolError } from '../../core/errors.js';
import type { PyValue } from '../../core/py-value.js';
import { pyDictKey } from '../../env/py-ops.js';
import { num, type SqlConnection, type SqlRow, text } from '../../env/sql.js';

/**
 * The private helpers of τ²'s `RetailTools` (`_get_order`, `_get_user`, …) over SQL, with the same failure
 * messages and the same behaviour for ill-typed keys (`unhashable type: 'list'`, or simply not found).
 */

export function getOrder(sql: SqlConnection, orderId: PyValue): SqlRow {
  const key = pyDictKey(orderId);
  const row = key === undefined ? undefined : sql.get('SELECT * FROM orders WHERE order_id = ?', key);
  if (row === undefined) throw new ToolError('Order not found');
  return row;
}

export function getUser(sql: SqlConnection, userId: PyValue): SqlRow {
  const key = pyDictKey(userId);
  const row = key === undefined ? undefined : sql.get('SELECT * FROM users WHERE user_id = ?', key);
  if (row === undefined) throw new ToolError('User not found');
  return row;
}

export function getProduct(sql: SqlConnection, productId: PyValue): SqlRow {
  const key = pyDictKey(productId);
  const row = key === undefined ? undefined : sql.get('SELECT * FROM products WHERE product_id = ?', key);
  if (row === undefined) throw new ToolError('Product not found');
  return row;
}

/** `_get_item`: the first product (in DB order) that has a variant with this item id. */
export function getItem(sql: SqlConnection, itemId: PyValue): SqlRow {
  const key = pyDictKey(itemId);
  const row =
    key === undefined
      ? undefined
      : sql.get(
          `SELECT v.* FROM variants v JOIN products p ON p.product_id = v.product_id
           WHERE v.item_id = ? ORDER BY p.pos LIMIT 1`,
          key,
        );
  if (row === undefined) throw new ToolError('Item not found');
  return row;
}

/** `_get_variant(product_id, variant_id)`: checks the product first, then `Variant not found`. */
export function getVariant(sql: SqlConnection, productId: PyValue, itemId: PyValue): SqlRow {
  const product = text(getProduct(sql, productId), 'product_id');
  const key = pyDictKey(itemId);
  const row =
    key === undefined
      ? undefined
      : sql.get('SELECT * FROM variants WHERE product_id = ? AND item_id = ?', product, key);
  if (row === undefined) throw new ToolError('Variant not found');
  return row;
}

/** `_get_payment_method(user_id, payment_method_id)`: checks the user first. */
export function getPaymentMethod(sql: SqlConnection, userId: PyValue, methodId: PyValue): SqlRow {
  const user = text(getUser(sql, userId), 'user_id');
  const key = pyDictKey(methodId);
  const row =
    key === undefined
      ? undefined
      : sql.get('SELECT * FROM payment_methods WHERE user_id = ? AND id = ?', user, key);
  if (row === undefined) throw new ToolError('Payment method not found');
  return row;
}

/** True for a gift card row (τ²'s `isinstance(payment_method, GiftCard)`). */
export function isGiftCard(method: SqlRow): boolean {
  return method.source === 'gift_card';
}

/** A numeric column as a JS number for arithmetic (retail money is always a float in τ²'s models). */
export function money(row: SqlRow, column: string): number {
  return Number(num(row, column));
}

/** Sets a gift card's balance. */
export function setBalance(sql: SqlConnection, method: SqlRow, balance: number): void {
  sql.run(
    'UPDATE payment_methods SET balance = ? WHERE user_id = ? AND id = ?',
    balance,
    text(method, 'user_id'),
    text(method, 'id'),
  );
}

/** Appends a payment-history entry at the end of an order's list. */
export function appendPayment(
  sql: SqlConnection,
  orderId: string,
  transactionType: 'payment' | 'refund',
  amount: number,
  methodId: string,
): void {
  sql.run(
    `INSERT INTO payments(order_id, pos, transaction_type, amount, payment_method_id)
     VALUES (?, (SELECT COALESCE(MAX(pos), -1) + 1 FROM payments WHERE order_id = ?), ?, ?, ?)`,
    orderId,
    orderId,
    transactionType,
    amount,
    methodId,
  );
}

/** The items of an order in list order. */
export function orderItems(sql: SqlConnection, orderId: string): SqlRow[] {
  return sql.all('SELECT * FROM order_items WHERE order_id = ? ORDER BY pos', orderId);
}
