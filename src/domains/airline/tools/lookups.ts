import { ToolError } from '../../../core/errors.js';
import type { PyValue } from '../../../core/py-value.js';
import { pyDictKey, pyStr } from '../../../env/py-ops.js';
import type { SqlConnection, SqlRow } from '../../../env/sql.js';

/**
 * The private helpers of τ²'s `AirlineTools` (`_get_user`, `_get_reservation`, `_get_flight`,
 * `_get_flight_instance`) over SQL, with τ²'s messages (which echo the raw argument with Python's `str()`) and
 * Python's behaviour for unhashable keys (`unhashable type: 'list'`).
 */

export function getUser(sql: SqlConnection, userId: PyValue): SqlRow {
  const key = pyDictKey(userId);
  const row = key === undefined ? undefined : sql.get('SELECT * FROM users WHERE user_id = ?', key);
  if (row === undefined) throw new ToolError(`User ${pyStr(userId)} not found`);
  return row;
}

export function getReservation(sql: SqlConnection, reservationId: PyValue): SqlRow {
  const key = pyDictKey(reservationId);
  const row =
    key === undefined ? undefined : sql.get('SELECT * FROM reservations WHERE reservation_id = ?', key);
  if (row === undefined) throw new ToolError(`Reservation ${pyStr(reservationId)} not found`);
  return row;
}

export function getFlight(sql: SqlConnection, flightNumber: PyValue): SqlRow {
  const key = pyDictKey(flightNumber);
  const row = key === undefined ? undefined : sql.get('SELECT * FROM flights WHERE flight_number = ?', key);
  if (row === undefined) throw new ToolError(`Flight ${pyStr(flightNumber)} not found`);
  return row;
}

/** `_get_flight_instance(flight_number, date)`: the flight first, then `Flight … not found on date …`. */
export function getFlightInstance(sql: SqlConnection, flightNumber: PyValue, date: PyValue): SqlRow {
  const flight = getFlight(sql, flightNumber);
  const key = pyDictKey(date);
  const row =
    key === undefined
      ? undefined
      : sql.get(
          'SELECT * FROM flight_dates WHERE flight_number = ? AND date = ?',
          flight.flight_number ?? null,
          key,
        );
  if (row === undefined)
    throw new ToolError(`Flight ${pyStr(flightNumber)} not found on date ${pyStr(date)}`);
  return row;
}

/** A user's payment method by a raw id (`payment_id in user.payment_methods`), or undefined. */
export function findPaymentMethod(sql: SqlConnection, userId: string, methodId: PyValue): SqlRow | undefined {
  const key = pyDictKey(methodId);
  return key === undefined
    ? undefined
    : sql.get('SELECT * FROM payment_methods WHERE user_id = ? AND id = ?', userId, key);
}

/** The next `pos` of a child list (the end of an ordered list or dict). */
export function nextPos(sql: SqlConnection, table: string, keyColumn: string, key: string): number {
  const row = sql.get(`SELECT COALESCE(MAX(pos), -1) + 1 AS p FROM ${table} WHERE ${keyColumn} = ?`, key);
  return Number(row?.p ?? 0);
}
