/**
 * Airline state in SQL: one table per entity of τ²'s airline data model (`tau2-spec.md` §4.1).
 *
 * - `pos` columns keep τ²'s dict and list order (output order, and the list-order-sensitive hash).
 * - A flight date's two time fields are `departure_time`/`arrival_time`; their field names follow from `status`.
 *   Seat counts and prices are JSON object text (an ordered `dict[cabin, int]`).
 * - Money columns have no type affinity (`ANY`), so a value keeps Python's int/float distinction.
 * - `total_baggages` and `nonfree_baggages` are JSON text: τ² assigns them raw (an agent's `2.0` or `"2"` is
 *   stored as such and changes τ²'s hash). `overrides` holds, as a JSON object, fields that a raw assignment
 *   left with a value of another type than the model's (`cabin`, `passengers`); it is null otherwise.
 */
export const AIRLINE_SCHEMA_SQL = `
CREATE TABLE flights (
  flight_number TEXT PRIMARY KEY,
  pos INTEGER NOT NULL,
  origin TEXT NOT NULL,
  destination TEXT NOT NULL,
  scheduled_departure_time_est TEXT NOT NULL,
  scheduled_arrival_time_est TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX flights_route ON flights(origin, destination);

CREATE TABLE flight_dates (
  flight_number TEXT NOT NULL REFERENCES flights(flight_number),
  date TEXT NOT NULL,
  pos INTEGER NOT NULL,
  status TEXT NOT NULL
    CHECK (status IN ('available', 'landed', 'cancelled', 'delayed', 'flying', 'on time')),
  departure_time TEXT,
  arrival_time TEXT,
  available_seats TEXT,
  prices TEXT,
  PRIMARY KEY (flight_number, date)
) STRICT, WITHOUT ROWID;

CREATE TABLE users (
  user_id TEXT PRIMARY KEY,
  pos INTEGER NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  address1 TEXT NOT NULL,
  address2 TEXT,
  city TEXT NOT NULL,
  country TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  email TEXT NOT NULL,
  dob TEXT NOT NULL,
  membership TEXT NOT NULL CHECK (membership IN ('gold', 'silver', 'regular'))
) STRICT, WITHOUT ROWID;

CREATE TABLE payment_methods (
  user_id TEXT NOT NULL REFERENCES users(user_id),
  id TEXT NOT NULL,
  pos INTEGER NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('credit_card', 'gift_card', 'certificate')),
  brand TEXT,
  last_four TEXT,
  amount ANY,
  PRIMARY KEY (user_id, id)
) STRICT, WITHOUT ROWID;

CREATE TABLE saved_passengers (
  user_id TEXT NOT NULL REFERENCES users(user_id),
  pos INTEGER NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  dob TEXT NOT NULL,
  PRIMARY KEY (user_id, pos)
) STRICT, WITHOUT ROWID;

CREATE TABLE user_reservations (
  user_id TEXT NOT NULL REFERENCES users(user_id),
  pos INTEGER NOT NULL,
  reservation_id TEXT NOT NULL,
  PRIMARY KEY (user_id, pos)
) STRICT, WITHOUT ROWID;

CREATE TABLE reservations (
  reservation_id TEXT PRIMARY KEY,
  pos INTEGER NOT NULL,
  user_id TEXT NOT NULL,
  origin TEXT NOT NULL,
  destination TEXT NOT NULL,
  flight_type TEXT NOT NULL,
  cabin TEXT NOT NULL,
  created_at TEXT NOT NULL,
  total_baggages TEXT NOT NULL,
  nonfree_baggages TEXT NOT NULL,
  insurance TEXT NOT NULL,
  status TEXT,
  overrides TEXT
) STRICT, WITHOUT ROWID;

CREATE TABLE reservation_flights (
  reservation_id TEXT NOT NULL REFERENCES reservations(reservation_id),
  pos INTEGER NOT NULL,
  flight_number TEXT NOT NULL,
  origin TEXT NOT NULL,
  destination TEXT NOT NULL,
  date TEXT NOT NULL,
  price ANY NOT NULL,
  PRIMARY KEY (reservation_id, pos)
) STRICT, WITHOUT ROWID;

CREATE TABLE reservation_passengers (
  reservation_id TEXT NOT NULL REFERENCES reservations(reservation_id),
  pos INTEGER NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  dob TEXT NOT NULL,
  PRIMARY KEY (reservation_id, pos)
) STRICT, WITHOUT ROWID;

CREATE TABLE reservation_payments (
  reservation_id TEXT NOT NULL REFERENCES reservations(reservation_id),
  pos INTEGER NOT NULL,
  payment_id TEXT NOT NULL,
  amount ANY NOT NULL,
  PRIMARY KEY (reservation_id, pos)
) STRICT, WITHOUT ROWID;
`;
