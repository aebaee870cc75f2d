import { ToolError } from '../../../core/errors.js';
import type { PyModel } from '../../../core/py-json.js';
import { pyJsonDumps } from '../../../core/py-json.js';
import { type PyValue, pyTypeName } from '../../../core/py-value.js';
import { pyDictKey } from '../../../env/py-ops.js';
import { type SqlConnection, text } from '../../../env/sql.js';
import type { ToolSpec } from '../../../env/tool.js';
import { orderDump, productDump, userDump, variantDump } from '../dump.js';
import { getItem } from '../lookups.js';
import { orderIdParam, stringParam, userIdParam } from './params.js';

/** The read-only retail tools (τ² `ToolType.READ`). */

/** An entity's dump by a raw key (`_get_order` & co.: unhashable keys raise, others just are not found). */
function found(
  dump: (sql: SqlConnection, key: string) => PyModel | undefined,
  sql: SqlConnection,
  key: PyValue,
  notFound: string,
): PyModel {
  const k = pyDictKey(key);
  const value = k === undefined ? undefined : dump(sql, k);
  if (value === undefined) throw new ToolError(notFound);
  return value;
}

/** Python's `value.lower()` on a raw argument. */
function pyLower(value: PyValue): string {
  if (typeof value !== 'string')
    throw new ToolError(`'${pyTypeName(value)}' object has no attribute 'lower'`);
  return value.toLowerCase();
}

export const findUserIdByNameZip: ToolSpec = {
  name: 'find_user_id_by_name_zip',
  kind: 'read',
  params: [
    stringParam('first_name', "The customer's first name, for example 'Jane'."),
    stringParam('last_name', "The customer's last name, for example 'Doe'."),
    stringParam('zip', "The zip code of the customer's default address, for example '12345'."),
  ],
  description:
    "Look up a customer's user id from first name, last name and zip code (names match without regard to case). " +
    'Prefer the email lookup; use this one when the customer cannot give an email.',
  run({ sql }, { first_name, last_name, zip }) {
    // τ² compares user by user: `u.first.lower() == first.lower() and u.last.lower() == last.lower() and u.zip == zip`
    if (sql.get('SELECT 1 FROM users LIMIT 1') === undefined) throw new ToolError('User not found');
    const first = pyLower(first_name ?? null);
    if (typeof last_name !== 'string') {
      if (sql.get('SELECT 1 FROM users WHERE first_name_lower = ? LIMIT 1', first) !== undefined) {
        pyLower(last_name ?? null);
      }
      throw new ToolError('User not found');
    }
    if (typeof zip !== 'string') throw new ToolError('User not found');
    const row = sql.get(
      `SELECT user_id FROM users WHERE zip = ? AND first_name_lower = ? AND last_name_lower = ?
       ORDER BY pos LIMIT 1`,
      zip,
      first,
      last_name.toLowerCase(),
    );
    if (row === undefined) throw new ToolError('User not found');
    return text(row, 'user_id');
  },
};

export const findUserIdByEmail: ToolSpec = {
  name: 'find_user_id_by_email',
  kind: 'read',
  params: [stringParam('email', "The customer's email address, for example 'jane.doe@example.com'.")],
  description: "Look up a customer's user id from their email address (matched without regard to case).",
  run({ sql }, { email }) {
    if (sql.get('SELECT 1 FROM users LIMIT 1') === undefined) throw new ToolError('User not found');
    const row = sql.get(
      'SELECT user_id FROM users WHERE email_lower = ? ORDER BY pos LIMIT 1',
      pyLower(email ?? null),
    );
    if (row === undefined) throw new ToolError('User not found');
    return text(row, 'user_id');
  },
};

export const getOrderDetails: ToolSpec = {
  name: 'get_order_details',
  kind: 'read',
  params: [orderIdParam],
  description: 'Show one order: status, items, shipping address, fulfillments and payment history.',
  run({ sql }, { order_id }) {
    // the dump itself tells whether the order exists (and is cached for unchanged orders)
    return found(orderDump, sql, order_id ?? null, 'Order not found');
  },
};

export const getProductDetails: ToolSpec = {
  name: 'get_product_details',
  kind: 'read',
  params: [
    stringParam(
      'product_id',
      "A product id, for example '6086499569'. Product ids and item ids are different things.",
    ),
  ],
  description: 'Show a product type with every variant item: its options, price and availability.',
  run({ sql }, { product_id }) {
    return found(productDump, sql, product_id ?? null, 'Product not found');
  },
};

export const getItemDetails: ToolSpec = {
  name: 'get_item_details',
  kind: 'read',
  params: [
    stringParam(
      'item_id',
      "An item id, for example '1008292230'. Item ids and product ids are different things.",
    ),
  ],
  description: 'Show one variant item: its options, price and availability.',
  run({ sql }, { item_id }) {
    return variantDump(getItem(sql, item_id ?? null));
  },
};

export const getUserDetails: ToolSpec = {
  name: 'get_user_details',
  kind: 'read',
  params: [userIdParam],
  description:
    "Show a customer's profile: name, default address, email, saved payment methods and order ids.",
  run({ sql }, { user_id }) {
    return found(userDump, sql, user_id ?? null, 'User not found');
  },
};

export const listAllProductTypes: ToolSpec = {
  name: 'list_all_product_types',
  kind: 'read',
  params: [],
  description:
    'List every product type in the store as a JSON object from product name to product id, sorted by name.',
  run({ sql }) {
    const byName = new Map<string, string>();
    for (const row of sql.all('SELECT name, product_id FROM products ORDER BY pos')) {
      byName.set(text(row, 'name'), text(row, 'product_id'));
    }
    return pyJsonDumps(byName, { sortKeys: true });
  },
};
