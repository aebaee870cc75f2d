import { ToolError } from '../../../core/errors.js';
import type { PyDict, PyValue } from '../../../core/py-value.js';
import { pyEquals } from '../../../core/py-value.js';
import { pyDictKey, pyLen, pyRepr, pyStr } from '../../../env/py-ops.js';
import { type SqlConnection, type SqlRow, text } from '../../../env/sql.js';
import type { ToolSpec } from '../../../env/tool.js';
import { jsonText } from '../column-text.js';
import { jsonColumn, reservationDump } from '../dump.js';
import { CERTIFICATE_IDS } from '../sequences.js';
import { CABINS } from '../vocabulary.js';
import { convertAll, noAttribute } from './convert.js';
import { getFlight, getFlightInstance, getReservation, getUser, nextPos } from './lookups.js';
import {
  enumParam,
  flightsParam,
  intParam,
  passengersParam,
  paymentIdParam,
  reservationIdParam,
  userIdParam,
} from './params.js';
import { FLIGHT_INFO, PASSENGER, type Validated, validateModel } from './py-model.js';
import { asNum, type PyNum, pyAdd, pyLess, pyMax0, pyMulInt, pySub } from './py-num.js';
import {
  addSeats,
  appendPayment,
  passengerCount,
  paymentForUpdate,
  reservationField,
  setOverride,
  setPassengers,
} from './reservation-state.js';

/** The airline write tools on existing reservations and the certificate tool (`tau2-spec.md` §4.2). */

function flightsOf(sql: SqlConnection, reservationId: string): SqlRow[] {
  return sql.all('SELECT * FROM reservation_flights WHERE reservation_id = ? ORDER BY pos', reservationId);
}

/** `fixed` only: gives a reservation's seats back (or takes them) on the flight dates that are still bookable. */
function moveSeats(sql: SqlConnection, flights: readonly SqlRow[], cabin: PyValue, pax: number): void {
  if (typeof cabin !== 'string' || pax === 0) return;
  for (const f of flights) {
    const d = sql.get(
      "SELECT available_seats FROM flight_dates WHERE flight_number = ? AND date = ? AND status = 'available'",
      text(f, 'flight_number'),
      text(f, 'date'),
    );
    if (d === undefined || !(jsonColumn(d, 'available_seats') as PyDict).has(cabin)) continue;
    addSeats(sql, text(f, 'flight_number'), text(f, 'date'), cabin, pax);
  }
}

export const cancelReservation: ToolSpec = {
  name: 'cancel_reservation',
  kind: 'write',
  params: [reservationIdParam],
  description:
    'Cancel a whole reservation; every payment is refunded to its original method. The tool does not check the ' +
    'cancellation rules: check them first, then get an explicit yes. Returns the cancelled reservation.',
  run({ sql, semantics }, { reservation_id }) {
    const r = getReservation(sql, reservation_id ?? null);
    const id = text(r, 'reservation_id');
    if (semantics === 'fixed') {
      if (r.status === 'cancelled') throw new ToolError(`Reservation ${id} is already cancelled`);
      moveSeats(sql, flightsOf(sql, id), reservationField(sql, r, 'cabin'), passengerCount(sql, r));
    }
    const payments = sql.all('SELECT * FROM reservation_payments WHERE reservation_id = ? ORDER BY pos', id);
    for (const p of payments) appendPayment(sql, id, text(p, 'payment_id'), -(p.amount as bigint));
    sql.run("UPDATE reservations SET status = 'cancelled' WHERE reservation_id = ?", id);
    return reservationDump(sql, id) ?? null;
  },
};

