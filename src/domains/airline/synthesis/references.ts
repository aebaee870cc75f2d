import type { Cabin } from '../vocabulary.js';
import type {
  AirlineReader,
  Itinerary,
  PassengerView,
  PaymentMethodView,
  ReservationFlightView,
  ReservationView,
  UserView,
} from './views.js';

/**
 * Fuzzy references of the airline domain (docs/airline.md, "References"): how a user names a reservation, a
 * flight, a payment method or a passenger without its id. Every reference carries what an agent needs to resolve
 * it through the airline tools (`get_user_details`, `get_reservation_details`, `search_direct_flight`,
 * `search_onestop_flight`, `list_all_airports`) and the `phrase` the user says for it. A reference is kept only
 * when that resolution yields exactly the intended entity.
 */

/** Who the user is: τ²'s airline policy authenticates by user id (the tools look users up by id only). */
export interface UserRef {
  readonly strategy: 'user_id';
  readonly user_id: string;
}

/** An airport as a user names it: its city (as `list_all_airports` lists it) and its IATA code. */
export interface Place {
  readonly iata: string;
  readonly city: string;
}

/**
 * One of the user's reservations: its id; its route and departure date ("my Boston to Seattle trip on the 18th":
 * the reservation's `origin`, `destination` and its first flight's `date`); or a passenger on it, optionally
 * with its route ("the trip I booked for Mia Li", "… from Boston to Seattle"). Matched over every reservation in
 * the user's `reservations` list, cancelled ones included.
 */
export type ReservationRef =
  | { readonly strategy: 'id'; readonly reservation_id: string; readonly phrase: string }
  | {
      readonly strategy: 'route_date';
      readonly origin: Place;
      readonly destination: Place;
      /** `YYYY-MM-DD`, the first flight's date. */
      readonly date: string;
      readonly phrase: string;
    }
  | {
      readonly strategy: 'passenger';
      readonly first_name: string;
      readonly last_name: string;
      readonly origin?: Place;
      readonly destination?: Place;
      readonly phrase: string;
    };

/** Parts of the day a flight departs in (scheduled departure, EST): [05,12), [12,17), [17,21), else night. */
export type DayPart = 'morning' | 'afternoon' | 'evening' | 'night';

/** One flight of an itinerary, as the tools take it. */
export interface FlightLeg {
  readonly flight_number: string;
  readonly date: string;
}

/**
 * A new itinerary from `origin` to `destination` departing on `date` (one flight when `stops` is 0, two when 1),
 * among what `search_direct_flight` / `search_onestop_flight` list: by flight numbers; by the part of the day
 * its first flight departs; the cheapest in a cabin (the sum of the legs' prices, among itineraries with at least
 * as many seats left in that cabin as passengers on every leg); or the earliest departure.
 */
export type ItineraryRef =
  | { readonly strategy: 'numbers'; readonly flights: readonly FlightLeg[]; readonly phrase: string }
  | {
      readonly strategy: 'time_of_day';
      readonly origin: Place;
      readonly destination: Place;
      readonly date: string;
      readonly stops: 0 | 1;
      readonly part: DayPart;
      readonly phrase: string;
    }
  | {
      readonly strategy: 'cheapest';
      readonly origin: Place;
      readonly destination: Place;
      readonly date: string;
      readonly stops: 0 | 1;
      readonly cabin: Cabin;
      readonly phrase: string;
    }
  | {
      readonly strategy: 'earliest';
      readonly origin: Place;
      readonly destination: Place;
      readonly date: string;
      readonly stops: 0 | 1;
      readonly phrase: string;
    };

/**
 * A flight already on a reservation: by number and date, or by the airports of that leg within the request's
 * reservation ("my flight from Boston to Chicago").
 */
export type SegmentRef =
  | {
      readonly strategy: 'number';
      readonly flight_number: string;
      readonly date: string;
      readonly phrase: string;
    }
  | {
      readonly strategy: 'leg';
      readonly origin: Place;
      readonly destination: Place;
      readonly phrase: string;
    };

/**
 * One of the user's payment methods (`get_user_details`' `payment_methods`): its id; a credit card by brand or by
 * its last four digits; the only method of a kind ("my gift card", "my travel certificate"); or the gift card
 * with the largest balance.
 */
export type PaymentRef =
  | { readonly strategy: 'id'; readonly payment_id: string; readonly phrase: string }
  | { readonly strategy: 'brand'; readonly brand: string; readonly phrase: string }
  | { readonly strategy: 'last_four'; readonly last_four: string; readonly phrase: string }
  | {
      readonly strategy: 'kind';
      readonly source: 'credit_card' | 'gift_card' | 'certificate';
      readonly phrase: string;
    }
  | { readonly strategy: 'richest_gift_card'; readonly phrase: string };

/**
 * A passenger: by name (on the reservation, or among the user's saved passengers, whose date of birth the agent
 * takes from the profile); by relation to the user (`self`: the user's own name and date of birth); or spelled
 * out in full (a new passenger).
 */
export type PassengerRef =
  | {
      readonly strategy: 'name';
      readonly first_name: string;
      readonly last_name: string;
      readonly phrase: string;
    }
  | { readonly strategy: 'relation'; readonly relation: 'self'; readonly phrase: string }
  | {
      readonly strategy: 'details';
      readonly first_name: string;
      readonly last_name: string;
      readonly dob: string;
      readonly phrase: string;
    };

// ---- resolution against what the read tools show ------------------------------------------------------------

