import { ToolError } from '../../../core/errors.js';
import { pyRound } from '../../../core/py-float.js';
import { pyDictKey, pyInStrSet, pyStrModel } from '../../../env/py-ops.js';
import { type SqlConnection, text } from '../../../env/sql.js';
import type { ToolSpec } from '../../../env/tool.js';
import { orderDump, userDump } from '../dump.js';
import {
  appendPayment,
  getOrder,
  getPaymentMethod,
  getUser,
  isGiftCard,
  money,
  setBalance,
} from '../lookups.js';
import { ADDRESS_FIELDS, CANCEL_REASONS } from '../vocabulary.js';
import { addressParams, orderIdParam, paymentMethodIdParam, stringParam, userIdParam } from './params.js';

/** Retail write tools on whole orders and on the user profile (τ²'s `domains/retail/tools.py`). */

/** Stores a validated `UserAddress` in the address columns of an order or a user. */
function setAddress(
  sql: SqlConnection,
  table: 'orders' | 'users',
  key: 'order_id' | 'user_id',
  id: string,
  a: Readonly<Record<string, string>>,
): void {
  sql.run(
    `UPDATE ${table} SET address1 = ?, address2 = ?, city = ?, country = ?, state = ?, zip = ? WHERE ${key} = ?`,
    a.address1 ?? '',
    a.address2 ?? '',
    a.city ?? '',
    a.country ?? '',
    a.state ?? '',
    a.zip ?? '',
    id,
  );
}

export const cancelPendingOrder: ToolSpec = {
  name: 'cancel_pending_order',
  kind: 'write',
  params: [
    orderIdParam,
    stringParam('reason', "Why the order is cancelled: exactly 'no longer needed' or 'ordered by mistake'."),
  ],
  description:
    'Cancel an order whose status is pending. Explain what will happen and get an explicit yes from the customer ' +
    'first. Every payment is refunded: at once to a gift card, otherwise within 5-7 business days. ' +
    'Returns the cancelled order.',
  run({ sql }, { order_id, reason }) {
    const order = getOrder(sql, order_id ?? null);
    const orderId = text(order, 'order_id');
    if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be cancelled');
    if (!pyInStrSet(reason ?? null, CANCEL_REASONS)) throw new ToolError('Invalid reason');
    const refunds: { amount: number; method: string }[] = [];
    for (const payment of sql.all('SELECT * FROM payments WHERE order_id = ? ORDER BY pos', orderId)) {
      const methodId = text(payment, 'payment_method_id');
      const amount = money(payment, 'amount');
      refunds.push({ amount, method: methodId });
      getUser(sql, text(order, 'user_id'));
      const method = getPaymentMethod(sql, text(order, 'user_id'), methodId);
      // τ² credits gift cards inside the loop: a later failure leaves earlier credits applied
      if (isGiftCard(method)) setBalance(sql, method, pyRound(money(method, 'balance') + amount, 2));
    }
    sql.run(
      "UPDATE orders SET status = 'cancelled', cancel_reason = ? WHERE order_id = ?",
      reason as string,
      orderId,
    );
    for (const r of refunds) appendPayment(sql, orderId, 'refund', r.amount, r.method);
    return orderDump(sql, orderId) ?? null;
  },
};

export const modifyPendingOrderAddress: ToolSpec = {
  name: 'modify_pending_order_address',
  kind: 'write',
  params: [orderIdParam, ...addressParams],
  description:
    'Change the shipping address of a pending order. Explain the change and get an explicit yes from the customer ' +
    'first. Returns the updated order.',
  run({ sql }, args) {
    const order = getOrder(sql, args.order_id ?? null);
    if (!text(order, 'status').includes('pending'))
      throw new ToolError('Non-pending order cannot be modified');
    const orderId = text(order, 'order_id');
    setAddress(sql, 'orders', 'order_id', orderId, pyStrModel('UserAddress', ADDRESS_FIELDS, args));
    return orderDump(sql, orderId) ?? null;
  },
};

export const modifyPendingOrderPayment: ToolSpec = {
  name: 'modify_pending_order_payment',
  kind: 'write',
  params: [orderIdParam, paymentMethodIdParam],
  description:
    'Pay for a pending order with a different saved payment method. The original payment is refunded. A gift card ' +
    'must cover the whole order. Explain the change and get an explicit yes first. Returns the updated order.',
  run({ sql }, { order_id, payment_method_id }) {
    const order = getOrder(sql, order_id ?? null);
    const orderId = text(order, 'order_id');
    const userId = text(order, 'user_id');
    if (!text(order, 'status').includes('pending'))
      throw new ToolError('Non-pending order cannot be modified');
    const method = getPaymentMethod(sql, userId, payment_method_id ?? null);
    const payments = sql.all('SELECT * FROM payments WHERE order_id = ? ORDER BY pos', orderId);
    const first = payments[0];
    if (payments.length !== 1 || first === undefined || first.transaction_type !== 'payment') {
      throw new ToolError('There should be exactly one payment for a pending order');
    }
    const oldMethodId = text(first, 'payment_method_id');
    const newMethodId = pyDictKey(payment_method_id ?? null) as string;
    if (oldMethodId === newMethodId) {
      throw new ToolError('The new payment method should be different from the current one');
    }
    const amount = money(first, 'amount');
    if (isGiftCard(method) && money(method, 'balance') < amount) {
      throw new ToolError('Insufficient gift card balance to pay for the order');
    }
    appendPayment(sql, orderId, 'payment', amount, newMethodId);
    appendPayment(sql, orderId, 'refund', amount, oldMethodId);
    if (isGiftCard(method)) setBalance(sql, method, pyRound(money(method, 'balance') - amount, 2));
    // looked up after the writes, as τ² does (a missing old method fails with the writes kept)
    const oldMethod = getPaymentMethod(sql, userId, oldMethodId);
    if (isGiftCard(oldMethod)) setBalance(sql, oldMethod, pyRound(money(oldMethod, 'balance') + amount, 2));
    return orderDump(sql, orderId) ?? null;
  },
};

export const modifyUserAddress: ToolSpec = {
  name: 'modify_user_address',
  kind: 'write',
  params: [userIdParam, ...addressParams],
  description:
    "Change a customer's default address. Explain the change and get an explicit yes first. Returns the updated " +
    'profile.',
  run({ sql }, args) {
    const userId = text(getUser(sql, args.user_id ?? null), 'user_id');
    setAddress(sql, 'users', 'user_id', userId, pyStrModel('UserAddress', ADDRESS_FIELDS, args));
    return userDump(sql, userId) ?? null;
  },
};