export const updateReservationBaggages: ToolSpec = {
  name: 'update_reservation_baggages',
  kind: 'write',
  params: [
    reservationIdParam,
    intParam('total_baggages', 'The new total number of checked bags.'),
    intParam('nonfree_baggages', 'The new number of paid bags ($50 for each one added).'),
    paymentIdParam,
  ],
  description:
    'Change the number of checked bags of a reservation; each added paid bag costs $50, charged to a saved gift ' +
    'card or credit card. List the change and get an explicit yes first. Returns the updated reservation.',
  run({ sql }, { reservation_id, total_baggages, nonfree_baggages, payment_id }) {
    const r = getReservation(sql, reservation_id ?? null);
    const id = text(r, 'reservation_id');
    const userId = text(getUser(sql, text(r, 'user_id')), 'user_id');
    const added = pyMax0(pySub(nonfree_baggages ?? null, jsonColumn(r, 'nonfree_baggages')));
    const price = pyMulInt(50n, added) as PyNum;
    const payment = paymentForUpdate(sql, userId, payment_id ?? null, price);
    if (payment !== null) appendPayment(sql, id, payment.id, payment.amount);
    sql.run(
      'UPDATE reservations SET total_baggages = ?, nonfree_baggages = ? WHERE reservation_id = ?',
      jsonText(total_baggages ?? null),
      jsonText(nonfree_baggages ?? null),
      id,
    );
    return reservationDump(sql, id) ?? null;
  },
};

/** A flight of the updated list: a kept row (old price) or a new segment. */
type NewSegment =
  | { readonly kept: SqlRow }
  | {
      readonly flightNumber: string;
      readonly origin: string;
      readonly destination: string;
      readonly date: string;
      readonly price: PyValue;
    };

