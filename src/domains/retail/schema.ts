/**
 * Retail state in SQL: one table per entity of τ²'s retail data model (τ²'s `domains/retail/data_model.py`).
 *
 * - `pos` columns keep τ²'s dict and list order (it decides output order and the list-order-sensitive hash).
 * - Address fields are inline columns; option maps and id lists are JSON text (an ordered object or array).
 * - Money columns have no type affinity (`ANY`), so a value keeps Python's int/float distinction: τ² assigns some
 *   fields raw (e.g. `exchange_price_difference = round(0, 2)` stores the int `0`), and the hash sees it.
 */
export const RETAIL_SCHEMA_SQL = `
CREATE TABLE products (
  product_id TEXT PRIMARY KEY,
  pos INTEGER NOT NULL,
  name TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE variants (
  product_id TEXT NOT NULL REFERENCES products(product_id),
  item_id TEXT NOT NULL,
  pos INTEGER NOT NULL,
  options TEXT NOT NULL,
  available INTEGER NOT NULL,
  price ANY NOT NULL,
  PRIMARY KEY (product_id, item_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX variants_item ON variants(item_id);

CREATE TABLE users (
  user_id TEXT PRIMARY KEY,
  pos INTEGER NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  address1 TEXT NOT NULL,
  address2 TEXT NOT NULL,
  city TEXT NOT NULL,
  country TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  email TEXT NOT NULL,
  -- derived lookup keys (Python's str.lower()), not part of the model
  first_name_lower TEXT NOT NULL,
  last_name_lower TEXT NOT NULL,
  email_lower TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX users_email ON users(email_lower);
CREATE INDEX users_zip ON users(zip);

CREATE TABLE payment_methods (
  user_id TEXT NOT NULL REFERENCES users(user_id),
  id TEXT NOT NULL,
  pos INTEGER NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('credit_card', 'gift_card', 'paypal')),
  brand TEXT,
  last_four TEXT,
  balance ANY,
  PRIMARY KEY (user_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE user_orders (
  user_id TEXT NOT NULL REFERENCES users(user_id),
  pos INTEGER NOT NULL,
  order_id TEXT NOT NULL,
  PRIMARY KEY (user_id, pos)
) STRICT, WITHOUT ROWID;

CREATE TABLE orders (
  order_id TEXT PRIMARY KEY,
  pos INTEGER NOT NULL,
  user_id TEXT NOT NULL,
  address1 TEXT NOT NULL,
  address2 TEXT NOT NULL,
  city TEXT NOT NULL,
  country TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  status TEXT NOT NULL,
  cancel_reason TEXT,
  exchange_items TEXT,
  exchange_new_items TEXT,
  exchange_payment_method_id TEXT,
  exchange_price_difference ANY,
  return_items TEXT,
  return_payment_method_id TEXT
) STRICT, WITHOUT ROWID;
CREATE INDEX orders_user ON orders(user_id);

CREATE TABLE order_items (
  order_id TEXT NOT NULL REFERENCES orders(order_id),
  pos INTEGER NOT NULL,
  name TEXT NOT NULL,
  product_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  price ANY NOT NULL,
  options TEXT NOT NULL,
  PRIMARY KEY (order_id, pos)
) STRICT, WITHOUT ROWID;
CREATE INDEX order_items_item ON order_items(item_id);

CREATE TABLE fulfillments (
  order_id TEXT NOT NULL REFERENCES orders(order_id),
  pos INTEGER NOT NULL,
  tracking_ids TEXT NOT NULL,
  item_ids TEXT NOT NULL,
  PRIMARY KEY (order_id, pos)
) STRICT, WITHOUT ROWID;

CREATE TABLE payments (
  order_id TEXT NOT NULL REFERENCES orders(order_id),
  pos INTEGER NOT NULL,
  transaction_type TEXT NOT NULL,
  amount ANY NOT NULL,
  payment_method_id TEXT NOT NULL,
  PRIMARY KEY (order_id, pos)
) STRICT, WITHOUT ROWID;
`;
