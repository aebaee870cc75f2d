import { toPyValue } from '../../../core/py-value.js';
import { parseSharedJson } from '../../../core/shared-json.js';
import type { Episode } from '../../../env/episode.js';
import type { Cabin } from '../vocabulary.js';

/**
 * What an agent learns from the airline read tools, as parsed JSON. Fuzzy descriptions are matched against these
 * views, so "unique" means unique for the lookups an agent can actually make.
 */

export interface PassengerView {
  first_name: string;
  last_name: string;
  dob: string;
}

export interface PaymentMethodView {
  source: 'credit_card' | 'gift_card' | 'certificate';
  id: string;
  brand?: string;
  last_four?: string;
  amount?: number;
}

export interface UserView {
  user_id: string;
  name: { first_name: string; last_name: string };
  dob: string;
  payment_methods: Record<string, PaymentMethodView>;
  saved_passengers: PassengerView[];
  membership: 'gold' | 'silver' | 'regular';
  reservations: string[];
}

export interface ReservationFlightView {
  flight_number: string;
  origin: string;
  destination: string;
  date: string;
  price: number;
}

export interface ReservationView {
  reservation_id: string;
  user_id: string;
  origin: string;
  destination: string;
  flight_type: 'round_trip' | 'one_way';
  cabin: Cabin;
  flights: ReservationFlightView[];
  passengers: PassengerView[];
  payment_history: { payment_id: string; amount: number }[];
  created_at: string;
  total_baggages: number;
  nonfree_baggages: number;
  insurance: 'yes' | 'no';
  status: 'cancelled' | null;
}

/** One flight as the searches list it (`DirectFlight`); `date` is set on the legs of a one-stop search. */
export interface FlightView {
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  date: string | null;
  available_seats: Record<Cabin, number>;
  prices: Record<Cabin, number>;
}

/** An itinerary a search lists: one direct flight, or the two legs of a one-stop connection, with their dates. */
export interface Itinerary {
  readonly legs: readonly { readonly flight: FlightView; readonly date: string }[];
}

/** Reads agent-visible views by calling the read tools on an episode (no state change). */
export class AirlineReader {
  readonly #episode: Episode;
  readonly #routes = new Map<string, { origin: string; destination: string }>();
  constructor(episode: Episode) {
    this.#episode = episode;
  }

  #read<T>(tool: string, args: Record<string, string>): T | undefined {
    const r = this.#episode.call(tool, toPyValue(args));
    if (r.error) return undefined;
    return (tool === 'get_flight_status' ? r.content : parseSharedJson(r.content)) as T;
  }

  user(userId: string): UserView | undefined {
    return this.#read('get_user_details', { user_id: userId });
  }

  reservation(reservationId: string): ReservationView | undefined {
    return this.#read('get_reservation_details', { reservation_id: reservationId });
  }

  /** The user's reservations that exist, in the user's list order. */
  reservationsOf(user: UserView): ReservationView[] {
    return user.reservations
      .map((id) => this.reservation(id))
      .filter((r): r is ReservationView => r !== undefined);
  }

  /** `search_direct_flight` (stops 0) or `search_onestop_flight` (stops 1) as itineraries. */
  search(origin: string, destination: string, date: string, stops: 0 | 1): Itinerary[] {
    const args = { origin, destination, date };
    const found: Itinerary[] =
      stops === 0
        ? (this.#read<FlightView[]>('search_direct_flight', args) ?? []).map((flight) => ({
            legs: [{ flight, date }],
          }))
        : (this.#read<FlightView[][]>('search_onestop_flight', args) ?? []).map((pair) => ({
            legs: pair.map((flight) => ({ flight, date: flight.date ?? date })),
          }));
    for (const it of found)
      for (const { flight } of it.legs)
        this.#routes.set(flight.flight_number, { origin: flight.origin, destination: flight.destination });
    return found;
  }

  /** The route of a flight some search of this reader listed. */
  flightRoute(flightNumber: string): { origin: string; destination: string } | undefined {
    return this.#routes.get(flightNumber);
  }

  /** `list_all_airports`: IATA code and city. */
  airports(): { iata: string; city: string }[] {
    return this.#read('list_all_airports', {}) ?? [];
  }

  /** `get_flight_status`, or `undefined` when the flight has no such date. */
  flightStatus(flightNumber: string, date: string): string | undefined {
    return this.#read('get_flight_status', { flight_number: flightNumber, date });
  }
}
