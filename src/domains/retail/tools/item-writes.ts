import { ToolError } from '../../../core/errors.js';
import { pyRound } from '../../../core/py-float.js';
import { comparePyStr, type PyValue, pyEquals } from '../../../core/py-value.js';
import { pyCount, pyDictKey, pyIter, pyLen, pySortedStrings, pyStr } from '../../../env/py-ops.js';
import { type SqlConnection, type SqlRow, text } from '../../../env/sql.js';
import type { Semantics, ToolSpec } from '../../../env/tool.js';
import { listText } from '../column-text.js';
import { orderDump } from '../dump.js';
import {
  appendPayment,
  getOrder,
  getPaymentMethod,
  getVariant,
  isGiftCard,
  money,
  orderItems,
  setBalance,
} from '../lookups.js';
import { itemIdsParam, newItemIdsParam, orderIdParam, paymentMethodIdParam } from './params.js';

/** Retail write tools on the items of an order (τ²'s `domains/retail/tools.py`). */

/** A Python number accumulated as τ² does: starts as the int 0, becomes a float on the first addition. */
type PyNumber = bigint | number;

/** τ²'s count check: every id may be asked for at most as often as the order holds it. */
function checkCounts(itemIds: PyValue, orderItemIds: string[], message: (id: PyValue) => string): void {
  for (const id of pyIter(itemIds)) {
    if (pyCount(itemIds, id) > pyCount(orderItemIds, id)) throw new ToolError(message(id));
  }
}

/** Pairs of `zip(item_ids, new_item_ids)`. */
function zipPairs(a: PyValue, b: PyValue): [PyValue, PyValue][] {
  const left = pyIter(a);
  const right = pyIter(b);
  return left.slice(0, right.length).map((x, i) => [x, right[i] as PyValue]);
}

function firstItem(items: SqlRow[], id: PyValue): SqlRow | undefined {
  return items.find((it) => pyEquals(text(it, 'item_id'), id));
}

export const exchangeDeliveredOrderItems: ToolSpec = {
  name: 'exchange_delivered_order_items',
  kind: 'write',
  params: [
    orderIdParam,
    itemIdsParam('Ids of the delivered items to exchange; list an id twice to exchange two identical items.'),
    newItemIdsParam(
      'Ids of the replacement items, position by position: each must be an available variant of the same product.',
    ),
    {
      ...paymentMethodIdParam,
      description: 'Saved payment method that pays or receives the price difference.',
    },
  ],
  description:
    'Exchange items of a delivered order for other variants of the same products. An order can be exchanged or ' +
    'returned only once, so collect every item first, then explain the exchange and get an explicit yes. ' +
    'Returns the updated order.',
  run({ sql }, { order_id, item_ids, new_item_ids, payment_method_id }) {
    const order = getOrder(sql, order_id ?? null);
    const orderId = text(order, 'order_id');
    if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be exchanged');
    const items = orderItems(sql, orderId);
    const oldIds = item_ids ?? null;
    const newIds = new_item_ids ?? null;
    checkCounts(
      oldIds,
      items.map((it) => text(it, 'item_id')),
      (id) => `Number of ${pyStr(id)} not found.`,
    );
    if (pyLen(oldIds) !== pyLen(newIds))
      throw new ToolError('The number of items to be exchanged should match.');
    let { diff } = checkPairs(sql, items, zipPairs(oldIds, newIds), false);
    if (typeof diff === 'number') diff = pyRound(diff, 2);
    const method = getPaymentMethod(sql, text(order, 'user_id'), payment_method_id ?? null);
    if (isGiftCard(method) && money(method, 'balance') < Number(diff)) {
      throw new ToolError('Insufficient gift card balance to pay for the price difference');
    }
    sql.run(
      `UPDATE orders SET status = 'exchange requested', exchange_items = ?, exchange_new_items = ?,
         exchange_payment_method_id = ?, exchange_price_difference = ? WHERE order_id = ?`,
      listText(pySortedStrings(oldIds)),
      listText(pySortedStrings(newIds)),
      text(method, 'id'),
      diff,
      orderId,
    );
    return orderDump(sql, orderId) ?? null;
  },
};

export const returnDeliveredOrderItems: ToolSpec = {
  name: 'return_delivered_order_items',
  kind: 'write',
  params: [
    orderIdParam,
    itemIdsParam('Ids of the delivered items to return; list an id twice to return two identical items.'),
    {
      ...paymentMethodIdParam,
      description: 'Where the refund goes: the original payment method of the order, or any saved gift card.',
    },
  ],
  description:
    'Request the return of items of a delivered order. The refund goes to the original payment method or to a ' +
    'gift card; the customer receives return instructions by email. Explain the return and get an explicit yes ' +
    'first. Returns the updated order.',
  run({ sql }, { order_id, item_ids, payment_method_id }) {
    const order = getOrder(sql, order_id ?? null);
    const orderId = text(order, 'order_id');
    if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be returned');
    const method = getPaymentMethod(sql, text(order, 'user_id'), payment_method_id ?? null);
    if (!isGiftCard(method)) {
      const first = sql.get('SELECT payment_method_id FROM payments WHERE order_id = ? AND pos = 0', orderId);
      if (first === undefined) throw new ToolError('list index out of range');
      if (text(method, 'id') !== text(first, 'payment_method_id')) {
        throw new ToolError('Payment method should be the original payment method');
      }
    }
    const ids = item_ids ?? null;
    checkCounts(
      ids,
      orderItems(sql, orderId).map((it) => text(it, 'item_id')),
      () => 'Some item not found',
    );
    sql.run(
      `UPDATE orders SET status = 'return requested', return_items = ?, return_payment_method_id = ?
       WHERE order_id = ?`,
      listText(pySortedStrings(ids)),
      text(method, 'id'),
      orderId,
    );
    return orderDump(sql, orderId) ?? null;
  },
};

