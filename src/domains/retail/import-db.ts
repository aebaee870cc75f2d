import { InputFileError } from '../../core/errors.js';
import type { PyValue } from '../../core/py-value.js';
import { parseWith } from '../../core/schema-helpers.js';
import type { SqlConnection } from '../../env/sql.js';
import { listText, optionsText } from './column-text.js';
import { type RetailDb, retailDbSchema } from './data-model.js';

function checkKey(file: string, path: string, key: string, id: string, field: string): void {
  if (key !== id) throw new InputFileError(file, path, `dict key '${key}' differs from its ${field} '${id}'`);
}

/**
 * Validates a τ² retail `db.json` value and inserts it into the retail tables of `sql`.
 * @throws {InputFileError} naming `file` and the JSON path of the first problem.
 */
export function importRetailDb(sql: SqlConnection, value: PyValue, file: string): void {
  const db: RetailDb = parseWith(retailDbSchema, value, file);
  sql.exec('BEGIN');
  try {
    insertAll(sql, db, file);
    sql.exec('COMMIT');
  } catch (e) {
    sql.exec('ROLLBACK');
    throw e;
  }
}

function insertAll(sql: SqlConnection, db: RetailDb, file: string): void {
  let pos = 0;
  for (const [key, p] of db.products) {
    checkKey(file, `$.products[${JSON.stringify(key)}]`, key, p.product_id, 'product_id');
    sql.run('INSERT INTO products(product_id, pos, name) VALUES (?, ?, ?)', key, pos++, p.name);
    let vpos = 0;
    for (const [itemKey, v] of p.variants) {
      checkKey(
        file,
        `$.products[${JSON.stringify(key)}].variants[${JSON.stringify(itemKey)}]`,
        itemKey,
        v.item_id,
        'item_id',
      );
      sql.run(
        'INSERT INTO variants(product_id, item_id, pos, options, available, price) VALUES (?, ?, ?, ?, ?, ?)',
        key,
        itemKey,
        vpos++,
        optionsText(v.options),
        v.available ? 1 : 0,
        v.price,
      );
    }
  }
  pos = 0;
  for (const [key, u] of db.users) {
    checkKey(file, `$.users[${JSON.stringify(key)}]`, key, u.user_id, 'user_id');
    const a = u.address;
    sql.run(
      `INSERT INTO users(user_id, pos, first_name, last_name, address1, address2, city, country, state, zip, email,
         first_name_lower, last_name_lower, email_lower)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      key,
      pos++,
      u.name.first_name,
      u.name.last_name,
      a.address1,
      a.address2,
      a.city,
      a.country,
      a.state,
      a.zip,
      u.email,
      u.name.first_name.toLowerCase(),
      u.name.last_name.toLowerCase(),
      u.email.toLowerCase(),
    );
    let mpos = 0;
    for (const [pmKey, m] of u.payment_methods) {
      checkKey(
        file,
        `$.users[${JSON.stringify(key)}].payment_methods[${JSON.stringify(pmKey)}]`,
        pmKey,
        m.id,
        'id',
      );
      sql.run(
        'INSERT INTO payment_methods(user_id, id, pos, source, brand, last_four, balance) VALUES (?, ?, ?, ?, ?, ?, ?)',
        key,
        pmKey,
        mpos++,
        m.source,
        m.source === 'credit_card' ? m.brand : null,
        m.source === 'credit_card' ? m.last_four : null,
        m.source === 'gift_card' ? m.balance : null,
      );
    }
    u.orders.forEach((orderId, i) => {
      sql.run('INSERT INTO user_orders(user_id, pos, order_id) VALUES (?, ?, ?)', key, i, orderId);
    });
  }
  pos = 0;
  for (const [key, o] of db.orders) {
    checkKey(file, `$.orders[${JSON.stringify(key)}]`, key, o.order_id, 'order_id');
    const a = o.address;
    const list = (v: string[] | null | undefined) => (v === null || v === undefined ? null : listText(v));
    sql.run(
      `INSERT INTO orders(order_id, pos, user_id, address1, address2, city, country, state, zip, status,
         cancel_reason, exchange_items, exchange_new_items, exchange_payment_method_id, exchange_price_difference,
         return_items, return_payment_method_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      key,
      pos++,
      o.user_id,
      a.address1,
      a.address2,
      a.city,
      a.country,
      a.state,
      a.zip,
      o.status,
      o.cancel_reason ?? null,
      list(o.exchange_items),
      list(o.exchange_new_items),
      o.exchange_payment_method_id ?? null,
      o.exchange_price_difference ?? null,
      list(o.return_items),
      o.return_payment_method_id ?? null,
    );
    o.items.forEach((it, i) => {
      sql.run(
        'INSERT INTO order_items(order_id, pos, name, product_id, item_id, price, options) VALUES (?, ?, ?, ?, ?, ?, ?)',
        key,
        i,
        it.name,
        it.product_id,
        it.item_id,
        it.price,
        optionsText(it.options),
      );
    });
    o.fulfillments.forEach((f, i) => {
      sql.run(
        'INSERT INTO fulfillments(order_id, pos, tracking_ids, item_ids) VALUES (?, ?, ?, ?)',
        key,
        i,
        listText(f.tracking_id),
        listText(f.item_ids),
      );
    });
    o.payment_history.forEach((p, i) => {
      sql.run(
        'INSERT INTO payments(order_id, pos, transaction_type, amount, payment_method_id) VALUES (?, ?, ?, ?, ?)',
        key,
        i,
        p.transaction_type,
        p.amount,
        p.payment_method_id,
      );
    });
  }
}
