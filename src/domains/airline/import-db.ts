import { InputFileError, jsonPath } from '../../core/errors.js';
import type { PyValue } from '../../core/py-value.js';
import { parseWith } from '../../core/schema-helpers.js';
import type { SqlConnection } from '../../env/sql.js';
import { jsonText } from './column-text.js';
import { type AirlineDb, airlineDbSchema, type DateStatus } from './data-model.js';

function checkKey(file: string, path: string, key: string, id: string, field: string): void {
  if (key !== id) throw new InputFileError(file, path, `dict key '${key}' differs from its ${field} '${id}'`);
}

const at = (collection: string, key: string) => jsonPath(`$.${collection}`, key);

/**
 * Validates a τ² airline `db.json` value and inserts it into the airline tables of `sql`.
 * @throws {InputFileError} naming `file` and the JSON path of the first problem.
 */
export function importAirlineDb(sql: SqlConnection, value: PyValue, file: string): void {
  const db: AirlineDb = parseWith(airlineDbSchema, value, file);
  sql.exec('BEGIN');
  try {
    insertFlights(sql, db, file);
    insertUsers(sql, db, file);
    insertReservations(sql, db, file);
    sql.exec('COMMIT');
  } catch (e) {
    sql.exec('ROLLBACK');
    throw e;
  }
}

/** The two time fields of a date status, as stored in `departure_time` and `arrival_time`. */
function times(s: DateStatus): [string | null, string | null] {
  switch (s.status) {
    case 'landed':
      return [s.actual_departure_time_est, s.actual_arrival_time_est];
    case 'flying':
      return [s.actual_departure_time_est, s.estimated_arrival_time_est];
    case 'delayed':
    case 'on time':
      return [s.estimated_departure_time_est, s.estimated_arrival_time_est];
    default:
      return [null, null];
  }
}

function insertFlights(sql: SqlConnection, db: AirlineDb, file: string): void {
  let pos = 0;
  for (const [key, f] of db.flights) {
    checkKey(file, at('flights', key), key, f.flight_number, 'flight_number');
    sql.run(
      `INSERT INTO flights(flight_number, pos, origin, destination, scheduled_departure_time_est,
         scheduled_arrival_time_est) VALUES (?, ?, ?, ?, ?, ?)`,
      key,
      pos++,
      f.origin,
      f.destination,
      f.scheduled_departure_time_est,
      f.scheduled_arrival_time_est,
    );
    let dpos = 0;
    for (const [date, s] of f.dates) {
      const [departure, arrival] = times(s);
      sql.run(
        `INSERT INTO flight_dates(flight_number, date, pos, status, departure_time, arrival_time, available_seats,
           prices) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        key,
        date,
        dpos++,
        s.status,
        departure,
        arrival,
        s.status === 'available' ? jsonText(s.available_seats) : null,
        s.status === 'available' ? jsonText(s.prices) : null,
      );
    }
  }
}

function insertUsers(sql: SqlConnection, db: AirlineDb, file: string): void {
  let pos = 0;
  for (const [key, u] of db.users) {
    checkKey(file, at('users', key), key, u.user_id, 'user_id');
    const a = u.address;
    sql.run(
      `INSERT INTO users(user_id, pos, first_name, last_name, address1, address2, city, country, state, zip, email,
         dob, membership) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      key,
      pos++,
      u.name.first_name,
      u.name.last_name,
      a.address1,
      a.address2 ?? null,
      a.city,
      a.country,
      a.state,
      a.zip,
      u.email,
      u.dob,
      u.membership,
    );
    let mpos = 0;
    for (const [pmKey, m] of u.payment_methods) {
      checkKey(file, jsonPath(`${at('users', key)}.payment_methods`, pmKey), pmKey, m.id, 'id');
      sql.run(
        'INSERT INTO payment_methods(user_id, id, pos, source, brand, last_four, amount) VALUES (?, ?, ?, ?, ?, ?, ?)',
        key,
        pmKey,
        mpos++,
        m.source,
        m.source === 'credit_card' ? m.brand : null,
        m.source === 'credit_card' ? m.last_four : null,
        m.source === 'credit_card' ? null : m.amount,
      );
    }
    u.saved_passengers.forEach((p, i) => {
      sql.run(
        'INSERT INTO saved_passengers(user_id, pos, first_name, last_name, dob) VALUES (?, ?, ?, ?, ?)',
        key,
        i,
        p.first_name,
        p.last_name,
        p.dob,
      );
    });
    u.reservations.forEach((id, i) => {
      sql.run('INSERT INTO user_reservations(user_id, pos, reservation_id) VALUES (?, ?, ?)', key, i, id);
    });
  }
}

function insertReservations(sql: SqlConnection, db: AirlineDb, file: string): void {
  let pos = 0;
  for (const [key, r] of db.reservations) {
    checkKey(file, at('reservations', key), key, r.reservation_id, 'reservation_id');
    sql.run(
      `INSERT INTO reservations(reservation_id, pos, user_id, origin, destination, flight_type, cabin, created_at,
         total_baggages, nonfree_baggages, insurance, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      key,
      pos++,
      r.user_id,
      r.origin,
      r.destination,
      r.flight_type,
      r.cabin,
      r.created_at,
      jsonText(r.total_baggages),
      jsonText(r.nonfree_baggages),
      r.insurance,
      r.status ?? null,
    );
    r.flights.forEach((f, i) => {
      sql.run(
        `INSERT INTO reservation_flights(reservation_id, pos, flight_number, origin, destination, date, price)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        key,
        i,
        f.flight_number,
        f.origin,
        f.destination,
        f.date,
        f.price,
      );
    });
    r.passengers.forEach((p, i) => {
      sql.run(
        'INSERT INTO reservation_passengers(reservation_id, pos, first_name, last_name, dob) VALUES (?, ?, ?, ?, ?)',
        key,
        i,
        p.first_name,
        p.last_name,
        p.dob,
      );
    });
    r.payment_history.forEach((p, i) => {
      sql.run(
        'INSERT INTO reservation_payments(reservation_id, pos, payment_id, amount) VALUES (?, ?, ?, ?)',
        key,
        i,
        p.payment_id,
        p.amount,
      );
    });
  }
}
