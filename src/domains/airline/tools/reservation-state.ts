import { ToolError } from '../../../core/errors.js';
import { parsePyJson } from '../../../core/py-json-parse.js';
import type { PyDict, PyValue } from '../../../core/py-value.js';
import { pyDictKey, pyLen } from '../../../env/py-ops.js';
import { type SqlConnection, type SqlRow, text, textOrNull } from '../../../env/sql.js';
import { jsonText } from '../column-text.js';
import { jsonColumn } from '../dump.js';
import { findPaymentMethod, nextPos } from './lookups.js';
import { PAYMENT, type Validated, validateModel } from './py-model.js';
import { asNum, type PyNum, pyIsZero, pyLess, pySub } from './py-num.js';

/** Reads and writes of reservation fields that τ² may leave holding raw values (see the schema's `overrides`). */

function overridesOf(row: SqlRow): PyDict {
  const t = textOrNull(row, 'overrides');
  return t === null ? new Map() : (parsePyJson(t) as PyDict);
}

/** `reservation.<field>` as τ² holds it: the override when a raw assignment left one. */
export function reservationField(sql: SqlConnection, row: SqlRow, field: 'cabin' | 'passengers'): PyValue {
  const overrides = overridesOf(row);
  if (overrides.has(field)) return overrides.get(field) as PyValue;
  if (field === 'cabin') return text(row, 'cabin');
  return sql
    .all(
      'SELECT first_name, last_name, dob FROM reservation_passengers WHERE reservation_id = ? ORDER BY pos',
      text(row, 'reservation_id'),
    )
    .map(
      (p) =>
        new Map<string, PyValue>([
          ['first_name', p.first_name as string],
          ['last_name', p.last_name as string],
          ['dob', p.dob as string],
        ]),
    );
}

/** `len(reservation.passengers)`. */
export function passengerCount(sql: SqlConnection, row: SqlRow): number {
  const overrides = overridesOf(row);
  if (overrides.has('passengers')) return pyLen(overrides.get('passengers') as PyValue);
  const r = sql.get(
    'SELECT COUNT(*) AS n FROM reservation_passengers WHERE reservation_id = ?',
    text(row, 'reservation_id'),
  );
  return Number(r?.n ?? 0);
}

/** Sets (or, with `undefined`, clears) a raw override of a reservation field. */
export function setOverride(
  sql: SqlConnection,
  reservationId: string,
  field: string,
  value: PyValue | undefined,
): void {
  const row = sql.get('SELECT overrides FROM reservations WHERE reservation_id = ?', reservationId);
  const overrides = row === undefined ? new Map<string, PyValue>() : overridesOf(row);
  if (value === undefined) {
    if (!overrides.has(field)) return;
    overrides.delete(field);
  } else overrides.set(field, value);
  sql.run(
    'UPDATE reservations SET overrides = ? WHERE reservation_id = ?',
    overrides.size === 0 ? null : jsonText(overrides),
    reservationId,
  );
}

/** Replaces a reservation's passengers by validated `Passenger` values. */
export function setPassengers(
  sql: SqlConnection,
  reservationId: string,
  passengers: readonly Validated[],
): void {
  sql.run('DELETE FROM reservation_passengers WHERE reservation_id = ?', reservationId);
  passengers.forEach((p, i) => {
    sql.run(
      'INSERT INTO reservation_passengers(reservation_id, pos, first_name, last_name, dob) VALUES (?, ?, ?, ?, ?)',
      reservationId,
      i,
      p.first_name as string,
      p.last_name as string,
      p.dob as string,
    );
  });
}

/** Appends a `Payment` to a reservation's payment history. */
export function appendPayment(
  sql: SqlConnection,
  reservationId: string,
  paymentId: string,
  amount: bigint,
): void {
  sql.run(
    'INSERT INTO reservation_payments(reservation_id, pos, payment_id, amount) VALUES (?, ?, ?, ?)',
    reservationId,
    nextPos(sql, 'reservation_payments', 'reservation_id', reservationId),
    paymentId,
    amount,
  );
}

/** Sets a gift card's or certificate's amount. */
export function setAmount(sql: SqlConnection, userId: string, methodId: string, amount: PyNum): void {
  sql.run('UPDATE payment_methods SET amount = ? WHERE user_id = ? AND id = ?', amount, userId, methodId);
}

/**
 * τ²'s `_payment_for_update(user, payment_id, total_price)`: the method must be in the profile (checked even for
 * a zero price), a certificate is refused, a gift card must cover the price and is debited (a negative price
 * credits it); a non-zero price becomes a `Payment` (validated: a fractional float fails here, after the debit).
 * @returns the payment to append, or null for a zero price.
 */
export function paymentForUpdate(
  sql: SqlConnection,
  userId: string,
  paymentId: PyValue,
  total: PyNum,
): { id: string; amount: bigint } | null {
  const method = findPaymentMethod(sql, userId, paymentId);
  if (method === undefined) throw new ToolError('Payment method not found');
  const source = text(method, 'source');
  const id = pyDictKey(paymentId) as string;
  if (source === 'certificate') throw new ToolError('Certificate cannot be used to update reservation');
  const balance = asNum(method.amount as PyValue) ?? 0;
  if (source === 'gift_card' && pyLess(balance, total))
    throw new ToolError('Gift card balance is not enough');
  if (source === 'gift_card' && !pyIsZero(total)) setAmount(sql, userId, id, pySub(balance, total, '-='));
  if (pyIsZero(total)) return null;
  const payment = validateModel(
    PAYMENT,
    new Map<string, PyValue>([
      ['payment_id', id],
      ['amount', total],
    ]),
  );
  return { id, amount: payment.amount as bigint };
}

/** Adds `delta` to `available_seats[cabin]` of a flight date (τ²'s `available_seats[cabin] -= n`). */
export function addSeats(
  sql: SqlConnection,
  flightNumber: string,
  date: string,
  cabin: string,
  delta: number,
): void {
  const row = sql.get(
    'SELECT available_seats FROM flight_dates WHERE flight_number = ? AND date = ?',
    flightNumber,
    date,
  );
  if (row === undefined || row.available_seats === null) return;
  const seats = jsonColumn(row, 'available_seats') as PyDict;
  const current = seats.get(cabin);
  if (current === undefined) throw new ToolError(`'${cabin}'`);
  seats.set(cabin, pySub(current, BigInt(-delta)));
  sql.run(
    'UPDATE flight_dates SET available_seats = ? WHERE flight_number = ? AND date = ?',
    jsonText(seats),
    flightNumber,
    date,
  );
}
