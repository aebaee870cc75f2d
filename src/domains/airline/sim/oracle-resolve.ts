import type {
  DayPart,
  ItineraryRef,
  PassengerRef,
  PaymentRef,
  ReservationRef,
  SegmentRef,
} from '../synthesis/requests.js';
import type {
  Itinerary,
  PassengerView,
  PaymentMethodView,
  ReservationFlightView,
  ReservationView,
  UserView,
} from '../synthesis/views.js';
import type { Cabin } from '../vocabulary.js';

/**
 * How the airline oracle agent resolves the customer's descriptions through what its tools returned
 * (docs/airline.md, "Scripted roles"): a reservation among the reservations it read, an itinerary among a search's
 * results, a payment method in the profile, a passenger on a reservation or among the saved ones. Every function
 * returns all candidates, so the caller sees when a description matches none or several.
 */

/** The reservations among `read` that `ref` describes. */
export function matchReservations(ref: ReservationRef, read: readonly ReservationView[]): ReservationView[] {
  switch (ref.strategy) {
    case 'id':
      return read.filter((r) => r.reservation_id === ref.reservation_id);
    case 'route_date':
      return read.filter(
        (r) =>
          r.origin === ref.origin.iata &&
          r.destination === ref.destination.iata &&
          r.flights[0]?.date === ref.date,
      );
    case 'passenger':
      return read.filter(
        (r) =>
          r.passengers.some((p) => p.first_name === ref.first_name && p.last_name === ref.last_name) &&
          (ref.origin === undefined || r.origin === ref.origin.iata) &&
          (ref.destination === undefined || r.destination === ref.destination.iata),
      );
  }
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

/** The part of the day a departure time ("HH:MM:SS") falls in. */
export function dayPart(time: string): DayPart {
  const hour = Number(time.slice(0, 2));
  if (hour >= 5 && hour < 12) return 'morning';
  if (hour >= 12 && hour < 17) return 'afternoon';
  if (hour >= 17 && hour < 21) return 'evening';
  return 'night';
}

function departure(it: Itinerary): string {
  return it.legs[0]?.flight.scheduled_departure_time_est ?? '';
}

/** The price per passenger of an itinerary in `cabin` (the sum of its flights' prices). */
export function itineraryPrice(it: Itinerary, cabin: Cabin): number {
  return it.legs.reduce((sum, leg) => sum + leg.flight.prices[cabin], 0);
}

/** The itineraries of a search's results that `ref` describes (`pax`: passengers who need a seat). */
export function matchItineraries(ref: ItineraryRef, found: readonly Itinerary[], pax: number): Itinerary[] {
  switch (ref.strategy) {
    case 'numbers':
      return found.filter(
        (it) =>
          it.legs.length === ref.flights.length &&
          it.legs.every(
            (leg, i) =>
              leg.flight.flight_number === ref.flights[i]?.flight_number && leg.date === ref.flights[i]?.date,
          ),
      );
    case 'time_of_day':
      return found.filter((it) => dayPart(departure(it)) === ref.part);
    case 'earliest': {
      const first = found.reduce<string | undefined>(
        (m, it) => (m === undefined || departure(it) < m ? departure(it) : m),
        undefined,
      );
      return found.filter((it) => departure(it) === first);
    }
    case 'cheapest': {
      const seated = found.filter((it) =>
        it.legs.every((leg) => leg.flight.available_seats[ref.cabin] >= pax),
      );
      const low = Math.min(...seated.map((it) => itineraryPrice(it, ref.cabin)));
      return seated.filter((it) => itineraryPrice(it, ref.cabin) === low);
    }
  }
}

/** The payment methods of the profile that `ref` describes. */
export function matchPayments(ref: PaymentRef, user: UserView): PaymentMethodView[] {
  const methods = Object.values(user.payment_methods);
  switch (ref.strategy) {
    case 'id':
      return methods.filter((m) => m.id === ref.payment_id);
    case 'brand':
      return methods.filter(
        (m) => m.source === 'credit_card' && m.brand?.toLowerCase() === ref.brand.toLowerCase(),
      );
    case 'last_four':
      return methods.filter((m) => m.source === 'credit_card' && m.last_four === ref.last_four);
    case 'kind':
      return methods.filter((m) => m.source === ref.source);
    case 'richest_gift_card': {
      const cards = methods.filter((m) => m.source === 'gift_card');
      const top = Math.max(...cards.map((m) => m.amount ?? 0));
      return cards.filter((m) => m.amount === top);
    }
  }
}

/**
 * The passenger `ref` describes: by name among `pool` (a reservation's passengers, then the saved ones), the user
 * themselves, or the details spelled out.
 */
export function matchPassenger(
  ref: PassengerRef,
  pool: readonly PassengerView[],
  user: UserView,
): PassengerView | undefined {
  switch (ref.strategy) {
    case 'name':
      return (
        pool.find((p) => p.first_name === ref.first_name && p.last_name === ref.last_name) ??
        user.saved_passengers.find((p) => p.first_name === ref.first_name && p.last_name === ref.last_name)
      );
    case 'relation':
      return { first_name: user.name.first_name, last_name: user.name.last_name, dob: user.dob };
    case 'details':
      return { first_name: ref.first_name, last_name: ref.last_name, dob: ref.dob };
  }
}

/** The flight of `reservation` that `ref` describes. */
export function matchSegment(
  ref: SegmentRef,
  reservation: ReservationView,
): ReservationFlightView | undefined {
  return ref.strategy === 'number'
    ? reservation.flights.find((f) => f.flight_number === ref.flight_number && f.date === ref.date)
    : reservation.flights.find((f) => f.origin === ref.origin.iata && f.destination === ref.destination.iata);
}
