import type { PyJsonInput, PyModel } from '../../core/py-json.js';
import { parsePyJson } from '../../core/py-json-parse.js';
import type { PyDict, PyValue } from '../../core/py-value.js';
import type { DumpStyle } from '../../env/environment.js';
import { num, type SqlConnection, type SqlRow, text, textOrNull } from '../../env/sql.js';

/**
 * Airline entities rebuilt from SQL rows as τ² model dumps. `model_dump` style is τ²'s model field order with every
 * field (what tools return and hashes see); `file` style is the order of τ²'s airline `db.json` (flights and
 * reservation flights list `origin, destination, flight_number`), with null optionals omitted, so an unchanged DB
 * is written back byte for byte.
 */

/** The field names of a date status's two time columns, by status (`tau2-spec.md` §4.1). */
const TIME_FIELDS: Readonly<Record<string, readonly [string, string]>> = {
  landed: ['actual_departure_time_est', 'actual_arrival_time_est'],
  flying: ['actual_departure_time_est', 'estimated_arrival_time_est'],
  delayed: ['estimated_departure_time_est', 'estimated_arrival_time_est'],
  'on time': ['estimated_departure_time_est', 'estimated_arrival_time_est'],
};

/** Parses a JSON text column (ordered dicts, ints as bigints). */
export function jsonColumn(row: SqlRow, column: string): PyValue {
  return parsePyJson(text(row, column));
}

/** A `FlightDateStatus` dump from a `flight_dates` row. */
export function dateStatusDump(row: SqlRow): PyModel {
  const status = text(row, 'status');
  if (status === 'available') {
    return {
      status,
      available_seats: jsonColumn(row, 'available_seats'),
      prices: jsonColumn(row, 'prices'),
    };
  }
  const fields = TIME_FIELDS[status];
  if (fields === undefined) return { status };
  return { status, [fields[0]]: text(row, 'departure_time'), [fields[1]]: text(row, 'arrival_time') };
}

/** A `Flight` dump, or undefined. */
export function flightDump(sql: SqlConnection, flightNumber: string, style: DumpStyle = 'model_dump') {
  return sql.cachedEntity(`flights\u0000${flightNumber}`, style, () =>
    flightDumpUncached(sql, flightNumber, style),
  );
}

function flightDumpUncached(sql: SqlConnection, flightNumber: string, style: DumpStyle): PyModel | undefined {
  const f = sql.get('SELECT * FROM flights WHERE flight_number = ?', flightNumber);
  if (f === undefined) return undefined;
  const dates = new Map<string, PyModel>();
  for (const d of sql.all('SELECT * FROM flight_dates WHERE flight_number = ? ORDER BY pos', flightNumber)) {
    dates.set(text(d, 'date'), dateStatusDump(d));
  }
  const [number, origin, destination] = [text(f, 'flight_number'), text(f, 'origin'), text(f, 'destination')];
  const head =
    style === 'file'
      ? { origin, destination, flight_number: number }
      : { flight_number: number, origin, destination };
  return {
    ...head,
    scheduled_departure_time_est: text(f, 'scheduled_departure_time_est'),
    scheduled_arrival_time_est: text(f, 'scheduled_arrival_time_est'),
    dates,
  };
}

/** A payment method dump (fields by `source`). */
export function paymentMethodDump(row: SqlRow): PyModel {
  const source = text(row, 'source');
  const id = text(row, 'id');
  if (source === 'credit_card')
    return { source, id, brand: text(row, 'brand'), last_four: text(row, 'last_four') };
  return { source, id, amount: num(row, 'amount') };
}

function passengerDump(row: SqlRow): PyModel {
  return { first_name: text(row, 'first_name'), last_name: text(row, 'last_name'), dob: text(row, 'dob') };
}

/** A `User` dump, or undefined. */
export function userDump(sql: SqlConnection, userId: string, style: DumpStyle = 'model_dump') {
  return sql.cachedEntity(`users\u0000${userId}`, style, () => userDumpUncached(sql, userId, style));
}

