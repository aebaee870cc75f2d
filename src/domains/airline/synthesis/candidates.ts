import type { Rng } from '../../../core/rng.js';
import { CABINS, type Cabin } from '../vocabulary.js';
import { drawBooking } from './draw-booking.js';
import { drawItinerary, legKey, routedLegs, shiftDate } from './itineraries.js';
import { newPassenger } from './people.js';
import type { AirlineState } from './references.js';
import type { CancelReason } from './requests.js';
import {
  bagsAfterAdding,
  COMPENSATION_PER_PASSENGER,
  cancellationAllowed,
  compensationEligible,
  DAY_BEFORE_NOW,
  flightChangeCost,
  isFlown,
  legsOf,
  refundAmount,
} from './rules.js';
import type { PaymentMethodView, ReservationView } from './views.js';

/**
 * Candidate airline constraints for one user, drawn on the state before the constraint following τ²'s airline
 * policy (docs/airline.md, "Constraint kinds"). Each draw returns exact args (ids), or `undefined` when the user
 * has no entity that qualifies.
 */

export type Draft = {
  readonly kind: string;
  /** The reservation the constraint is about (used once per task, but for compensation after a cancellation). */
  readonly reservationId?: string;
  readonly args: Record<string, unknown>;
};

/** What a draw may look at besides the user: the task's drafts so far and every route with a direct flight. */
export interface DrawScope {
  readonly drafts: readonly Draft[];
  routes(): readonly (readonly [string, string])[];
}

export type DrawFn = (
  rng: Rng,
  state: AirlineState,
  used: ReadonlySet<string>,
  scope: DrawScope,
) => Draft | undefined;

/** Reservations not used yet by the task that satisfy `test`. */
function reservationsWith(
  state: AirlineState,
  used: ReadonlySet<string>,
  test: (r: ReservationView, statuses: readonly string[]) => boolean,
): ReservationView[] {
  return state.reservations.filter((r) => !used.has(r.reservation_id) && test(r, state.statuses(r)));
}

/** Not cancelled and every flight still bookable-dated (nothing flown, nothing under way). */
const upcoming = (r: ReservationView, statuses: readonly string[]): boolean =>
  r.status !== 'cancelled' && statuses.every((s) => s === 'available');

/** A method for a change that costs `amount`: a credit card, or a gift card with the balance (never a certificate). */
function updatePayer(rng: Rng, state: AirlineState, amount: number): PaymentMethodView | undefined {
  const ok = Object.values(state.user.payment_methods).filter(
    (m) => m.source === 'credit_card' || (m.source === 'gift_card' && (m.amount ?? 0) >= amount),
  );
  return ok.length === 0 ? undefined : rng.pick(ok);
}

function pick<T>(rng: Rng, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : rng.pick(items);
}

/** A new itinerary for one leg of a reservation, a few days from the old one, and the whole new flight list. */
function drawLegChange(
  rng: Rng,
  state: AirlineState,
  r: ReservationView,
  checkSeats: boolean,
):
  | { leg: 'outbound' | 'return'; flights: { flight_number: string; date: string }[]; stops: 0 | 1 }
  | undefined {
  const legs = legsOf(r);
  const leg = legs.return.length > 0 && rng.chance(0.5) ? 'return' : 'outbound';
  const old = legs[leg];
  const first = old[0];
  const last = old[old.length - 1];
  if (first === undefined || last === undefined) return undefined;
  const date = shiftDate(first.date, rng.pick([-2, -1, 1, 2, 3]));
  if (date === undefined) return undefined;
  if (leg === 'outbound' && legs.return[0] !== undefined && date > legs.return[0].date) return undefined;
  const outboundEnd = legs.outbound[legs.outbound.length - 1];
  if (leg === 'return' && outboundEnd !== undefined && date < outboundEnd.date) return undefined;
  const stops: 0 | 1 = rng.chance(0.75) ? 0 : 1;
  const it = drawItinerary(
    rng,
    state.reader,
    { origin: first.origin, destination: last.destination, date, stops },
    r.cabin,
    checkSeats ? r.passengers.length : 0,
    legKey(old),
  );
  if (it === undefined) return undefined;
  const fresh = routedLegs(it).map((l) => ({ flight_number: l.flight_number, date: l.date }));
  const keep = (fs: typeof old) => fs.map((f) => ({ flight_number: f.flight_number, date: f.date }));
  const flights = leg === 'outbound' ? [...fresh, ...keep(legs.return)] : [...keep(legs.outbound), ...fresh];
  return { leg, flights, stops };
}

