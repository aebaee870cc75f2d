import type { AirlineRequest, BookRequest, ItineraryRef, LegChange } from '../synthesis/requests.js';
import {
  BAG_PRICE,
  bagsAfterAdding,
  bookingNonfree,
  COMPENSATION_PER_PASSENGER,
  INSURANCE_PRICE,
  legsOf,
} from '../synthesis/rules.js';
import type {
  Itinerary,
  PassengerView,
  PaymentMethodView,
  ReservationView,
  UserView,
} from '../synthesis/views.js';
import type { Cabin } from '../vocabulary.js';
import {
  bookingPassenger,
  itinerariesMatching,
  itineraryPrice,
  matchPayments,
  passengerOnBoard,
  reservationsMatching,
  type SearchQuery,
  searchFor,
  searchKey,
  segmentOf,
} from './oracle-resolve.js';

/**
 * What the airline oracle agent has read (tool results only) and the write calls it builds from it
 * (docs/airline.md, "Scripted roles"): each argument comes from a tool result or from the customer's words, and
 * each amount is the policy's arithmetic (synthesis/rules.ts) on what was read.
 */

export interface ReadState {
  readonly user: UserView;
  readonly reservations: ReadonlyMap<string, ReservationView>;
  /** Search results by {@link searchKey}. */
  readonly searches: ReadonlyMap<string, readonly Itinerary[]>;
  /** `get_flight_status` results by `<flight_number>:<date>`. */
  readonly statuses: ReadonlyMap<string, string>;
}

/** A write the agent proposes: the tool, its arguments in τ²'s parameter order, and what it costs. */
export interface WriteCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /** Dollars charged (negative: refunded) by the write, when it moves money. */
  readonly amount?: number;
}

/** A step that needs more reading: the search or status to ask for. */
export type Missing =
  | { readonly search: SearchQuery }
  | { readonly status: { readonly flight_number: string; readonly date: string } };

/** The reservation of a request among those read, when exactly one matches. */
export function reservationOf(r: AirlineRequest, read: ReadState): ReservationView | undefined {
  if (!('reservation' in r)) return undefined;
  const own = read.user.reservations.flatMap((id) => {
    const v = read.reservations.get(id);
    return v === undefined ? [] : [v];
  });
  const hits = reservationsMatching(r.reservation, own);
  return hits.length === 1 ? hits[0] : undefined;
}

/** The method a payment reference names, when exactly one matches. */
export function paymentOf(ref: Parameters<typeof matchPayments>[0], user: UserView): PaymentMethodView {
  const hits = matchPayments(ref, user);
  if (hits.length !== 1) throw new Error(`payment ${ref.phrase} matches ${hits.length} methods`);
  return hits[0] as PaymentMethodView;
}

function itinerary(
  ref: ItineraryRef,
  from: string,
  to: string,
  pax: number,
  read: ReadState,
): Itinerary | Missing {
  const query = searchFor(ref, from, to);
  const found = read.searches.get(searchKey(query));
  if (found === undefined) return { search: query };
  const hits = itinerariesMatching(ref, found, pax);
  if (hits.length !== 1)
    throw new Error(`itinerary "${ref.phrase}" matches ${hits.length} of ${found.length}`);
  return hits[0] as Itinerary;
}

function isMissing(x: unknown): x is Missing {
  return typeof x === 'object' && x !== null && ('search' in x || 'status' in x);
}

function legArgs(it: Itinerary): { flight_number: string; date: string }[] {
  return it.legs.map((l) => ({ flight_number: l.flight.flight_number, date: l.date }));
}

/** The booking call, or the search still to make. */
export function bookCall(r: BookRequest, read: ReadState): WriteCall | Missing {
  const user = read.user;
  const passengers = r.passengers.map((p) => {
    const v = bookingPassenger(p, user);
    if (v === undefined) throw new Error(`passenger ${p.phrase} not found`);
    return { first_name: v.first_name, last_name: v.last_name, dob: v.dob };
  });
  const pax = passengers.length;
  const out = itinerary(r.outbound, r.origin.iata, r.destination.iata, pax, read);
  if (isMissing(out)) return out;
  const back =
    r.return === undefined ? undefined : itinerary(r.return, r.destination.iata, r.origin.iata, pax, read);
  if (isMissing(back)) return back;
  const legs = back === undefined ? [out] : [out, back];
  const nonfree = bookingNonfree(user.membership, r.cabin, pax, r.total_baggages);
  const total =
    legs.reduce((s, it) => s + itineraryPrice(it, r.cabin), 0) * pax +
    (r.insurance ? INSURANCE_PRICE * pax : 0) +
    BAG_PRICE * nonfree;
  const methods = r.payments.map((s) => paymentOf(s.payment, user));
  const fixed = r.payments.map((s, i) =>
    s.amount === 'all' ? (methods[i]?.amount ?? 0) : s.amount === 'rest' ? 0 : s.amount,
  );
  const others = fixed.reduce((a, b) => a + b, 0);
  const payment_methods = r.payments.map((s, i) => ({
    payment_id: (methods[i] as PaymentMethodView).id,
    amount: s.amount === 'rest' ? total - others : fixed[i],
  }));
  return {
    name: 'book_reservation',
    arguments: {
      user_id: user.user_id,
      origin: r.origin.iata,
      destination: r.destination.iata,
      flight_type: r.flight_type,
      cabin: r.cabin,
      flights: legs.flatMap(legArgs),
      passengers,
      payment_methods,
      total_baggages: r.total_baggages,
      nonfree_baggages: nonfree,
      insurance: r.insurance ? 'yes' : 'no',
    },
    amount: total,
  };
}