/** What the agent can see of the user: the profile, their reservations and the tools to search flights. */
export interface AirlineState {
  readonly user: UserView;
  readonly reservations: readonly ReservationView[];
  readonly reader: AirlineReader;
  /** Each flight's status on its date (`get_flight_status`), in the reservation's flight order. */
  statuses(reservation: ReservationView): readonly string[];
}

/** The part of the day a scheduled departure (`HH:MM:SS`) falls in. */
export function dayPart(departure: string): DayPart {
  const hour = Number(departure.slice(0, 2));
  if (hour >= 5 && hour < 12) return 'morning';
  if (hour >= 12 && hour < 17) return 'afternoon';
  if (hour >= 17 && hour < 21) return 'evening';
  return 'night';
}

const sameName = (p: { first_name: string; last_name: string }, first: string, last: string): boolean =>
  p.first_name.toLowerCase() === first.toLowerCase() && p.last_name.toLowerCase() === last.toLowerCase();

/** The user's reservations a reference matches. */
export function matchReservations(
  ref: ReservationRef,
  state: Pick<AirlineState, 'reservations'>,
): ReservationView[] {
  return state.reservations.filter((r) => {
    if (ref.strategy === 'id') return r.reservation_id === ref.reservation_id;
    if (ref.strategy === 'route_date')
      return (
        r.origin === ref.origin.iata &&
        r.destination === ref.destination.iata &&
        r.flights[0]?.date === ref.date
      );
    return (
      r.passengers.some((p) => sameName(p, ref.first_name, ref.last_name)) &&
      (ref.origin === undefined || r.origin === ref.origin.iata) &&
      (ref.destination === undefined || r.destination === ref.destination.iata)
    );
  });
}

/** The itineraries (flight lists) a reference matches; `passengers` is how many seats the cheapest one needs. */
export function matchItineraries(
  ref: ItineraryRef,
  reader: AirlineReader,
  passengers: number,
): FlightLeg[][] {
  if (ref.strategy === 'numbers') return [ref.flights.map((f) => ({ ...f }))];
  const found = reader.search(ref.origin.iata, ref.destination.iata, ref.date, ref.stops);
  return pickItineraries(ref, found, passengers).map((it) =>
    it.legs.map((l) => ({ flight_number: l.flight.flight_number, date: l.date })),
  );
}

/**
 * The itineraries among a search's results (`found`) a reference matches; `passengers` is how many seats the
 * cheapest one needs. (Also used by the oracle agent on the search results it read.)
 */
export function pickItineraries(
  ref: ItineraryRef,
  found: readonly Itinerary[],
  passengers: number,
): Itinerary[] {
  const departure = (it: Itinerary) => it.legs[0]?.flight.scheduled_departure_time_est ?? '';
  if (ref.strategy === 'numbers')
    return found.filter(
      (it) =>
        it.legs.length === ref.flights.length &&
        it.legs.every(
          (l, i) =>
            l.flight.flight_number === ref.flights[i]?.flight_number && l.date === ref.flights[i]?.date,
        ),
    );
  if (ref.strategy === 'time_of_day') return found.filter((it) => dayPart(departure(it)) === ref.part);
  if (ref.strategy === 'earliest') {
    const first = found.map(departure).sort()[0];
    return found.filter((it) => departure(it) === first);
  }
  const cabin = ref.cabin;
  const open = found.filter((it) => it.legs.every((l) => l.flight.available_seats[cabin] >= passengers));
  const cost = (it: Itinerary) => it.legs.reduce((s, l) => s + l.flight.prices[cabin], 0);
  const lowest = Math.min(...open.map(cost));
  return open.filter((it) => cost(it) === lowest);
}

/** The flights of a reservation a reference matches. */
export function matchSegments(ref: SegmentRef, reservation: ReservationView): ReservationFlightView[] {
  return reservation.flights.filter((f) =>
    ref.strategy === 'number'
      ? f.flight_number === ref.flight_number && f.date === ref.date
      : f.origin === ref.origin.iata && f.destination === ref.destination.iata,
  );
}

/** The user's payment methods a reference matches. */
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
      const most = Math.max(...cards.map((m) => m.amount ?? 0));
      return cards.filter((m) => (m.amount ?? 0) === most);
    }
  }
}

/**
 * The distinct passengers (name and date of birth) a reference matches among `pool` (a reservation's passengers,
 * or the user's saved passengers); `self` is the user's own name and date of birth, `details` stands for itself.
 */
export function matchPassengers(
  ref: PassengerRef,
  pool: readonly PassengerView[],
  user: UserView,
): PassengerView[] {
  if (ref.strategy === 'details')
    return [{ first_name: ref.first_name, last_name: ref.last_name, dob: ref.dob }];
  const [first, last] =
    ref.strategy === 'name' ? [ref.first_name, ref.last_name] : [user.name.first_name, user.name.last_name];
  const hits = pool.filter(
    (p) => sameName(p, first, last) && (ref.strategy === 'name' || p.dob === user.dob),
  );
  const out: PassengerView[] = [];
  for (const p of hits)
    if (!out.some((q) => q.first_name === p.first_name && q.last_name === p.last_name && q.dob === p.dob))
      out.push({ first_name: p.first_name, last_name: p.last_name, dob: p.dob });
  return out;
}

/** The ids a reference names outright (so that texts can be checked for leaks). */
export function idsOf(ref: ReservationRef | PaymentRef | ItineraryRef | SegmentRef): string[] {
  if (ref.strategy === 'id') return 'reservation_id' in ref ? [ref.reservation_id] : [ref.payment_id];
  if (ref.strategy === 'numbers') return ref.flights.map((f) => f.flight_number);
  if (ref.strategy === 'number') return [ref.flight_number];
  return [];
}