/** The refusals and the transfer, with the reservations each applies to. */
const REFUSAL_TESTS: Record<
  string,
  (r: ReservationView, s: readonly string[], state: AirlineState) => boolean
> = {
  refuse_basic_economy_change: (r, s) => upcoming(r, s) && r.cabin === 'basic_economy',
  refuse_cancel: (r, s) =>
    r.status !== 'cancelled' &&
    !s.some(isFlown) &&
    !cancellationAllowed(r, s, 'change_of_plan') &&
    !cancellationAllowed(r, s, 'other'),
  refuse_remove_bags: (r, s) => upcoming(r, s) && r.total_baggages > 0,
  refuse_add_insurance: (r, s) => upcoming(r, s) && r.insurance === 'no',
  refuse_passenger_count: (r, s) => upcoming(r, s),
  refuse_compensation: (r, s, state) =>
    !compensationEligible(state.user, r) && (s.includes('cancelled') || s.includes('delayed')),
  transfer_flown_cancel: (r, s) => r.status !== 'cancelled' && s.some(isFlown) && s.some((x) => !isFlown(x)),
};

function refusalDraw(kind: string): DrawFn {
  const test = REFUSAL_TESTS[kind] as (typeof REFUSAL_TESTS)[string];
  return (rng, state, used) => {
    const r = pick(
      rng,
      reservationsWith(state, used, (x, s) => test(x, s, state)),
    );
    if (r === undefined) return undefined;
    const args: Record<string, unknown> = { reservation_id: r.reservation_id };
    const statuses = state.statuses(r);
    switch (kind) {
      case 'refuse_basic_economy_change': {
        const change = drawLegChange(rng, state, r, false);
        if (change === undefined) return undefined;
        Object.assign(args, { leg: change.leg, flights: change.flights, stops: change.stops });
        break;
      }
      case 'refuse_cancel':
        args.reason = rng.pick<CancelReason>(
          r.insurance === 'no' ? ['change_of_plan', 'health', 'other'] : ['change_of_plan', 'other'],
        );
        break;
      case 'transfer_flown_cancel':
        args.reason = rng.pick<CancelReason>(['change_of_plan', 'other']);
        break;
      case 'refuse_remove_bags':
        args.total_baggages = rng.int(0, r.total_baggages - 1);
        break;
      case 'refuse_passenger_count': {
        const add = r.passengers.length < 5 && (r.passengers.length === 1 || rng.chance(0.5));
        if (add) args.add = [newPassenger(rng)];
        else args.remove = [rng.pick(r.passengers)];
        break;
      }
      case 'refuse_compensation': {
        const issue =
          statuses.includes('cancelled') && (!statuses.includes('delayed') || rng.chance(0.5))
            ? 'cancelled'
            : 'delayed';
        const f = r.flights[statuses.indexOf(issue)];
        if (f === undefined) return undefined;
        Object.assign(args, {
          user_id: state.user.user_id,
          issue,
          flight_number: f.flight_number,
          date: f.date,
        });
        break;
      }
    }
    return { kind, reservationId: r.reservation_id, args };
  };
}

/** A draw tried up to `times` times (draws of new flights often hit a route or date without seats). */
function retried(times: number, draw: DrawFn): DrawFn {
  return (rng, state, used, scope) => {
    for (let i = 0; i < times; i++) {
      const d = draw(rng, state, used, scope);
      if (d !== undefined) return d;
    }
    return undefined;
  };
}

