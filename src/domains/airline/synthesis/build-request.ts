import type { Cabin } from '../vocabulary.js';
import type { Draft } from './candidates.js';
import type { PassengerSource, ShareAmount } from './draw-booking.js';
import {
  describeItinerary,
  describePassenger,
  describePayment,
  describeReservation,
  describeSegment,
  type FuzzContext,
  placeOf,
} from './fuzzify.js';
import { REFUSAL_ACTIONS } from './kinds.js';
import type { FlightLeg, PassengerRef } from './references.js';
import type { AirlineRequest, CancelReason, FlightIssue, LegChange, PassengerEdit } from './requests.js';
import { legsOf } from './rules.js';
import type { PassengerView, ReservationView } from './views.js';

/**
 * Turns a drawn constraint (exact ids) into the fuzzy request the user and the oracle receive, describing every
 * reference in the state just before the request is handled. `undefined`: some reference has no unique
 * description.
 */
export function buildRequest(context: FuzzContext, draft: Draft): AirlineRequest | undefined {
  const a = draft.args;
  const state = context.current;
  if (draft.kind === 'book_reservation') return bookRequest(context, draft);
  const r = state.reservations.find((x) => x.reservation_id === draft.reservationId);
  if (r === undefined) return undefined;
  const reservation = describeReservation(context, r);
  if (reservation === undefined) return undefined;
  const payment = () => describePayment(context, a.payment_id as string);
  const segment = () => {
    const f = r.flights.find((x) => x.flight_number === a.flight_number && x.date === a.date);
    return f === undefined ? undefined : describeSegment(context, r, f);
  };
  switch (draft.kind) {
    case 'change_flights': {
      const legs = legChanges(context, r, a);
      const p = payment();
      return legs && p && { kind: 'change_flights', reservation, legs, payment: p };
    }
    case 'change_cabin': {
      const p = payment();
      return p && { kind: 'change_cabin', reservation, cabin: a.cabin as Cabin, payment: p };
    }
    case 'add_bags': {
      const p = payment();
      return p && { kind: 'add_bags', reservation, add: a.add as number, payment: p };
    }
    case 'change_passengers': {
      const at = a.index as number;
      const old = r.passengers[at] as PassengerView;
      const next = (a.passengers as PassengerView[])[at] as PassengerView;
      const edit: PassengerEdit = {
        passenger: describePassenger(context, old, r.passengers),
        to: describePassenger(context, next, savedPool(context), 'new_passenger'),
        ...(old.first_name === next.first_name && old.last_name === next.last_name ? { dob_only: true } : {}),
      };
      return { kind: 'change_passengers', reservation, edits: [edit] };
    }
    case 'cancel_reservation':
      return { kind: 'cancel_reservation', reservation, reason: a.reason as CancelReason };
    case 'compensation_certificate': {
      const flight = segment();
      return (
        flight && { kind: 'compensation_certificate', reservation, flight, issue: a.issue as FlightIssue }
      );
    }
    case 'transfer_flown_cancel':
      return { kind: 'transfer', action: 'cancel_flown', reservation, reason: a.reason as CancelReason };
    case 'flight_status': {
      const flight = segment();
      return flight && { kind: 'information', topic: 'flight_status', reservation, flight };
    }
    case 'price_difference':
      return { kind: 'information', topic: 'price_difference', reservation, cabin: a.cabin as Cabin };
    case 'refund_amount':
      return { kind: 'information', topic: 'refund_amount', reservation };
    case 'refuse_basic_economy_change': {
      const legs = legChanges(context, r, a, true);
      return legs && { kind: 'refusal', action: 'change_basic_economy_flights', reservation, legs };
    }
    case 'refuse_cancel':
      return { kind: 'refusal', action: 'cancel_ineligible', reservation, reason: a.reason as CancelReason };
    case 'refuse_remove_bags':
      return {
        kind: 'refusal',
        action: 'remove_bags',
        reservation,
        total_baggages: a.total_baggages as number,
      };
    case 'refuse_add_insurance':
      return { kind: 'refusal', action: 'add_insurance', reservation };
    case 'refuse_passenger_count': {
      const add = ((a.add ?? []) as PassengerView[]).map((p) =>
        describePassenger(context, p, undefined, 'new_passenger'),
      );
      const remove: PassengerRef[] = [];
      for (const p of (a.remove ?? []) as PassengerView[]) {
        remove.push(describePassenger(context, p, r.passengers));
      }
      return { kind: 'refusal', action: REFUSAL_ACTIONS.refuse_passenger_count, reservation, add, remove };
    }
    case 'refuse_compensation': {
      const flight = segment();
      return (
        flight && {
          kind: 'refusal',
          action: 'compensation_ineligible',
          reservation,
          flight,
          issue: a.issue as FlightIssue,
        }
      );
    }
    default:
      return undefined;
  }
}

