import type { Cabin } from '../vocabulary.js';
import type {
  ItineraryRef,
  PassengerRef,
  PaymentRef,
  Place,
  ReservationRef,
  SegmentRef,
  UserRef,
} from './references.js';

export type {
  DayPart,
  FlightLeg,
  ItineraryRef,
  PassengerRef,
  PaymentRef,
  Place,
  ReservationRef,
  SegmentRef,
  UserRef,
} from './references.js';

/**
 * A constraint as the airline user simulator and oracle agent receive it: the same goal with every id replaced by
 * a fuzzy reference (docs/airline.md). Requests are stored in the task's `cove.fuzz.requests`, parallel to
 * `cove.constraints`; a write request's `kind` is its constraint kind's name, refusals are `refusal` with the
 * refused `action`, information requests are `information` with a `topic`.
 */
export type AirlineRequest =
  | BookRequest
  | {
      readonly kind: 'change_flights';
      readonly reservation: ReservationRef;
      /** The legs that change; the other legs stay (at their old price). */
      readonly legs: readonly LegChange[];
      readonly payment: PaymentRef;
    }
  | {
      readonly kind: 'change_cabin';
      readonly reservation: ReservationRef;
      readonly cabin: Cabin;
      readonly payment: PaymentRef;
    }
  | {
      readonly kind: 'add_bags';
      readonly reservation: ReservationRef;
      /** How many checked bags to add to the reservation's current total. */
      readonly add: number;
      readonly payment: PaymentRef;
    }
  | {
      readonly kind: 'change_passengers';
      readonly reservation: ReservationRef;
      readonly edits: readonly PassengerEdit[];
    }
  | {
      readonly kind: 'cancel_reservation';
      readonly reservation: ReservationRef;
      readonly reason: CancelReason;
    }
  | {
      readonly kind: 'compensation_certificate';
      readonly reservation: ReservationRef;
      /** The reservation's flight that was cancelled or delayed. */
      readonly flight: SegmentRef;
      readonly issue: FlightIssue;
    }
  | AirlineRefusal
  | {
      /** A cancellation of a reservation with a flown segment: the agent cannot help and transfers to a human. */
      readonly kind: 'transfer';
      readonly action: 'cancel_flown';
      readonly reservation: ReservationRef;
      readonly reason: CancelReason;
    }
  | AirlineInformation;

/** A new reservation. Non-free bags are the agent's to compute from the membership allowance. */
export interface BookRequest {
  readonly kind: 'book_reservation';
  readonly flight_type: 'one_way' | 'round_trip';
  readonly origin: Place;
  readonly destination: Place;
  readonly outbound: ItineraryRef;
  /** Present for a round trip: the itinerary back from `destination` to `origin`. */
  readonly return?: ItineraryRef;
  readonly cabin: Cabin;
  readonly passengers: readonly PassengerRef[];
  readonly total_baggages: number;
  readonly insurance: boolean;
  /** How the total is split; in the order the user states it. */
  readonly payments: readonly PaymentShare[];
}

/**
 * One payment of a booking: a fixed amount in dollars, the method's whole balance (`all`, a gift card or
 * certificate), or what is left of the total after the other shares (`rest`).
 */
export interface PaymentShare {
  readonly payment: PaymentRef;
  readonly amount: number | 'all' | 'rest';
}

/** A leg of a reservation (`outbound`: the flights from its origin; `return`: back to it) and its new itinerary. */
export interface LegChange {
  readonly leg: 'outbound' | 'return';
  readonly to: ItineraryRef;
}

/** A passenger of the reservation and who they become: new details spelled out, or a saved passenger by name. */
export interface PassengerEdit {
  readonly passenger: PassengerRef;
  readonly to: PassengerRef;
  /** True when the same person stays and only their date of birth is corrected (`to` then holds the details). */
  readonly dob_only?: boolean;
}

/** Why a user cancels: τ²'s three reasons, with the insurance-covered `other` reasons split out. */
export type CancelReason = 'change_of_plan' | 'airline_cancelled' | 'health' | 'weather' | 'other';

/** What went wrong with a flight, for compensation. */
export type FlightIssue = 'cancelled' | 'delayed';

/**
 * Requests the airline policy forbids: changing the flights of a basic-economy reservation, cancelling a
 * reservation none of the policy's conditions allow, removing checked bags, adding insurance after booking,
 * changing the number of passengers, and compensation for a user who is not eligible.
 */
export type AirlineRefusal =
  | {
      readonly kind: 'refusal';
      readonly action: 'change_basic_economy_flights';
      readonly reservation: ReservationRef;
      readonly legs: readonly LegChange[];
    }
  | {
      readonly kind: 'refusal';
      readonly action: 'cancel_ineligible';
      readonly reservation: ReservationRef;
      readonly reason: CancelReason;
    }
  | {
      readonly kind: 'refusal';
      readonly action: 'remove_bags';
      readonly reservation: ReservationRef;
      /** The total the user asks for, below the reservation's current total. */
      readonly total_baggages: number;
    }
  | { readonly kind: 'refusal'; readonly action: 'add_insurance'; readonly reservation: ReservationRef }
  | {
      readonly kind: 'refusal';
      readonly action: 'change_passenger_count';
      readonly reservation: ReservationRef;
      /** Passengers to add (at least one of `add` / `remove` is non-empty). */
      readonly add: readonly PassengerRef[];
      readonly remove: readonly PassengerRef[];
    }
  | {
      readonly kind: 'refusal';
      readonly action: 'compensation_ineligible';
      readonly reservation: ReservationRef;
      readonly flight: SegmentRef;
      readonly issue: FlightIssue;
    };

/** The refused actions, by name. */
export type AirlineRefusedAction = AirlineRefusal['action'];

/**
 * Questions whose answer the agent must tell (τ²'s `communicate_info`): a flight's status on its date; what a
 * cabin change (or a change of legs) would cost, negative for a refund; what a cancellation would refund.
 */
export type AirlineInformation =
  | {
      readonly kind: 'information';
      readonly topic: 'flight_status';
      readonly reservation: ReservationRef;
      readonly flight: SegmentRef;
    }
  | {
      readonly kind: 'information';
      readonly topic: 'price_difference';
      readonly reservation: ReservationRef;
      readonly cabin?: Cabin;
      readonly legs?: readonly LegChange[];
    }
  | { readonly kind: 'information'; readonly topic: 'refund_amount'; readonly reservation: ReservationRef };

/** The fuzzy part of an airline task (`cove.fuzz`). */
export interface AirlineFuzz {
  /** 0: ids kept, 1: some fuzzified, 2: all fuzzified. */
  readonly level: 0 | 1 | 2;
  /** The user gives their user id (τ²'s airline policy); it is never hidden. */
  readonly user: UserRef;
  readonly requests: readonly AirlineRequest[];
  /** Per request, every reference's strategy as `<reference>:<strategy>` (e.g. `reservation:route_date`). */
  readonly strategies: readonly (readonly string[])[];
  /** Ids the references replaced (they must appear in no task or user text). */
  readonly hidden_ids: readonly string[];
}