/** One draw function per constraint kind. */
export const CANDIDATE_DRAWS: Record<string, DrawFn> = {
  // τ²'s tool has three new reservation ids: at most two bookings per task
  book_reservation: retried(4, (rng, state, _used, scope) =>
    scope.drafts.filter((d) => d.kind === 'book_reservation').length >= 2
      ? undefined
      : drawBooking(rng, state, scope.routes()),
  ),
  change_flights: retried(4, (rng, state, used) => {
    const r = pick(
      rng,
      reservationsWith(state, used, (x, s) => upcoming(x, s) && x.cabin !== 'basic_economy'),
    );
    const change = r === undefined ? undefined : drawLegChange(rng, state, r, true);
    if (r === undefined || change === undefined) return undefined;
    const routed = change.flights.map((f) => routeOf(state, r, f));
    const cost = flightChangeCost(state.reader, r, r.cabin, routed);
    const m = cost === undefined ? undefined : updatePayer(rng, state, cost);
    if (m === undefined) return undefined;
    return {
      kind: 'change_flights',
      reservationId: r.reservation_id,
      args: {
        reservation_id: r.reservation_id,
        cabin: r.cabin,
        flights: change.flights,
        payment_id: m.id,
        leg: change.leg,
        stops: change.stops,
      },
    };
  }),
  change_cabin(rng, state, used) {
    const r = pick(rng, reservationsWith(state, used, upcoming));
    if (r === undefined) return undefined;
    const cabin = rng.pick(CABINS.filter((c) => c !== r.cabin)) as Cabin;
    const cost = flightChangeCost(state.reader, r, cabin, r.flights);
    const m = cost === undefined ? undefined : updatePayer(rng, state, cost);
    if (m === undefined) return undefined;
    const flights = r.flights.map((f) => ({ flight_number: f.flight_number, date: f.date }));
    return {
      kind: 'change_cabin',
      reservationId: r.reservation_id,
      args: { reservation_id: r.reservation_id, cabin, flights, payment_id: m.id },
    };
  },
  add_bags(rng, state, used) {
    const r = pick(rng, reservationsWith(state, used, upcoming));
    if (r === undefined) return undefined;
    const add = rng.int(1, 2);
    const bags = bagsAfterAdding(state.user.membership, r, add);
    const m = updatePayer(rng, state, 50 * (bags.nonfree_baggages - r.nonfree_baggages));
    if (m === undefined) return undefined;
    return {
      kind: 'add_bags',
      reservationId: r.reservation_id,
      args: { reservation_id: r.reservation_id, ...bags, payment_id: m.id, add },
    };
  },
  change_passengers(rng, state, used) {
    const r = pick(rng, reservationsWith(state, used, upcoming));
    if (r === undefined) return undefined;
    const at = rng.int(0, r.passengers.length - 1);
    const old = r.passengers[at] as ReservationView['passengers'][number];
    const saved = state.user.saved_passengers.filter(
      (p) => !r.passengers.some((q) => q.first_name === p.first_name && q.last_name === p.last_name),
    );
    const roll = rng.float();
    const next =
      roll < 0.4 && saved.length > 0
        ? { ...rng.pick(saved) }
        : roll < 0.7
          ? { ...old, dob: newPassenger(rng).dob }
          : newPassenger(rng);
    const passengers = r.passengers.map((p, i) => (i === at ? next : { ...p }));
    return {
      kind: 'change_passengers',
      reservationId: r.reservation_id,
      args: { reservation_id: r.reservation_id, passengers, index: at },
    };
  },
  cancel_reservation(rng, state, used) {
    const r = pick(
      rng,
      reservationsWith(state, used, (x, s) =>
        (['change_of_plan', 'health', 'airline_cancelled'] as const).some((why) =>
          cancellationAllowed(x, s, why),
        ),
      ),
    );
    if (r === undefined) return undefined;
    const s = state.statuses(r);
    const reasons: CancelReason[] = s.includes('cancelled')
      ? ['airline_cancelled']
      : r.created_at >= DAY_BEFORE_NOW || r.cabin === 'business'
        ? ['change_of_plan', 'other', 'health', 'weather']
        : ['health', 'weather'];
    return {
      kind: 'cancel_reservation',
      reservationId: r.reservation_id,
      args: { reservation_id: r.reservation_id, reason: rng.pick(reasons) },
    };
  },
  compensation_certificate(rng, state, used, scope) {
    if (scope.drafts.some((d) => d.kind === 'compensation_certificate')) return undefined;
    const cancelled = new Set(
      scope.drafts.filter((d) => d.kind === 'cancel_reservation').map((d) => d.reservationId),
    );
    // a delayed flight: only after the reservation was cancelled in this task; a cancelled flight: any time
    const options = state.reservations.filter((r) => {
      const s = state.statuses(r);
      if (!compensationEligible(state.user, r)) return false;
      if (cancelled.has(r.reservation_id)) return s.includes('delayed') || s.includes('cancelled');
      return !used.has(r.reservation_id) && s.includes('cancelled');
    });
    const r = pick(rng, options);
    if (r === undefined) return undefined;
    const s = state.statuses(r);
    const issue = s.includes('cancelled') ? 'cancelled' : 'delayed';
    const f = r.flights[s.indexOf(issue)];
    if (f === undefined) return undefined;
    return {
      kind: 'compensation_certificate',
      reservationId: r.reservation_id,
      args: {
        user_id: state.user.user_id,
        amount: COMPENSATION_PER_PASSENGER[issue] * r.passengers.length,
        reservation_id: r.reservation_id,
        issue,
        flight_number: f.flight_number,
        date: f.date,
      },
    };
  },
  flight_status(rng, state, used) {
    const r = pick(
      rng,
      reservationsWith(state, used, (_x, s) => s.some((x) => x !== 'available' && x !== 'missing')),
    );
    if (r === undefined) return undefined;
    const s = state.statuses(r);
    const at = rng.pick(
      s.map((x, i) => (x !== 'available' && x !== 'missing' ? i : -1)).filter((i) => i >= 0),
    );
    const f = r.flights[at];
    if (f === undefined) return undefined;
    return {
      kind: 'flight_status',
      reservationId: r.reservation_id,
      args: { reservation_id: r.reservation_id, flight_number: f.flight_number, date: f.date, value: s[at] },
    };
  },
  price_difference(rng, state, used) {
    const r = pick(rng, reservationsWith(state, used, upcoming));
    if (r === undefined) return undefined;
    const cabin = rng.pick(CABINS.filter((c) => c !== r.cabin)) as Cabin;
    const value = flightChangeCost(state.reader, r, cabin, r.flights);
    if (value === undefined || value === 0) return undefined;
    return {
      kind: 'price_difference',
      reservationId: r.reservation_id,
      args: { reservation_id: r.reservation_id, cabin, value },
    };
  },
  refund_amount(rng, state, used) {
    const r = pick(rng, reservationsWith(state, used, upcoming));
    if (r === undefined) return undefined;
    return {
      kind: 'refund_amount',
      reservationId: r.reservation_id,
      args: { reservation_id: r.reservation_id, value: refundAmount(r) },
    };
  },
  ...Object.fromEntries(Object.keys(REFUSAL_TESTS).map((k) => [k, retried(3, refusalDraw(k))])),
};

/** A flight of a new flight list with its route: from the reservation when kept, else from a search. */
function routeOf(
  state: AirlineState,
  r: ReservationView,
  f: { flight_number: string; date: string },
): { flight_number: string; origin: string; destination: string; date: string } {
  const kept = r.flights.find((o) => o.flight_number === f.flight_number && o.date === f.date);
  if (kept !== undefined) return kept;
  const route = state.reader.flightRoute(f.flight_number);
  return {
    flight_number: f.flight_number,
    date: f.date,
    origin: route?.origin ?? '',
    destination: route?.destination ?? '',
  };
}
