import type { Cabin } from '../vocabulary.js';
import {
  type AirlineState,
  type FlightLeg,
  type ItineraryRef,
  matchItineraries,
  matchPassengers,
  matchPayments,
  matchReservations,
  matchSegments,
  type PassengerRef,
  type PaymentRef,
  type ReservationRef,
  type SegmentRef,
} from './references.js';
import type { AirlineRequest, BookRequest, LegChange } from './requests.js';
import {
  bagsAfterAdding,
  bookingNonfree,
  COMPENSATION_PER_PASSENGER,
  flightChangeCost,
  INSURANCE_PRICE,
  legsOf,
  refundAmount,
} from './rules.js';
import type { PassengerView, ReservationFlightView, ReservationView } from './views.js';

/**
 * Resolves a fuzzy airline request back to exact arguments from what the read tools show, as the oracle agent
 * does; fails when any reference matches no entity or more than one. Used to re-check tasks (`recheck.ts`) and
 * available to the scripted roles.
 */

export type Resolution = { readonly args: Record<string, unknown> } | { readonly error: string };

class Unresolved extends Error {}

function one<T>(hits: readonly T[], what: string): T {
  if (hits.length !== 1) throw new Unresolved(`${what} matches ${hits.length} entities`);
  return hits[0] as T;
}

export function resolveReservation(ref: ReservationRef, state: AirlineState): ReservationView {
  return one(matchReservations(ref, state), 'reservation');
}

export function resolvePayment(ref: PaymentRef, state: AirlineState): string {
  return one(matchPayments(ref, state.user), 'payment method').id;
}

export function resolveItinerary(ref: ItineraryRef, state: AirlineState, passengers: number): FlightLeg[] {
  return one(matchItineraries(ref, state.reader, passengers), 'itinerary');
}

export function resolveSegment(ref: SegmentRef, reservation: ReservationView): ReservationFlightView {
  return one(matchSegments(ref, reservation), 'flight');
}

/** The user and their saved passengers: where a booking's passengers named by name or relation are found. */
export function passengerPool(state: Pick<AirlineState, 'user'>): PassengerView[] {
  const u = state.user;
  return [{ first_name: u.name.first_name, last_name: u.name.last_name, dob: u.dob }, ...u.saved_passengers];
}

export function resolvePassenger(
  ref: PassengerRef,
  pool: readonly PassengerView[],
  state: AirlineState,
): PassengerView {
  return one(matchPassengers(ref, pool, state.user), 'passenger');
}

/** A passenger of the reservation (one named by full details must be on it, as named). */
export function onBoard(ref: PassengerRef, r: ReservationView, state: AirlineState): PassengerView {
  const p = resolvePassenger(ref, r.passengers, state);
  const on = r.passengers.some(
    (q) => q.first_name === p.first_name && q.last_name === p.last_name && q.dob === p.dob,
  );
  if (!on) throw new Unresolved('passenger is not on the reservation');
  return p;
}

/** The reservation's flight list with each changed leg replaced by its new itinerary. */
export function changedFlights(
  r: ReservationView,
  changes: readonly LegChange[],
  state: AirlineState,
  passengers: number,
): FlightLeg[] {
  const legs = legsOf(r);
  const plain = (fs: readonly ReservationFlightView[]) =>
    fs.map((f) => ({ flight_number: f.flight_number, date: f.date }));
  let outbound: FlightLeg[] = plain(legs.outbound);
  let back: FlightLeg[] = plain(legs.return);
  for (const c of changes) {
    const fresh = resolveItinerary(c.to, state, passengers);
    if (c.leg === 'outbound') outbound = fresh;
    else back = fresh;
  }
  return [...outbound, ...back];
}

/** Resolves every reference of a request in one state. */
export function resolveRequest(request: AirlineRequest, state: AirlineState): Resolution {
  try {
    return { args: resolveArgs(request, state) };
  } catch (e) {
    if (e instanceof Unresolved) return { error: e.message };
    throw e;
  }
}