export const updateReservationFlights: ToolSpec = {
  name: 'update_reservation_flights',
  kind: 'write',
  params: [
    reservationIdParam,
    enumParam('cabin', CABINS, 'The cabin of the whole reservation after the change.'),
    {
      ...flightsParam,
      description: 'Every flight of the reservation after the change, unchanged segments included.',
    },
    paymentIdParam,
  ],
  description:
    'Change the flights or the cabin of a reservation. Segments kept in the same cabin keep the price paid; the ' +
    'difference is charged to, or refunded to, a saved gift card or credit card. List the change and get an explicit ' +
    'yes first. Returns the updated reservation.',
  run({ sql, semantics }, { reservation_id, cabin, flights, payment_id }) {
    const converted = convertAll(flights ?? null, FLIGHT_INFO);
    const r = getReservation(sql, reservation_id ?? null);
    const id = text(r, 'reservation_id');
    const userId = text(getUser(sql, text(r, 'user_id')), 'user_id');
    const wanted = cabin ?? null;
    const pax = BigInt(passengerCount(sql, r));
    const oldCabin = reservationField(sql, r, 'cabin');
    const old = flightsOf(sql, id);
    let total: PyNum = 0n;
    const segments: NewSegment[] = [];
    const infos: readonly (Validated | PyValue)[] =
      'models' in converted ? converted.models : converted.items;
    for (const info of infos) {
      if (!('models' in converted)) throw noAttribute(info as PyValue, 'flight_number');
      const { flight_number: number, date } = info as { flight_number: string; date: string };
      const kept = old.find(
        (f) => f.flight_number === number && f.date === date && pyEquals(wanted, oldCabin),
      );
      if (kept !== undefined) {
        total = pyAdd(total, pyMulInt(pax, kept.price as bigint) as PyNum, '+=');
        segments.push({ kept });
        continue;
      }
      const flight = getFlight(sql, number);
      const instance = getFlightInstance(sql, number, date);
      if (instance.status !== 'available')
        throw new ToolError(`Flight ${number} not available on date ${date}`);
      const cabinKey = pyDictKey(wanted);
      const seats = jsonColumn(instance, 'available_seats') as PyDict;
      const available = cabinKey === undefined ? undefined : seats.get(cabinKey);
      if (available === undefined) throw new ToolError(pyRepr(wanted));
      if (pyLess(asNum(available) ?? 0n, pax)) throw new ToolError(`Not enough seats on flight ${number}`);
      const price = (jsonColumn(instance, 'prices') as PyDict).get(cabinKey as string);
      if (price === undefined) throw new ToolError(pyRepr(wanted));
      segments.push({
        flightNumber: number,
        origin: text(flight, 'origin'),
        destination: text(flight, 'destination'),
        date,
        price,
      });
      total = pyAdd(total, pyMulInt(pax, price) as PyNum, '+=');
    }
    const paidBefore = old.reduce((s, f) => s + (f.price as bigint), 0n);
    total = pySub(total, paidBefore * pax, '-=');
    const payment = paymentForUpdate(sql, userId, payment_id ?? null, total);
    if (payment !== null) appendPayment(sql, id, payment.id, payment.amount);
    if (semantics === 'fixed') {
      const keptRows = new Set(segments.flatMap((s) => ('kept' in s ? [s.kept] : [])));
      moveSeats(
        sql,
        old.filter((f) => !keptRows.has(f)),
        oldCabin,
        Number(pax),
      );
      for (const s of segments)
        if (!('kept' in s)) addSeats(sql, s.flightNumber, s.date, wanted as string, -Number(pax));
    }
    sql.run('DELETE FROM reservation_flights WHERE reservation_id = ?', id);
    segments.forEach((s, i) => {
      const f =
        'kept' in s
          ? {
              flightNumber: text(s.kept, 'flight_number'),
              origin: text(s.kept, 'origin'),
              destination: text(s.kept, 'destination'),
              date: text(s.kept, 'date'),
              price: s.kept.price as PyValue,
            }
          : s;
      sql.run(
        `INSERT INTO reservation_flights(reservation_id, pos, flight_number, origin, destination, date, price)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        id,
        i,
        f.flightNumber,
        f.origin,
        f.destination,
        f.date,
        f.price as bigint | number,
      );
    });
    if (typeof wanted === 'string') {
      sql.run('UPDATE reservations SET cabin = ? WHERE reservation_id = ?', wanted, id);
      setOverride(sql, id, 'cabin', undefined);
    } else setOverride(sql, id, 'cabin', wanted);
    return reservationDump(sql, id) ?? null;
  },
};

export const updateReservationPassengers: ToolSpec = {
  name: 'update_reservation_passengers',
  kind: 'write',
  params: [reservationIdParam, passengersParam],
  description:
    'Change the names or dates of birth of the passengers of a reservation; their number cannot change. List the ' +
    'change and get an explicit yes first. Returns the updated reservation.',
  run({ sql }, { reservation_id, passengers }) {
    const converted = convertAll(passengers ?? null, PASSENGER);
    const r = getReservation(sql, reservation_id ?? null);
    const id = text(r, 'reservation_id');
    const count = 'models' in converted ? converted.models.length : pyLen(converted.raw);
    if (count !== passengerCount(sql, r)) throw new ToolError('Number of passengers does not match');
    if ('models' in converted) {
      setPassengers(sql, id, converted.models);
      setOverride(sql, id, 'passengers', undefined);
    } else {
      sql.run('DELETE FROM reservation_passengers WHERE reservation_id = ?', id);
      setOverride(sql, id, 'passengers', converted.raw);
    }
    return reservationDump(sql, id) ?? null;
  },
};

export const sendCertificate: ToolSpec = {
  name: 'send_certificate',
  kind: 'write',
  params: [userIdParam, intParam('amount', 'The value of the certificate in dollars.')],
  description:
    "Add a travel certificate of the given value to a customer's payment methods, as compensation. Only when the " +
    'policy allows it, and never offered unasked.',
  run({ sql }, { user_id, amount }) {
    const userId = text(getUser(sql, user_id ?? null), 'user_id');
    for (const certificateId of CERTIFICATE_IDS) {
      if (
        sql.get('SELECT 1 FROM payment_methods WHERE user_id = ? AND id = ?', userId, certificateId) !==
        undefined
      ) {
        continue;
      }
      const c = validateModel(
        {
          name: 'Certificate',
          fields: [
            ['source', { literal: ['certificate'] }],
            ['id', 'str'],
            ['amount', 'float'],
          ],
        },
        new Map<string, PyValue>([
          ['id', certificateId],
          ['amount', amount ?? null],
          ['source', 'certificate'],
        ]),
      );
      sql.run(
        "INSERT INTO payment_methods(user_id, id, pos, source, brand, last_four, amount) VALUES (?, ?, ?, 'certificate', NULL, NULL, ?)",
        userId,
        certificateId,
        nextPos(sql, 'payment_methods', 'user_id', userId),
        c.amount as number,
      );
      return `Certificate ${certificateId} added to user ${pyStr(user_id ?? null)} with amount ${pyStr(amount ?? null)}.`;
    }
    throw new ToolError('Too many certificates');
  },
};
