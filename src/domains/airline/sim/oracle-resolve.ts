import {
  matchPassengers,
  matchReservations,
  matchSegments,
  pickItineraries,
} from '../synthesis/references.js';
import type { ItineraryRef, PassengerRef, ReservationRef, SegmentRef } from '../synthesis/requests.js';
import { passengerPool } from '../synthesis/resolve.js';
import type {
  Itinerary,
  PassengerView,
  ReservationFlightView,
  ReservationView,
  UserView,
} from '../synthesis/views.js';
import type { Cabin } from '../vocabulary.js';

export { matchPayments } from '../synthesis/references.js';

/**
 * How the airline oracle agent resolves the customer's descriptions through what its tools returned
 * (docs/airline.md, "Scripted roles"), with the matchers the synthesis checks uniqueness with
 * (`synthesis/references.ts`) applied to the tool results the agent read: a reservation among the reservations it
 * read, an itinerary among a search's results, a passenger on a reservation or among the user and the saved ones.
 */

/** The reservations among `read` that `ref` describes. */
export function reservationsMatching(
  ref: ReservationRef,
  read: readonly ReservationView[],
): ReservationView[] {
  return matchReservations(ref, { reservations: read });
}

/** What to search for an itinerary: `stops` 0 (search_direct_flight) or 1 (search_onestop_flight). */
export interface SearchQuery {
  readonly stops: 0 | 1;
  readonly origin: string;
  readonly destination: string;
  readonly date: string;
}

/** The search that lists `ref`'s itinerary; `from`/`to`: the IATA codes of its leg (for a ref by flight numbers). */
export function searchFor(ref: ItineraryRef, from: string, to: string): SearchQuery {
  if (ref.strategy === 'numbers')
    return {
      stops: ref.flights.length > 1 ? 1 : 0,
      origin: from,
      destination: to,
      date: ref.flights[0]?.date ?? '',
    };
  return { stops: ref.stops, origin: ref.origin.iata, destination: ref.destination.iata, date: ref.date };
}

export function searchKey(q: SearchQuery): string {
  return `${q.stops}:${q.origin}:${q.destination}:${q.date}`;
}

/** The price per passenger of an itinerary in `cabin` (the sum of its flights' prices). */
export function itineraryPrice(it: Itinerary, cabin: Cabin): number {
  return it.legs.reduce((sum, leg) => sum + leg.flight.prices[cabin], 0);
}

/** The itineraries of a search's results that `ref` describes (`pax`: passengers who need a seat). */
export function itinerariesMatching(
  ref: ItineraryRef,
  found: readonly Itinerary[],
  pax: number,
): Itinerary[] {
  return pickItineraries(ref, found, pax);
}

/** A booking's passenger: among the user and their saved passengers, or spelled out (one match, else undefined). */
export function bookingPassenger(ref: PassengerRef, user: UserView): PassengerView | undefined {
  const hits = matchPassengers(ref, passengerPool({ user }), user);
  return hits.length === 1 ? hits[0] : undefined;
}

/** A passenger on `reservation` (one named by full details must be on it as named), or undefined. */
export function passengerOnBoard(
  ref: PassengerRef,
  reservation: ReservationView,
  user: UserView,
): PassengerView | undefined {
  const hits = matchPassengers(ref, reservation.passengers, user);
  const p = hits.length === 1 ? hits[0] : undefined;
  return p !== undefined &&
    reservation.passengers.some(
      (q) => q.first_name === p.first_name && q.last_name === p.last_name && q.dob === p.dob,
    )
    ? p
    : undefined;
}

/** The flight of `reservation` that `ref` describes, when exactly one matches. */
export function segmentOf(ref: SegmentRef, reservation: ReservationView): ReservationFlightView | undefined {
  const hits = matchSegments(ref, reservation);
  return hits.length === 1 ? hits[0] : undefined;
}
