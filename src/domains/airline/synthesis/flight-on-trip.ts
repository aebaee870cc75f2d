import { dateText } from './fuzzify.js';
import type { ReservationRef, SegmentRef } from './references.js';

/**
 * How the customer names a flight of one of their reservations together with that reservation (first person; the
 * scenario turns it into the second). Usually the flight's phrase, "on", then the reservation's: "my flight from
 * Denver to Atlanta on reservation ABC123". When the flight is named by its airports and the reservation by the
 * same route, the route is said once: "my Denver to Atlanta flight on May 3" for a trip named by route and date,
 * "the flight on the Denver to Atlanta trip I booked for Mia Li" for one named by passenger and route.
 * `reservationText`: how the reservation is said on its own (its phrase, or "reservation ABC123" for an id).
 */
export function flightOnTrip(
  flight: SegmentRef,
  reservation: ReservationRef,
  reservationText: string,
): string {
  return sameRouteText(flight, reservation) ?? `${flight.phrase} on ${reservationText}`;
}

/**
 * The single-route wording of {@link flightOnTrip} when the flight's airports are the reservation's route, else
 * undefined. The oracle agent accepts it as naming both the flight and the reservation.
 */
export function sameRouteText(flight: SegmentRef, reservation: ReservationRef): string | undefined {
  if (flight.strategy !== 'leg' || reservation.strategy === 'id') return undefined;
  if (reservation.origin === undefined || reservation.destination === undefined) return undefined;
  if (
    flight.origin.iata !== reservation.origin.iata ||
    flight.destination.iata !== reservation.destination.iata
  )
    return undefined;
  if (reservation.strategy === 'route_date')
    return `my ${reservation.origin.city} to ${reservation.destination.city} flight on ${dateText(reservation.date)}`;
  return `the flight on ${reservation.phrase}`;
}
