import type { Cabin } from '../vocabulary.js';
import type { CancelReason } from './requests.js';
import type { AirlineReader, FlightView, ReservationFlightView, ReservationView, UserView } from './views.js';

/**
 * The airline policy's arithmetic and conditions (τ²'s airline policy, docs/airline.md "Policy rules used by
 * synthesis"), shared by the draws, the kinds and the scripted roles so that all apply the same rule.
 */

/** The fixed clock of the airline domain. */
export const NOW = '2024-05-15T15:00:00';
/** A reservation created at or after this moment was booked within the last 24 hours. */
export const DAY_BEFORE_NOW = '2024-05-14T15:00:00';

/** Free checked bags per passenger, by membership and cabin. */
export const FREE_BAGS: Readonly<Record<UserView['membership'], Readonly<Record<Cabin, number>>>> = {
  regular: { basic_economy: 0, economy: 1, business: 2 },
  silver: { basic_economy: 1, economy: 2, business: 3 },
  gold: { basic_economy: 2, economy: 3, business: 4 },
};

/** Price of one checked bag beyond the allowance, and of travel insurance per passenger (dollars). */
export const BAG_PRICE = 50;
export const INSURANCE_PRICE = 30;

/** Certificate per passenger for a cancelled flight, and for a delayed one after the change or cancellation. */
export const COMPENSATION_PER_PASSENGER = { cancelled: 100, delayed: 50 } as const;

/** The hold message an agent sends after `transfer_to_human_agents`. */
export const TRANSFER_MESSAGE = 'YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.';

/** Non-free bags of a new booking: the bags beyond the passengers' allowance. */
export function bookingNonfree(
  membership: UserView['membership'],
  cabin: Cabin,
  passengers: number,
  totalBags: number,
): number {
  return Math.max(0, totalBags - FREE_BAGS[membership][cabin] * passengers);
}

/**
 * Bags after adding `add` to a reservation: the allowance not yet used by its current bags is free, every further
 * bag is non-free.
 */
export function bagsAfterAdding(
  membership: UserView['membership'],
  reservation: Pick<ReservationView, 'cabin' | 'passengers' | 'total_baggages' | 'nonfree_baggages'>,
  add: number,
): { total_baggages: number; nonfree_baggages: number } {
  const allowance = FREE_BAGS[membership][reservation.cabin] * reservation.passengers.length;
  const freeLeft = Math.max(0, allowance - reservation.total_baggages);
  return {
    total_baggages: reservation.total_baggages + add,
    nonfree_baggages: reservation.nonfree_baggages + Math.max(0, add - freeLeft),
  };
}

/** The flights of each leg: `outbound` up to the reservation's destination, `return` the rest (round trips). */
export function legsOf(reservation: Pick<ReservationView, 'flights' | 'destination' | 'flight_type'>): {
  outbound: ReservationFlightView[];
  return: ReservationFlightView[];
} {
  if (reservation.flight_type === 'one_way') return { outbound: [...reservation.flights], return: [] };
  const end = reservation.flights.findIndex((f) => f.destination === reservation.destination);
  const cut = end < 0 ? reservation.flights.length : end + 1;
  return { outbound: reservation.flights.slice(0, cut), return: reservation.flights.slice(cut) };
}

/** Each flight's status on its date, as `get_flight_status` reports it. */
export function segmentStatuses(reader: AirlineReader, reservation: ReservationView): string[] {
  return reservation.flights.map((f) => reader.flightStatus(f.flight_number, f.date) ?? 'missing');
}

/** A segment has been flown once it is in the air or has landed. */
export function isFlown(status: string): boolean {
  return status === 'landed' || status === 'flying';
}

/** Whether the policy allows cancelling: booked within 24 h, airline-cancelled, business, or insured and covered. */
export function cancellationAllowed(
  reservation: ReservationView,
  statuses: readonly string[],
  reason: CancelReason,
): boolean {
  if (reservation.status === 'cancelled' || statuses.some(isFlown)) return false;
  return (
    reservation.created_at >= DAY_BEFORE_NOW ||
    statuses.includes('cancelled') ||
    reservation.cabin === 'business' ||
    (reservation.insurance === 'yes' && (reason === 'health' || reason === 'weather'))
  );
}

/** Whether a user may get compensation for a flight of this reservation: silver or gold, insured, or business. */
export function compensationEligible(user: UserView, reservation: ReservationView): boolean {
  return user.membership !== 'regular' || reservation.insurance === 'yes' || reservation.cabin === 'business';
}

/** What cancelling refunds: the sum of the reservation's payments (refunds included). */
export function refundAmount(reservation: ReservationView): number {
  return reservation.payment_history.reduce((s, p) => s + p.amount, 0);
}

/** A flight on a date with its route (what a direct search needs to find its current price). */
export interface RoutedLeg {
  readonly flight_number: string;
  readonly origin: string;
  readonly destination: string;
  readonly date: string;
}

/**
 * What `update_reservation_flights` charges (negative: refunds) for `flights` in `cabin`: flights kept in the same
 * cabin at their old price, the others at the current price, minus what the old flights cost; `undefined` when a
 * new flight is not bookable on its date.
 */
export function flightChangeCost(
  reader: AirlineReader,
  reservation: ReservationView,
  cabin: Cabin,
  flights: readonly RoutedLeg[],
): number | undefined {
  const pax = reservation.passengers.length;
  let total = 0;
  for (const f of flights) {
    const kept = reservation.flights.find((o) => o.flight_number === f.flight_number && o.date === f.date);
    if (kept !== undefined && cabin === reservation.cabin) {
      total += kept.price * pax;
      continue;
    }
    const offer = currentOffer(reader, f);
    if (offer === undefined || offer.available_seats[cabin] < pax) return undefined;
    total += offer.prices[cabin] * pax;
  }
  return total - reservation.flights.reduce((s, f) => s + f.price, 0) * pax;
}

/** The flight as a direct search on its route and date lists it (bookable dates only). */
export function currentOffer(reader: AirlineReader, leg: RoutedLeg): FlightView | undefined {
  return reader
    .search(leg.origin, leg.destination, leg.date, 0)
    .find((it) => it.legs[0]?.flight.flight_number === leg.flight_number)?.legs[0]?.flight;
}
