import type { Rng } from '../../../core/rng.js';
import { quotaList } from '../../shared/sandbox/sampling.js';
import { AIRPORT_CODES, blockMinutes } from './airports.js';
import { clockTime, MINUTES_PER_DAY } from './times.js';

/** One scheduled flight: it flies every date of the calendar at the same times. */
export interface ScheduledFlight {
  /** `HAT001`, `HAT002`, … (τ²'s format). */
  readonly flightNumber: string;
  readonly origin: string;
  readonly destination: string;
  /** Minutes after midnight, on the hour. */
  readonly departure: number;
  /** Block time in minutes (30-minute steps). */
  readonly duration: number;
  /** `"HH:MM:SS"`. */
  readonly departureText: string;
  /** `"HH:MM:SS"`, or `"HH:MM:SS+1"` when the flight lands the next day. */
  readonly arrivalText: string;
  /** True when it lands the day after it leaves. */
  readonly overnight: boolean;
}

/** τ²'s network size: 300 flights on 108 one-way routes, 54 airport pairs flown both ways. */
export const FLIGHT_COUNT = 300;
const AIRPORT_PAIRS = 54;

/** Flights per one-way route and how many of τ²'s 108 routes have that many (22 have 1, 30 have 2, …). */
const FLIGHTS_PER_ROUTE = [1, 2, 3, 4, 5, 6, 9];
const ROUTES_WITH = [22, 30, 25, 20, 6, 4, 1];

/**
 * τ²-like flight schedules from `rng` alone: 54 airport pairs (a random spanning tree, so every airport is
 * reachable, plus pairs from the least connected airports), each flown both ways; 300 flights spread over the 108 routes with τ²'s counts per
 * route; departures on the hour, uniformly over the day; block times from {@link blockMinutes}. Flight numbers
 * follow a shuffled order, so numbers say nothing about routes.
 */
export function scheduleFlights(rng: Rng): ScheduledFlight[] {
  const routes = pickRoutes(rng);
  const counts = quotaList(rng, routes.length, FLIGHTS_PER_ROUTE, ROUTES_WITH);
  const drafts: { origin: string; destination: string; departure: number }[] = [];
  routes.forEach(([origin, destination], i) => {
    const hours = rng.sample(
      Array.from({ length: 24 }, (_, h) => h),
      counts[i] as number,
    );
    for (const h of hours) drafts.push({ origin, destination, departure: h * 60 });
  });
  return rng.shuffle(drafts).map((d, i) => {
    const duration = blockMinutes(d.origin, d.destination);
    const arrival = d.departure + duration;
    return {
      flightNumber: `HAT${String(i + 1).padStart(3, '0')}`,
      origin: d.origin,
      destination: d.destination,
      departure: d.departure,
      duration,
      departureText: clockTime(d.departure),
      arrivalText: clockTime(arrival),
      overnight: arrival >= MINUTES_PER_DAY,
    };
  });
}

/** 108 one-way routes: both directions of 54 airport pairs that connect all airports. */
function pickRoutes(rng: Rng): [string, string][] {
  const airports = rng.shuffle(AIRPORT_CODES);
  const pairs = new Set<string>();
  const key = (a: string, b: string) => (a < b ? `${a}-${b}` : `${b}-${a}`);
  for (let i = 1; i < airports.length; i++) {
    pairs.add(key(airports[i] as string, rng.pick(airports.slice(0, i))));
  }
  // the other pairs start at an airport with the fewest pairs, so that no airport is left with one route
  // (τ²'s airports each see 18–43 flights)
  const degree = new Map(airports.map((a) => [a, 0]));
  for (const pair of pairs) for (const a of pair.split('-')) degree.set(a, (degree.get(a) ?? 0) + 1);
  while (pairs.size < AIRPORT_PAIRS) {
    const fewest = Math.min(...degree.values());
    const a = rng.pick(airports.filter((x) => degree.get(x) === fewest));
    const b = rng.pick(airports.filter((x) => x !== a && !pairs.has(key(a, x))));
    pairs.add(key(a, b));
    degree.set(a, (degree.get(a) ?? 0) + 1);
    degree.set(b, (degree.get(b) ?? 0) + 1);
  }
  const routes: [string, string][] = [];
  for (const pair of [...pairs].sort()) {
    const [a, b] = pair.split('-') as [string, string];
    routes.push([a, b], [b, a]);
  }
  return rng.shuffle(routes);
}