function userDumpUncached(sql: SqlConnection, userId: string, style: DumpStyle): PyModel | undefined {
  const u = sql.get('SELECT * FROM users WHERE user_id = ?', userId);
  if (u === undefined) return undefined;
  const methods = new Map<string, PyModel>();
  for (const m of sql.all('SELECT * FROM payment_methods WHERE user_id = ? ORDER BY pos', userId)) {
    methods.set(text(m, 'id'), paymentMethodDump(m));
  }
  const address2 = textOrNull(u, 'address2');
  const address: Record<string, PyJsonInput> = { address1: text(u, 'address1') };
  if (style === 'model_dump' || address2 !== null) address.address2 = address2;
  address.city = text(u, 'city');
  address.country = text(u, 'country');
  address.state = text(u, 'state');
  address.zip = text(u, 'zip');
  return {
    user_id: text(u, 'user_id'),
    name: { first_name: text(u, 'first_name'), last_name: text(u, 'last_name') },
    address,
    email: text(u, 'email'),
    dob: text(u, 'dob'),
    payment_methods: methods,
    saved_passengers: sql
      .all('SELECT * FROM saved_passengers WHERE user_id = ? ORDER BY pos', userId)
      .map(passengerDump),
    membership: text(u, 'membership'),
    reservations: sql
      .all('SELECT reservation_id FROM user_reservations WHERE user_id = ? ORDER BY pos', userId)
      .map((r) => text(r, 'reservation_id')),
  };
}

/** A `ReservationFlight` dump in the field order of `style`. */
export function reservationFlightDump(row: SqlRow, style: DumpStyle): PyModel {
  const [number, origin, destination] = [
    text(row, 'flight_number'),
    text(row, 'origin'),
    text(row, 'destination'),
  ];
  const head =
    style === 'file'
      ? { origin, destination, flight_number: number }
      : { flight_number: number, origin, destination };
  return { ...head, date: text(row, 'date'), price: num(row, 'price') };
}

/** A `Reservation` dump, or undefined. */
export function reservationDump(sql: SqlConnection, reservationId: string, style: DumpStyle = 'model_dump') {
  return sql.cachedEntity(`reservations\u0000${reservationId}`, style, () =>
    reservationDumpUncached(sql, reservationId, style),
  );
}

function reservationDumpUncached(sql: SqlConnection, id: string, style: DumpStyle): PyModel | undefined {
  const r = sql.get('SELECT * FROM reservations WHERE reservation_id = ?', id);
  if (r === undefined) return undefined;
  const overridesText = textOrNull(r, 'overrides');
  const overrides =
    overridesText === null ? new Map<string, PyValue>() : (parsePyJson(overridesText) as PyDict);
  const dump: Record<string, PyJsonInput> = {
    reservation_id: text(r, 'reservation_id'),
    user_id: text(r, 'user_id'),
    origin: text(r, 'origin'),
    destination: text(r, 'destination'),
    flight_type: text(r, 'flight_type'),
    cabin: overrides.has('cabin') ? (overrides.get('cabin') as PyValue) : text(r, 'cabin'),
    flights: sql
      .all('SELECT * FROM reservation_flights WHERE reservation_id = ? ORDER BY pos', id)
      .map((f) => reservationFlightDump(f, style)),
    passengers: overrides.has('passengers')
      ? (overrides.get('passengers') as PyValue)
      : sql
          .all('SELECT * FROM reservation_passengers WHERE reservation_id = ? ORDER BY pos', id)
          .map(passengerDump),
    payment_history: sql
      .all('SELECT * FROM reservation_payments WHERE reservation_id = ? ORDER BY pos', id)
      .map((p) => ({ payment_id: text(p, 'payment_id'), amount: num(p, 'amount') })),
    created_at: text(r, 'created_at'),
    total_baggages: jsonColumn(r, 'total_baggages'),
    nonfree_baggages: jsonColumn(r, 'nonfree_baggages'),
    insurance: text(r, 'insurance'),
  };
  const status = textOrNull(r, 'status');
  if (style === 'model_dump' || status !== null) dump.status = status;
  return dump;
}