function resolveArgs(q: AirlineRequest, state: AirlineState): Record<string, unknown> {
  if (q.kind === 'book_reservation') return resolveBooking(q, state);
  const r = resolveReservation(q.reservation, state);
  const id = { reservation_id: r.reservation_id };
  const pax = r.passengers.length;
  switch (q.kind) {
    case 'change_flights':
      return {
        ...id,
        cabin: r.cabin,
        flights: changedFlights(r, q.legs, state, pax),
        payment_id: resolvePayment(q.payment, state),
      };
    case 'change_cabin':
      return {
        ...id,
        cabin: q.cabin,
        flights: r.flights.map((f) => ({ flight_number: f.flight_number, date: f.date })),
        payment_id: resolvePayment(q.payment, state),
      };
    case 'add_bags':
      return {
        ...id,
        ...bagsAfterAdding(state.user.membership, r, q.add),
        payment_id: resolvePayment(q.payment, state),
      };
    case 'change_passengers': {
      const passengers = r.passengers.map((p) => ({ ...p }));
      for (const e of q.edits) {
        const old = onBoard(e.passenger, r, state);
        const at = passengers.findIndex(
          (p) => p.first_name === old.first_name && p.last_name === old.last_name && p.dob === old.dob,
        );
        passengers[at] = resolvePassenger(e.to, passengerPool(state), state);
      }
      return { ...id, passengers };
    }
    case 'cancel_reservation':
      return { ...id, reason: q.reason };
    case 'compensation_certificate': {
      const f = resolveSegment(q.flight, r);
      return {
        ...id,
        user_id: state.user.user_id,
        amount: COMPENSATION_PER_PASSENGER[q.issue] * pax,
        issue: q.issue,
        flight_number: f.flight_number,
        date: f.date,
      };
    }
    case 'transfer':
      return { ...id, reason: q.reason };
    case 'information': {
      if (q.topic === 'refund_amount') return { ...id, value: refundAmount(r) };
      if (q.topic === 'price_difference') {
        const cabin = q.cabin ?? r.cabin;
        const flights =
          q.legs === undefined ? r.flights : routed(changedFlights(r, q.legs, state, pax), state, r);
        return { ...id, cabin, value: flightChangeCost(state.reader, r, cabin, flights) };
      }
      const f = resolveSegment(q.flight, r);
      return {
        ...id,
        flight_number: f.flight_number,
        date: f.date,
        value: state.reader.flightStatus(f.flight_number, f.date),
      };
    }
    case 'refusal':
      switch (q.action) {
        case 'change_basic_economy_flights':
          return { ...id, leg: q.legs[0]?.leg, flights: changedFlights(r, q.legs, state, 0) };
        case 'cancel_ineligible':
          return { ...id, reason: q.reason };
        case 'remove_bags':
          return { ...id, total_baggages: q.total_baggages };
        case 'add_insurance':
          return id;
        case 'change_passenger_count': {
          const add = q.add.map((p) => resolvePassenger(p, passengerPool(state), state));
          const remove = q.remove.map((p) => onBoard(p, r, state));
          return { ...id, ...(add.length > 0 ? { add } : {}), ...(remove.length > 0 ? { remove } : {}) };
        }
        case 'compensation_ineligible': {
          const f = resolveSegment(q.flight, r);
          return {
            ...id,
            user_id: state.user.user_id,
            issue: q.issue,
            flight_number: f.flight_number,
            date: f.date,
          };
        }
      }
  }
}

/** Flights with their routes (kept ones from the reservation, new ones as a search listed them). */
function routed(flights: readonly FlightLeg[], state: AirlineState, r: ReservationView) {
  return flights.map((f) => {
    const kept = r.flights.find((o) => o.flight_number === f.flight_number && o.date === f.date);
    const route = kept ?? state.reader.flightRoute(f.flight_number);
    return { ...f, origin: route?.origin ?? '', destination: route?.destination ?? '' };
  });
}

/** The price of an itinerary in a cabin, as the search on its route and first date lists it. */
function fare(
  state: AirlineState,
  origin: string,
  destination: string,
  legs: readonly FlightLeg[],
  cabin: Cabin,
): number {
  const want = legs.map((l) => `${l.flight_number}@${l.date}`).join(',');
  const date = legs[0]?.date ?? '';
  const it = state.reader
    .search(origin, destination, date, legs.length === 1 ? 0 : 1)
    .find((x) => x.legs.map((l) => `${l.flight.flight_number}@${l.date}`).join(',') === want);
  if (it === undefined) throw new Unresolved('flights not found by a search');
  return it.legs.reduce((s, l) => s + l.flight.prices[cabin], 0);
}

function resolveBooking(q: BookRequest, state: AirlineState): Record<string, unknown> {
  const pool = passengerPool(state);
  const passengers = q.passengers.map((p) => resolvePassenger(p, pool, state));
  const pax = passengers.length;
  const out = resolveItinerary(q.outbound, state, pax);
  const back = q.return === undefined ? [] : resolveItinerary(q.return, state, pax);
  const nonfree = bookingNonfree(state.user.membership, q.cabin, pax, q.total_baggages);
  let total =
    fare(state, q.origin.iata, q.destination.iata, out, q.cabin) * pax +
    (back.length === 0 ? 0 : fare(state, q.destination.iata, q.origin.iata, back, q.cabin) * pax) +
    (q.insurance ? INSURANCE_PRICE * pax : 0) +
    50 * nonfree;
  const ids = q.payments.map((p) => resolvePayment(p.payment, state));
  const amounts = q.payments.map((p, i) =>
    p.amount === 'all'
      ? (state.user.payment_methods[ids[i] as string]?.amount ?? 0)
      : p.amount === 'rest'
        ? 0
        : p.amount,
  );
  const fixed = amounts.reduce((s, x) => s + x, 0);
  total -= fixed;
  return {
    user_id: state.user.user_id,
    origin: q.origin.iata,
    destination: q.destination.iata,
    flight_type: q.flight_type,
    cabin: q.cabin,
    flights: [...out, ...back],
    passengers,
    payment_methods: ids.map((payment_id, i) => ({
      payment_id,
      amount: q.payments[i]?.amount === 'rest' ? total : amounts[i],
    })),
    total_baggages: q.total_baggages,
    nonfree_baggages: nonfree,
    insurance: q.insurance ? 'yes' : 'no',
  };
}