/** The user and their saved passengers: where a passenger named by name or relation is looked up. */
function savedPool(context: FuzzContext): PassengerView[] {
  const u = context.current.user;
  return [{ first_name: u.name.first_name, last_name: u.name.last_name, dob: u.dob }, ...u.saved_passengers];
}

/** The changed leg of a flight change, described in the current state. */
function legChanges(
  context: FuzzContext,
  r: ReservationView,
  a: Readonly<Record<string, unknown>>,
  anySeats = false,
): LegChange[] | undefined {
  const leg = a.leg as 'outbound' | 'return';
  const old = legsOf(r);
  const flights = a.flights as FlightLeg[];
  const fresh =
    leg === 'outbound'
      ? flights.slice(0, flights.length - old.return.length)
      : flights.slice(old.outbound.length);
  const first = old[leg][0];
  const last = old[leg][old[leg].length - 1];
  const date = fresh[0]?.date;
  if (first === undefined || last === undefined || date === undefined) return undefined;
  const to = describeItinerary(
    context,
    fresh,
    { origin: first.origin, destination: last.destination, date },
    r.cabin,
    anySeats ? 0 : r.passengers.length,
  );
  return to && [{ leg, to }];
}

function bookRequest(context: FuzzContext, draft: Draft): AirlineRequest | undefined {
  const a = draft.args;
  const state = context.current;
  const cabin = a.cabin as Cabin;
  const flights = a.flights as FlightLeg[];
  const people = a.passengers as PassengerView[];
  const outbound = a.outbound as { date: string; count: number };
  const back = a.return as { date: string } | undefined;
  const origin = a.origin as string;
  const destination = a.destination as string;
  const out = describeItinerary(
    context,
    flights.slice(0, outbound.count),
    { origin, destination, date: outbound.date },
    cabin,
    people.length,
    'outbound',
  );
  if (out === undefined) return undefined;
  const ret =
    back === undefined
      ? undefined
      : describeItinerary(
          context,
          flights.slice(outbound.count),
          { origin: destination, destination: origin, date: back.date },
          cabin,
          people.length,
          'return',
        );
  if (back !== undefined && ret === undefined) return undefined;
  const sources = a.passenger_sources as PassengerSource[];
  const pool = savedPool(context);
  const passengers = people.map((p, i) =>
    describePassenger(context, p, sources[i] === 'new' ? undefined : pool),
  );
  const shares = a.payment_shares as ShareAmount[];
  const payments = [];
  for (const [i, p] of (a.payment_methods as { payment_id: string; amount: number }[]).entries()) {
    const ref = describePayment(context, p.payment_id);
    if (ref === undefined) return undefined;
    payments.push({ payment: ref, amount: shares[i] ?? p.amount });
  }
  return {
    kind: 'book_reservation',
    flight_type: a.flight_type as 'one_way' | 'round_trip',
    origin: placeOf(state, origin),
    destination: placeOf(state, destination),
    outbound: out,
    ...(ret === undefined ? {} : { return: ret }),
    cabin,
    passengers,
    total_baggages: a.total_baggages as number,
    insurance: a.insurance === 'yes',
    payments,
  };
}
