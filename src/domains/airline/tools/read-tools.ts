import { ToolError } from '../../../core/errors.js';
import type { PyModel } from '../../../core/py-json.js';
import { comparePyStr, type PyValue } from '../../../core/py-value.js';
import { pyDictKey, pyStr } from '../../../env/py-ops.js';
import { type SqlConnection, type SqlRow, text } from '../../../env/sql.js';
import type { Semantics, ToolSpec } from '../../../env/tool.js';
import { jsonColumn, reservationDump, userDump } from '../dump.js';
import { getFlightInstance, getReservation, getUser } from './lookups.js';
import {
  dateParam,
  destinationParam,
  originParam,
  reservationIdParam,
  stringParam,
  userIdParam,
} from './params.js';

/** The read-only airline tools (τ² `ToolType.READ`). */

export const getReservationDetails: ToolSpec = {
  name: 'get_reservation_details',
  kind: 'read',
  params: [reservationIdParam],
  description:
    'Show one reservation: trip, cabin, flights with prices, passengers, payments, bags and insurance.',
  run({ sql }, { reservation_id }) {
    const id = text(getReservation(sql, reservation_id ?? null), 'reservation_id');
    return reservationDump(sql, id) ?? null;
  },
};

export const getUserDetails: ToolSpec = {
  name: 'get_user_details',
  kind: 'read',
  params: [userIdParam],
  description:
    "Show a customer's profile: name, address, email, date of birth, saved payment methods and passengers, " +
    'membership level and reservation ids.',
  run({ sql }, { user_id }) {
    const id = text(getUser(sql, user_id ?? null), 'user_id');
    return userDump(sql, id) ?? null;
  },
};

/** τ²'s fixed airport list (IATA code and city), in its order. */
export const AIRPORTS: readonly (readonly [string, string])[] = [
  ['SFO', 'San Francisco'],
  ['JFK', 'New York'],
  ['LAX', 'Los Angeles'],
  ['ORD', 'Chicago'],
  ['DFW', 'Dallas'],
  ['DEN', 'Denver'],
  ['SEA', 'Seattle'],
  ['ATL', 'Atlanta'],
  ['MIA', 'Miami'],
  ['BOS', 'Boston'],
  ['PHX', 'Phoenix'],
  ['IAH', 'Houston'],
  ['LAS', 'Las Vegas'],
  ['MCO', 'Orlando'],
  ['EWR', 'Newark'],
  ['CLT', 'Charlotte'],
  ['MSP', 'Minneapolis'],
  ['DTW', 'Detroit'],
  ['PHL', 'Philadelphia'],
  ['LGA', 'LaGuardia'],
];

export const listAllAirports: ToolSpec = {
  name: 'list_all_airports',
  kind: 'read',
  params: [],
  description: 'List every airport the airline serves, as IATA code and city.',
  run() {
    return AIRPORTS.map(([iata, city]) => ({ iata, city }));
  },
};

/** A `DirectFlight` dump from a flights row joined with its date's seats and prices. */
function directFlight(row: SqlRow, date: PyValue): PyModel {
  return {
    flight_number: text(row, 'flight_number'),
    origin: text(row, 'origin'),
    destination: text(row, 'destination'),
    status: 'available',
    scheduled_departure_time_est: text(row, 'scheduled_departure_time_est'),
    scheduled_arrival_time_est: text(row, 'scheduled_arrival_time_est'),
    date,
    available_seats: jsonColumn(row, 'available_seats'),
    prices: jsonColumn(row, 'prices'),
  };
}

/**
 * τ²'s `_search_direct_flight`: flights in DB order whose origin and destination equal the raw arguments (`None`
 * matches any), that have `date` with status `available`, and (with `leaveAfter`) depart at or after it by string
 * comparison. An unhashable date raises only once some flight matched the route, as in Python's `and` chain.
 */
