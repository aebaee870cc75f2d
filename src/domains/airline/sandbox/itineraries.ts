import type { Rng } from '../../../core/rng.js';
import type { ScheduledFlight } from './schedule.js';

/**
 * Itineraries a reservation can hold, as τ²'s search tools find them: a direct flight, or two flights where the
 * second leaves the stopover on the first's arrival date (the next day after an overnight first leg) at a
 * scheduled time not before the first's arrival — compared as strings, `"+1"` included, exactly as τ²'s
 * `search_onestop_flight` does.
 */
export interface Itinerary {
  readonly origin: string;
  readonly destination: string;
  readonly legs: readonly ScheduledFlight[];
  /** Day offset of each leg from the itinerary's date (0 or 1). */
  readonly legDays: readonly number[];
}

/** The days after the itinerary's date on which it lands (0 or 1 for direct, up to 2 for one stop). */
export function arrivalDay(it: Itinerary): number {
  const last = it.legs.length - 1;
  return (it.legDays[last] as number) + (it.legs[last]?.overnight ? 1 : 0);
}

/** One-stop pairs by τ²'s rule; the connection never returns to the origin. */
export function connects(first: ScheduledFlight, second: ScheduledFlight): boolean {
  return (
    first.destination === second.origin &&
    second.destination !== first.origin &&
    second.departureText >= first.arrivalText
  );
}

/** Direct and one-stop itineraries of a schedule, indexed by `"ORIGIN-DESTINATION"`. */
export class ItineraryIndex {
  readonly direct: readonly Itinerary[];
  readonly oneStop: readonly Itinerary[];
  readonly #byRoute = new Map<string, { direct: Itinerary[]; oneStop: Itinerary[] }>();
  readonly #outbound = new Map<string, readonly Itinerary[]>();

  constructor(flights: readonly ScheduledFlight[]) {
    const direct: Itinerary[] = flights.map((f) => ({
      origin: f.origin,
      destination: f.destination,
      legs: [f],
      legDays: [0],
    }));
    const oneStop: Itinerary[] = [];
    for (const first of flights) {
      for (const second of flights) {
        if (!connects(first, second)) continue;
        oneStop.push({
          origin: first.origin,
          destination: second.destination,
          legs: [first, second],
          legDays: [0, first.overnight ? 1 : 0],
        });
      }
    }
    this.direct = direct;
    this.oneStop = oneStop;
    for (const it of direct) this.#route(it.origin, it.destination).direct.push(it);
    for (const it of oneStop) this.#route(it.origin, it.destination).oneStop.push(it);
  }

  #route(origin: string, destination: string) {
    const key = `${origin}-${destination}`;
    let entry = this.#byRoute.get(key);
    if (entry === undefined) {
      entry = { direct: [], oneStop: [] };
      this.#byRoute.set(key, entry);
    }
    return entry;
  }

  /** The itineraries from `origin` to `destination` with `stops` stops (0 or 1). */
  between(origin: string, destination: string, stops: number): readonly Itinerary[] {
    const entry = this.#byRoute.get(`${origin}-${destination}`);
    if (entry === undefined) return [];
    return stops === 0 ? entry.direct : entry.oneStop;
  }

  /**
   * A trip of `outStops` stops out and, for a round trip, `backStops` stops back (`undefined` for one way),
   * uniform over the outbound itineraries that have a way back of that kind. @throws {Error} when none has.
   */
  pickTrip(rng: Rng, outStops: number, backStops: number | undefined): [Itinerary, Itinerary | undefined] {
    const out = rng.pick(this.#outboundPool(outStops, backStops));
    if (backStops === undefined) return [out, undefined];
    return [out, rng.pick(this.between(out.destination, out.origin, backStops))];
  }

  #outboundPool(outStops: number, backStops: number | undefined): readonly Itinerary[] {
    const key = `${outStops}/${backStops}`;
    let pool = this.#outbound.get(key);
    if (pool === undefined) {
      const all = outStops === 0 ? this.direct : this.oneStop;
      pool =
        backStops === undefined
          ? all
          : all.filter((it) => this.between(it.destination, it.origin, backStops).length > 0);
      if (pool.length === 0)
        throw new Error(`sandbox: no ${outStops}-stop trip with a ${backStops}-stop way back`);
      this.#outbound.set(key, pool);
    }
    return pool;
  }
}
