import { ToolError } from '../../../core/errors.js';
import type { PyDict, PyValue } from '../../../core/py-value.js';
import { pyRepr, pyStr } from '../../../env/py-ops.js';
import { type SqlConnection, text } from '../../../env/sql.js';
import type { ToolSpec } from '../../../env/tool.js';
import { jsonText } from '../column-text.js';
import { jsonColumn, reservationDump } from '../dump.js';
import { AIRLINE_NOW, RESERVATION_IDS } from '../sequences.js';
import { CABINS, FLIGHT_TYPES, INSURANCE } from '../vocabulary.js';
import { convertAll, noAttribute } from './convert.js';
import { findPaymentMethod, getFlight, getFlightInstance, getUser, nextPos } from './lookups.js';
import {
  destinationParam,
  enumParam,
  flightsParam,
  intParam,
  objectListParam,
  originParam,
  passengersParam,
  userIdParam,
} from './params.js';
import {
  type FieldType,
  FLIGHT_INFO,
  type ModelSpec,
  PASSENGER,
  PAYMENT,
  type Validated,
  validateModel,
} from './py-model.js';
import { asNum, type PyNum, pyAdd, pyLess, pyMulInt, pySub } from './py-num.js';
import { addSeats, setAmount } from './reservation-state.js';

/** τ²'s `book_reservation` (`tau2-spec.md` §4.2): checks everything first, then debits, books and takes seats. */

function reservationSpec(passengers: FieldType, payments: FieldType): ModelSpec {
  return {
    name: 'Reservation',
    fields: [
      ['reservation_id', 'str'],
      ['user_id', 'str'],
      ['origin', 'str'],
      ['destination', 'str'],
      ['flight_type', { literal: FLIGHT_TYPES }],
      ['cabin', { literal: CABINS }],
      ['flights', 'validated'],
      ['passengers', passengers],
      ['payment_history', payments],
      ['created_at', 'str'],
      ['total_baggages', 'int'],
      ['nonfree_baggages', 'int'],
      ['insurance', { literal: INSURANCE }],
    ],
  };
}

/** The first unused reservation id of τ²'s sequence. */
function newReservationId(sql: SqlConnection): string {
  for (const id of RESERVATION_IDS) {
    if (sql.get('SELECT 1 FROM reservations WHERE reservation_id = ?', id) === undefined) return id;
  }
  throw new ToolError('Too many reservations');
}

/** `dict[cabin]` of a seats or prices column (KeyError text when the cabin has no entry). */
function cabinValue(column: PyValue, cabin: string): PyValue {
  const v = (column as PyDict).get(cabin);
  if (v === undefined) throw new ToolError(pyRepr(cabin));
  return v;
}

interface NewFlight {
  readonly flightNumber: string;
  readonly origin: string;
  readonly destination: string;
  readonly date: string;
  readonly price: PyValue;
}

