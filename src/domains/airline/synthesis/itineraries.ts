import type { Rng } from '../../../core/rng.js';
import type { Cabin } from '../vocabulary.js';
import type { RoutedLeg } from './rules.js';
import type { AirlineReader, Itinerary } from './views.js';

/**
 * Drawing new flights for a booking or a flight change: bookable dates, and an itinerary among what the searches
 * list, biased towards those a user can name (the cheapest, the earliest) so that descriptions are often unique.
 */

/** The dates a new flight may be drawn on (the DB's bookable dates after the fixed clock, leaving room for returns). */
export const BOOKABLE_DATES: readonly string[] = Array.from(
  { length: 14 },
  (_, i) => `2024-05-${String(16 + i).padStart(2, '0')}`,
);

/** `date` moved by `days` (within May 2024), or `undefined` outside the bookable dates. */
export function shiftDate(date: string, days: number): string | undefined {
  const day = Number(date.slice(8, 10)) + days;
  const out = `2024-05-${String(day).padStart(2, '0')}`;
  return BOOKABLE_DATES.includes(out) ? out : undefined;
}

/** The legs of an itinerary with their routes. */
export function routedLegs(it: Itinerary): RoutedLeg[] {
  return it.legs.map((l) => ({
    flight_number: l.flight.flight_number,
    origin: l.flight.origin,
    destination: l.flight.destination,
    date: l.date,
  }));
}

const cost = (it: Itinerary, cabin: Cabin): number => it.legs.reduce((s, l) => s + l.flight.prices[cabin], 0);
const departure = (it: Itinerary): string => it.legs[0]?.flight.scheduled_departure_time_est ?? '';

/**
 * An itinerary from `origin` to `destination` on `date` with `stops` stops and at least `passengers` seats in
 * `cabin` on every leg, other than `exclude` (flight numbers joined by `,`): half the time the cheapest, a fifth of
 * the time the earliest, else any.
 */
export function drawItinerary(
  rng: Rng,
  reader: AirlineReader,
  route: { origin: string; destination: string; date: string; stops: 0 | 1 },
  cabin: Cabin,
  passengers: number,
  exclude?: string,
): Itinerary | undefined {
  const key = (it: Itinerary) => it.legs.map((l) => `${l.flight.flight_number}@${l.date}`).join(',');
  const open = reader
    .search(route.origin, route.destination, route.date, route.stops)
    .filter(
      (it) => key(it) !== exclude && it.legs.every((l) => l.flight.available_seats[cabin] >= passengers),
    );
  if (open.length === 0) return undefined;
  const roll = rng.float();
  if (roll < 0.5) {
    const lowest = Math.min(...open.map((it) => cost(it, cabin)));
    return open.find((it) => cost(it, cabin) === lowest);
  }
  if (roll < 0.7) return [...open].sort((a, b) => (departure(a) < departure(b) ? -1 : 1))[0];
  return rng.pick(open);
}

/** The key {@link drawItinerary} excludes by: flight numbers and dates joined by `,`. */
export function legKey(legs: readonly { flight_number: string; date: string }[]): string {
  return legs.map((l) => `${l.flight_number}@${l.date}`).join(',');
}