/** One checked (old item, new variant) pair of a modification. */
interface CheckedPair {
  readonly oldId: PyValue;
  readonly newId: string;
  readonly variant: SqlRow;
}

/**
 * τ²'s per-pair checks of exchange and modify-items, in order: (modify only) the new id must differ, the old
 * item must be in the order, the new one an available variant of the same product; the price difference is
 * summed unrounded, starting from the int 0.
 */
function checkPairs(
  sql: SqlConnection,
  items: SqlRow[],
  pairs: [PyValue, PyValue][],
  rejectSame: boolean,
): { diff: PyNumber; checked: CheckedPair[] } {
  let diff: PyNumber = 0n;
  const checked: CheckedPair[] = [];
  for (const [oldId, newId] of pairs) {
    if (rejectSame && pyEquals(oldId, newId))
      throw new ToolError('The new item id should be different from the old item id');
    const item = firstItem(items, oldId);
    if (item === undefined) throw new ToolError(`Item ${pyStr(oldId)} not found`);
    const variant = getVariant(sql, text(item, 'product_id'), newId);
    if (variant.available !== 1n) throw new ToolError(`New item ${pyStr(newId)} not found or available`);
    diff = Number(diff) + (money(variant, 'price') - money(item, 'price'));
    checked.push({ oldId, newId: pyDictKey(newId) as string, variant });
  }
  return { diff, checked };
}

/** `fixed` semantics: pairs in a canonical order, so the outcome does not depend on how the agent listed them. */
function canonicalOrder(pairs: [PyValue, PyValue][], semantics: Semantics): [PyValue, PyValue][] {
  if (semantics === 'parity') return pairs;
  const key = (v: PyValue) => (typeof v === 'string' ? v : pyStr(v));
  return [...pairs].sort((a, b) => comparePyStr(key(a[0]), key(b[0])) || comparePyStr(key(a[1]), key(b[1])));
}

function applyModification(
  sql: SqlConnection,
  orderId: string,
  checked: CheckedPair[],
  semantics: Semantics,
): void {
  const items = orderItems(sql, orderId).map((row) => ({
    row,
    itemId: text(row, 'item_id'),
    variant: undefined as SqlRow | undefined,
  }));
  const last = checked[checked.length - 1];
  for (const pair of checked) {
    const item = items.find((it) => pyEquals(it.itemId, pair.oldId));
    if (item === undefined) throw new ToolError(`Item ${pyStr(pair.oldId)} not found`);
    item.itemId = pair.newId;
    // τ² (parity) gives every modified item the price and options of the LAST checked variant (issue #318)
    item.variant = semantics === 'parity' ? last?.variant : pair.variant;
  }
  for (const it of items) {
    if (it.variant === undefined) continue;
    sql.run(
      'UPDATE order_items SET item_id = ?, price = ?, options = ? WHERE order_id = ? AND pos = ?',
      it.itemId,
      money(it.variant, 'price'),
      text(it.variant, 'options'),
      orderId,
      it.row.pos ?? null,
    );
  }
}

export const modifyPendingOrderItems: ToolSpec = {
  name: 'modify_pending_order_items',
  kind: 'write',
  params: [
    orderIdParam,
    itemIdsParam('Ids of the items to change; list an id twice to change two identical items.'),
    newItemIdsParam(
      'Ids of the new items, position by position: each must be an available variant of the same product.',
    ),
    {
      ...paymentMethodIdParam,
      description: 'Saved payment method that pays or receives the price difference.',
    },
  ],
  description:
    'Swap items of a pending order for other variants of the same products. This can be done only once per ' +
    'order, so collect every item first, then explain the change and get an explicit yes. Returns the updated order.',
  run({ sql, semantics }, { order_id, item_ids, new_item_ids, payment_method_id }) {
    const order = getOrder(sql, order_id ?? null);
    const orderId = text(order, 'order_id');
    if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be modified');
    const items = orderItems(sql, orderId);
    const oldIds = item_ids ?? null;
    const newIds = new_item_ids ?? null;
    checkCounts(
      oldIds,
      items.map((it) => text(it, 'item_id')),
      (id) => `${pyStr(id)} not found`,
    );
    if (pyLen(oldIds) !== pyLen(newIds))
      throw new ToolError('The number of items to be exchanged should match');
    const { diff, checked } = checkPairs(
      sql,
      items,
      canonicalOrder(zipPairs(oldIds, newIds), semantics),
      true,
    );
    const method = getPaymentMethod(sql, text(order, 'user_id'), payment_method_id ?? null);
    if (isGiftCard(method) && money(method, 'balance') < Number(diff)) {
      throw new ToolError('Insufficient gift card balance to pay for the new item');
    }
    const amount = Math.abs(Number(diff)); // OrderPayment(amount=abs(diff)) makes it a float, 0 → 0.0
    appendPayment(sql, orderId, diff > 0 ? 'payment' : 'refund', amount, text(method, 'id'));
    if (isGiftCard(method)) setBalance(sql, method, pyRound(money(method, 'balance') - Number(diff), 2));
    applyModification(sql, orderId, checked, semantics);
    sql.run("UPDATE orders SET status = 'pending (item modified)' WHERE order_id = ?", orderId);
    return orderDump(sql, orderId) ?? null;
  },
};
