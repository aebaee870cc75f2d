import type { Cabin } from '../vocabulary.js';

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