export const bookReservation: ToolSpec = {
  name: 'book_reservation',
  kind: 'write',
  params: [
    userIdParam,
    originParam,
    destinationParam,
    enumParam('flight_type', FLIGHT_TYPES, "'one_way' or 'round_trip'."),
    enumParam('cabin', CABINS, "'basic_economy', 'economy' or 'business', the same for every flight."),
    flightsParam,
    passengersParam,
    objectListParam(
      'payment_methods',
      { payment_id: { type: 'string' }, amount: { type: 'integer' } },
      "How the total is paid: saved payment method ids with the amount charged to each, e.g. {'payment_id': 'gift_card_1', 'amount': 300}.",
    ),
    intParam('total_baggages', 'Total number of checked bags.'),
    intParam('nonfree_baggages', 'Number of checked bags beyond the free allowance ($50 each).'),
    enumParam('insurance', INSURANCE, "'yes' for travel insurance ($30 per passenger), else 'no'."),
  ],
  description:
    'Book a new reservation for a customer. The payments must add up exactly to the price: every fare times the ' +
    'number of passengers, plus insurance and extra bags. List the details and get an explicit yes first. ' +
    'Returns the new reservation.',
  run({ sql }, args) {
    const flights = convertAll(args.flights ?? null, FLIGHT_INFO);
    const passengers = convertAll(args.passengers ?? null, PASSENGER);
    const payments = convertAll(args.payment_methods ?? null, PAYMENT);
    const userId = text(getUser(sql, args.user_id ?? null), 'user_id');
    const reservationId = newReservationId(sql);
    const listOf = (c: typeof passengers, spec: ModelSpec): FieldType =>
      'models' in c ? 'validated' : { listOf: spec };
    const r = validateModel(
      reservationSpec(listOf(passengers, PASSENGER), listOf(payments, PAYMENT)),
      new Map<string, PyValue>([
        ['reservation_id', reservationId],
        ['user_id', args.user_id ?? null],
        ['origin', args.origin ?? null],
        ['destination', args.destination ?? null],
        ['flight_type', args.flight_type ?? null],
        ['cabin', args.cabin ?? null],
        ['flights', []],
        ['passengers', 'models' in passengers ? [] : passengers.raw],
        ['payment_history', 'models' in payments ? [] : payments.raw],
        ['created_at', AIRLINE_NOW],
        ['total_baggages', args.total_baggages ?? null],
        ['nonfree_baggages', args.nonfree_baggages ?? null],
        ['insurance', args.insurance ?? null],
      ]),
    );
    // Reservation(...) accepted the lists, so they were lists of dicts and have been converted above
    const pax = 'models' in passengers ? passengers.models : [];
    const paid = 'models' in payments ? payments.models : [];
    const cabin = r.cabin as string;
    let total: PyNum = 0n;
    const booked: NewFlight[] = [];
    const infos: readonly (Validated | PyValue)[] = 'models' in flights ? flights.models : flights.items;
    for (const info of infos) {
      if (!('models' in flights)) throw noAttribute(info as PyValue, 'flight_number');
      const { flight_number: number, date } = info as { flight_number: string; date: string };
      const flight = getFlight(sql, number);
      const instance = getFlightInstance(sql, number, date);
      if (instance.status !== 'available')
        throw new ToolError(`Flight ${number} not available on date ${date}`);
      const seats = cabinValue(jsonColumn(instance, 'available_seats'), cabin);
      if (pyLess(asNum(seats) ?? 0n, BigInt(pax.length)))
        throw new ToolError(`Not enough seats on flight ${number}`);
      const price = cabinValue(jsonColumn(instance, 'prices'), cabin);
      booked.push({
        flightNumber: number,
        origin: text(flight, 'origin'),
        destination: text(flight, 'destination'),
        date,
        price,
      });
      total = pyAdd(total, pyMulInt(BigInt(pax.length), price) as PyNum, '+=');
    }
    if (args.insurance === 'yes') total = pyAdd(total, BigInt(30 * pax.length), '+=');
    total = pyAdd(total, pyMulInt(50n, args.nonfree_baggages ?? null), '+=');
    for (const p of paid) {
      const id = p.payment_id as string;
      const method = findPaymentMethod(sql, userId, id);
      if (method === undefined) throw new ToolError(`Payment method ${id} not found`);
      if (
        method.source !== 'credit_card' &&
        pyLess(asNum(method.amount as PyValue) ?? 0, p.amount as bigint)
      ) {
        throw new ToolError(`Not enough balance in payment method ${id}`);
      }
    }
    const sum = paid.reduce((s, p) => s + (p.amount as bigint), 0n);
    if (pyLess(sum, total) || pyLess(total, sum)) {
      throw new ToolError(`Payment amount does not add up, total price is ${pyStr(total)}, but paid ${sum}`);
    }
    for (const p of paid) {
      const id = p.payment_id as string;
      const method = findPaymentMethod(sql, userId, id);
      if (method === undefined) throw new ToolError(pyRepr(id)); // a certificate listed twice: popped already
      if (method.source === 'gift_card') {
        setAmount(sql, userId, id, pySub(method.amount as PyValue, p.amount as bigint, '-='));
      } else if (method.source === 'certificate') {
        sql.run('DELETE FROM payment_methods WHERE user_id = ? AND id = ?', userId, id);
      }
    }
    for (const f of booked) addSeats(sql, f.flightNumber, f.date, cabin, -pax.length);
    insertReservation(sql, reservationId, userId, r, booked, pax, paid);
    return reservationDump(sql, reservationId) ?? null;
  },
};

function insertReservation(
  sql: SqlConnection,
  id: string,
  userId: string,
  r: Validated,
  flights: readonly NewFlight[],
  passengers: readonly Validated[],
  payments: readonly Validated[],
): void {
  sql.run(
    `INSERT INTO reservations(reservation_id, pos, user_id, origin, destination, flight_type, cabin, created_at,
       total_baggages, nonfree_baggages, insurance, status) VALUES (?, (SELECT COALESCE(MAX(pos), -1) + 1 FROM reservations),
       ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
    id,
    userId,
    r.origin as string,
    r.destination as string,
    r.flight_type as string,
    r.cabin as string,
    AIRLINE_NOW,
    jsonText(r.total_baggages as PyValue),
    jsonText(r.nonfree_baggages as PyValue),
    r.insurance as string,
  );
  flights.forEach((f, i) => {
    sql.run(
      `INSERT INTO reservation_flights(reservation_id, pos, flight_number, origin, destination, date, price)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      id,
      i,
      f.flightNumber,
      f.origin,
      f.destination,
      f.date,
      f.price as bigint,
    );
  });
  passengers.forEach((p, i) => {
    sql.run(
      'INSERT INTO reservation_passengers(reservation_id, pos, first_name, last_name, dob) VALUES (?, ?, ?, ?, ?)',
      id,
      i,
      p.first_name as string,
      p.last_name as string,
      p.dob as string,
    );
  });
  payments.forEach((p, i) => {
    sql.run(
      'INSERT INTO reservation_payments(reservation_id, pos, payment_id, amount) VALUES (?, ?, ?, ?)',
      id,
      i,
      p.payment_id as string,
      p.amount as bigint,
    );
  });
  sql.run(
    'INSERT INTO user_reservations(user_id, pos, reservation_id) VALUES (?, ?, ?)',
    userId,
    nextPos(sql, 'user_reservations', 'user_id', userId),
    id,
  );
}
