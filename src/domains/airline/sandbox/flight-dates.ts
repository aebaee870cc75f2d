import type { PyDict } from '../../../core/py-value.js';
import { pyDict } from '../../../core/py-value.js';
import type { Rng } from '../../../core/rng.js';
import type { Cabin } from '../vocabulary.js';
import type { ScheduledFlight } from './schedule.js';
import { CLOCK_DAY, CLOCK_MINUTE, DATE_COUNT, dateKey, isoTime, MINUTES_PER_DAY } from './times.js';

/**
 * Per-date statuses of a flight around τ²'s clock (2024-05-15 15:00), in the shapes of τ²'s `FlightDateStatus`:
 * before the clock's date a flight has landed (actual times) or was cancelled; on the clock's date it has landed,
 * is flying, is on time or is delayed, depending on its times against 15:00; after it, every date is `available`
 * with seats and prices per cabin.
 */

/** Share of past flight dates that the airline cancelled (τ²: 373 of 4200, 8.9 %). */
export const CANCELLED_SHARE = 0.09;
/** Share of the clock date's not-yet-departed flights that are delayed (τ²: 41 of 98). */
export const DELAYED_SHARE = 0.42;
/** Delays of delayed flights, in minutes (τ²: 42–205). */
const DELAY_MINUTES: readonly [number, number] = [40, 210];
/** Seats left per cabin on a bookable date (τ²: 0–20, uniform). */
const SEATS: readonly [number, number] = [0, 20];
/** Price ranges per cabin in whole dollars (τ²: 50–100, 100–200, 200–500), in τ²'s key order. */
export const CABIN_PRICES: Readonly<Record<Cabin, readonly [number, number]>> = {
  basic_economy: [50, 100],
  economy: [100, 200],
  business: [200, 500],
};
const CABIN_KEYS = Object.keys(CABIN_PRICES) as Cabin[];

/** The `dates` dict of a flight: 30 dates from 2024-05-01, each with its status. */
export function flightDates(rng: Rng, flight: ScheduledFlight): PyDict {
  const dates: PyDict = new Map();
  for (let day = 0; day < DATE_COUNT; day++) {
    dates.set(dateKey(day), dateStatus(rng, flight, day));
  }
  return dates;
}

function dateStatus(rng: Rng, flight: ScheduledFlight, day: number): PyDict {
  if (day > CLOCK_DAY) return available(rng);
  if (day < CLOCK_DAY && rng.chance(CANCELLED_SHARE)) return pyDict([['status', 'cancelled']]);
  // departure within ±30 min of schedule; arrival moves with it, within another ±30 min (τ²'s spreads)
  const departureShift = rng.int(-30, 30);
  const arrivalShift = departureShift + rng.int(-30, 30);
  const departure = day * MINUTES_PER_DAY + flight.departure;
  const arrival = departure + flight.duration;
  const [depart, land] = [departure + departureShift, arrival + arrivalShift];
  if (day < CLOCK_DAY || land <= CLOCK_MINUTE) {
    return timed('landed', 'actual_departure_time_est', depart, 'actual_arrival_time_est', land);
  }
  if (depart <= CLOCK_MINUTE) {
    return timed('flying', 'actual_departure_time_est', depart, 'estimated_arrival_time_est', land);
  }
  if (rng.chance(DELAYED_SHARE)) {
    const delayed = departure + rng.int(...DELAY_MINUTES);
    return timed(
      'delayed',
      'estimated_departure_time_est',
      delayed,
      'estimated_arrival_time_est',
      delayed + flight.duration,
    );
  }
  return timed('on time', 'estimated_departure_time_est', depart, 'estimated_arrival_time_est', land);
}

function timed(status: string, first: string, from: number, second: string, to: number): PyDict {
  return pyDict([
    ['status', status],
    [first, isoTime(from)],
    [second, isoTime(to)],
  ]);
}

function available(rng: Rng): PyDict {
  const seats: PyDict = new Map();
  const prices: PyDict = new Map();
  for (const cabin of CABIN_KEYS) seats.set(cabin, BigInt(rng.int(...SEATS)));
  for (const cabin of CABIN_KEYS) prices.set(cabin, BigInt(rng.int(...CABIN_PRICES[cabin])));
  return pyDict([
    ['status', 'available'],
    ['available_seats', seats],
    ['prices', prices],
  ]);
}