function searchDirect(
  sql: SqlConnection,
  date: PyValue,
  origin: PyValue,
  destination: PyValue,
  leaveAfter?: string,
): SqlRow[] {
  if (
    (origin !== null && typeof origin !== 'string') ||
    (destination !== null && typeof destination !== 'string')
  ) {
    return [];
  }
  const where: string[] = [];
  const params: string[] = [];
  if (origin !== null) {
    where.push('f.origin = ?');
    params.push(origin);
  }
  if (destination !== null) {
    where.push('f.destination = ?');
    params.push(destination);
  }
  const route = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
  if (sql.get(`SELECT 1 FROM flights f ${route} LIMIT 1`, ...params) === undefined) return [];
  const key = pyDictKey(date);
  if (key === undefined) return [];
  const rows = sql.all(
    `SELECT f.*, d.available_seats, d.prices FROM flights f
     JOIN flight_dates d ON d.flight_number = f.flight_number AND d.date = ? AND d.status = 'available'
     ${route} ORDER BY f.pos`,
    key,
    ...params,
  );
  if (leaveAfter === undefined) return rows;
  return rows.filter((r) => comparePyStr(text(r, 'scheduled_departure_time_est'), leaveAfter) >= 0);
}

export const searchDirectFlight: ToolSpec = {
  name: 'search_direct_flight',
  kind: 'read',
  params: [originParam, destinationParam, dateParam],
  description:
    'Search non-stop flights from one airport to another on a date. Lists only flights that can still be booked ' +
    'that day, with seats left and prices per cabin.',
  run({ sql }, { origin, destination, date }) {
    return searchDirect(sql, date ?? null, origin ?? null, destination ?? null).map((r) =>
      directFlight(r, null),
    );
  },
};

/** Python's `int(s)` on a short string. */
function pyInt(s: string): number {
  if (!/^\s*[+-]?\d(_?\d)*\s*$/.test(s))
    throw new ToolError(`invalid literal for int() with base 10: '${s}'`);
  return Number(s.trim().replace(/_/g, ''));
}

/**
 * The date of a second leg. `parity`: τ²'s `f"2024-05-{int(date[-2:]) + 1}"` when the first leg arrives the next
 * day (no zero padding, month fixed: `2024-05-06` → `2024-05-7`, a date no flight has). `fixed`: the real next
 * calendar day, zero padded.
 */
function secondLegDate(date: string, arrival: string, semantics: Semantics): string {
  if (!arrival.includes('+1')) return date;
  if (semantics === 'parity') return `2024-05-${pyInt(date.slice(-2)) + 1}`;
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return `2024-05-${pyInt(date.slice(-2)) + 1}`;
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

export const searchOnestopFlight: ToolSpec = {
  name: 'search_onestop_flight',
  kind: 'read',
  params: [originParam, destinationParam, dateParam],
  description:
    'Search connections with one stop from one airport to another, leaving on a date: pairs of flights where the ' +
    'second leaves the stopover airport after the first lands.',
  run({ sql, semantics }, { origin, destination, date }) {
    const results: PyModel[][] = [];
    const day = date ?? null;
    for (const leg1 of searchDirect(sql, day, origin ?? null, null)) {
      // the date is a key of the flight's dates here, hence a str
      const first = directFlight(leg1, day);
      const arrival = text(leg1, 'scheduled_arrival_time_est');
      const date2 = secondLegDate(pyStr(day), arrival, semantics);
      const leaveAfter = semantics === 'parity' ? arrival : arrival.replace('+1', '');
      for (const leg2 of searchDirect(
        sql,
        date2,
        text(leg1, 'destination'),
        destination ?? null,
        leaveAfter,
      )) {
        results.push([first, directFlight(leg2, date2)]);
      }
    }
    return results;
  },
};

export const getFlightStatus: ToolSpec = {
  name: 'get_flight_status',
  kind: 'read',
  params: [
    stringParam('flight_number', "The flight number, for example 'HAT001'."),
    stringParam('date', "The date of the flight as 'YYYY-MM-DD'."),
  ],
  description:
    "The status of a flight on a date: 'available' (bookable), 'on time', 'delayed', 'flying', 'landed' or 'cancelled'.",
  run({ sql }, { flight_number, date }) {
    return text(getFlightInstance(sql, flight_number ?? null, date ?? null), 'status');
  },
};