/** The flights after changing `changes` (kept legs as they are) and what the change costs, or a search to make. */
export function changedFlights(
  res: ReservationView,
  changes: readonly LegChange[],
  read: ReadState,
): { flights: { flight_number: string; date: string }[]; amount: number } | Missing {
  const legs = legsOf(res);
  const pax = res.passengers.length;
  const flights: { flight_number: string; date: string }[] = [];
  let total = 0;
  for (const leg of ['outbound', 'return'] as const) {
    const change = changes.find((c) => c.leg === leg);
    if (change === undefined) {
      for (const f of legs[leg]) {
        flights.push({ flight_number: f.flight_number, date: f.date });
        total += f.price * pax;
      }
      continue;
    }
    const [from, to] = leg === 'outbound' ? [res.origin, res.destination] : [res.destination, res.origin];
    const it = itinerary(change.to, from, to, pax, read);
    if (isMissing(it)) return it;
    for (const l of it.legs) {
      flights.push({ flight_number: l.flight.flight_number, date: l.date });
      const kept = res.flights.find((f) => f.flight_number === l.flight.flight_number && f.date === l.date);
      total += (kept?.price ?? l.flight.prices[res.cabin]) * pax;
    }
  }
  return { flights, amount: total - res.flights.reduce((s, f) => s + f.price, 0) * pax };
}

/** What moving every flight of `res` to `cabin` costs (negative: refund), or a search to make. */
export function cabinChangeCost(res: ReservationView, cabin: Cabin, read: ReadState): number | Missing {
  let total = 0;
  for (const f of res.flights) {
    const query: SearchQuery = { stops: 0, origin: f.origin, destination: f.destination, date: f.date };
    const found = read.searches.get(searchKey(query));
    if (found === undefined) return { search: query };
    const offer = found.find((it) => it.legs[0]?.flight.flight_number === f.flight_number)?.legs[0];
    if (offer === undefined) throw new Error(`flight ${f.flight_number} on ${f.date} is not bookable`);
    total += offer.flight.prices[cabin] - f.price;
  }
  return total * res.passengers.length;
}

/** The status of a flight, or the status lookup to make. */
export function statusOf(flight: { flight_number: string; date: string }, read: ReadState): string | Missing {
  return read.statuses.get(`${flight.flight_number}:${flight.date}`) ?? { status: flight };
}

/** The passengers of `res` after the request's edits (each old passenger found by name and date of birth). */
export function editedPassengers(
  r: Extract<AirlineRequest, { kind: 'change_passengers' }>,
  res: ReservationView,
  user: UserView,
): PassengerView[] {
  const out = res.passengers.map((p) => ({ first_name: p.first_name, last_name: p.last_name, dob: p.dob }));
  for (const edit of r.edits) {
    const old = passengerOnBoard(edit.passenger, res, user);
    const neu = bookingPassenger(edit.to, user);
    const i = out.findIndex(
      (p) => p.first_name === old?.first_name && p.last_name === old?.last_name && p.dob === old?.dob,
    );
    if (i < 0 || neu === undefined) throw new Error(`passenger edit ${edit.passenger.phrase} not resolved`);
    out[i] = { first_name: neu.first_name, last_name: neu.last_name, dob: neu.dob };
  }
  return out;
}

/** The write that carries out a write request on its resolved reservation, or what is still to read. */
export function writeCall(
  r: AirlineRequest,
  res: ReservationView | undefined,
  read: ReadState,
): WriteCall | Missing {
  const user = read.user;
  if (r.kind === 'book_reservation') return bookCall(r, read);
  const rv = res as ReservationView;
  switch (r.kind) {
    case 'change_flights': {
      const changed = changedFlights(rv, r.legs, read);
      if (isMissing(changed)) return changed;
      return {
        name: 'update_reservation_flights',
        arguments: {
          reservation_id: rv.reservation_id,
          cabin: rv.cabin,
          flights: changed.flights,
          payment_id: paymentOf(r.payment, user).id,
        },
        amount: changed.amount,
      };
    }
    case 'change_cabin': {
      const cost = cabinChangeCost(rv, r.cabin, read);
      if (isMissing(cost)) return cost;
      return {
        name: 'update_reservation_flights',
        arguments: {
          reservation_id: rv.reservation_id,
          cabin: r.cabin,
          flights: rv.flights.map((f) => ({ flight_number: f.flight_number, date: f.date })),
          payment_id: paymentOf(r.payment, user).id,
        },
        amount: cost,
      };
    }
    case 'add_bags': {
      const bags = bagsAfterAdding(user.membership, rv, r.add);
      return {
        name: 'update_reservation_baggages',
        arguments: {
          reservation_id: rv.reservation_id,
          total_baggages: bags.total_baggages,
          nonfree_baggages: bags.nonfree_baggages,
          payment_id: paymentOf(r.payment, user).id,
        },
        amount: BAG_PRICE * Math.max(0, bags.nonfree_baggages - rv.nonfree_baggages),
      };
    }
    case 'change_passengers':
      return {
        name: 'update_reservation_passengers',
        arguments: { reservation_id: rv.reservation_id, passengers: editedPassengers(r, rv, user) },
      };
    case 'cancel_reservation':
      return { name: 'cancel_reservation', arguments: { reservation_id: rv.reservation_id } };
    case 'compensation_certificate': {
      const seg = segmentOf(r.flight, rv);
      if (seg === undefined) throw new Error(`flight ${r.flight.phrase} not on the reservation`);
      const status = statusOf(seg, read);
      if (isMissing(status)) return status;
      return {
        name: 'send_certificate',
        arguments: {
          user_id: user.user_id,
          amount: COMPENSATION_PER_PASSENGER[r.issue] * rv.passengers.length,
        },
      };
    }
    default:
      throw new Error(`${r.kind} is not a write request`);
  }
}

export { isMissing };
