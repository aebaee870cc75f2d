import type { Rng } from '../../../core/rng.js';
import { CABINS, type Cabin } from '../vocabulary.js';
import type { Draft } from './candidates.js';
import { BOOKABLE_DATES, drawItinerary, routedLegs, shiftDate } from './itineraries.js';
import { newPassenger } from './people.js';
import type { AirlineState } from './references.js';
import { bookingNonfree, INSURANCE_PRICE } from './rules.js';
import type { Itinerary, PassengerView, PaymentMethodView } from './views.js';

/**
 * The booking draw: a route and dates, one or two itineraries in one cabin with seats for everyone, passengers
 * (the user, saved passengers, new people), bags, insurance and a payment split the policy allows (at most one
 * certificate, one credit card and three gift cards; a certificate or gift card used whole, the rest on another
 * method). Amounts are whole dollars, as the tool requires.
 */

/** Where each passenger comes from: the user themself, the saved list, or a new person. */
export type PassengerSource = 'self' | 'saved' | 'new';

/** How a payment of a booking was stated: the method's whole balance, or what is left of the total. */
export type ShareAmount = 'all' | 'rest';

const sameName = (a: PassengerView, b: PassengerView) =>
  a.first_name === b.first_name && a.last_name === b.last_name;

function drawPassengers(rng: Rng, state: AirlineState, count: number): [PassengerView, PassengerSource][] {
  const self: PassengerView = {
    first_name: state.user.name.first_name,
    last_name: state.user.name.last_name,
    dob: state.user.dob,
  };
  const out: [PassengerView, PassengerSource][] = [];
  if (rng.chance(0.7)) out.push([self, 'self']);
  const saved = rng.shuffle(state.user.saved_passengers);
  while (out.length < count) {
    const fromSaved = saved.find((p) => !out.some(([q]) => sameName(p, q)));
    const candidate: [PassengerView, PassengerSource] =
      fromSaved !== undefined && rng.chance(0.6) ? [{ ...fromSaved }, 'saved'] : [newPassenger(rng), 'new'];
    if (!out.some(([q]) => sameName(q, candidate[0]))) out.push(candidate);
  }
  return out;
}

/** A payment split of `total`: the methods with amounts and how each was stated. */
function drawPayments(
  rng: Rng,
  methods: readonly PaymentMethodView[],
  total: number,
): { payment_id: string; amount: number; share: ShareAmount }[] | undefined {
  const cards = methods.filter((m) => m.source === 'credit_card');
  const whole = (m: PaymentMethodView) => Number.isInteger(m.amount) && (m.amount ?? 0) > 0;
  const gifts = methods.filter((m) => m.source === 'gift_card');
  const certs = methods.filter((m) => m.source === 'certificate' && whole(m) && (m.amount ?? 0) <= total);
  const options: (() => { payment_id: string; amount: number; share: ShareAmount }[] | undefined)[] = [];
  if (cards.length > 0)
    options.push(() => [{ payment_id: rng.pick(cards).id, amount: total, share: 'rest' }]);
  const rich = gifts.filter((m) => (m.amount ?? 0) >= total);
  if (rich.length > 0) options.push(() => [{ payment_id: rng.pick(rich).id, amount: total, share: 'rest' }]);
  const partial = gifts.filter((m) => whole(m) && (m.amount ?? 0) < total);
  if (partial.length > 0 && cards.length > 0)
    options.push(() => {
      const g = rng.pick(partial);
      const amount = g.amount as number;
      return [
        { payment_id: g.id, amount, share: 'all' },
        { payment_id: rng.pick(cards).id, amount: total - amount, share: 'rest' },
      ];
    });
  if (certs.length > 0)
    options.push(() => {
      const c = rng.pick(certs);
      const amount = c.amount as number;
      if (amount === total) return [{ payment_id: c.id, amount, share: 'all' }];
      const rest = total - amount;
      const payers = [...cards, ...gifts.filter((m) => (m.amount ?? 0) >= rest)];
      if (payers.length === 0) return undefined;
      return [
        { payment_id: c.id, amount, share: 'all' },
        { payment_id: rng.pick(payers).id, amount: rest, share: 'rest' },
      ];
    });
  return options.length === 0 ? undefined : rng.pick(options)();
}

const price = (it: Itinerary, cabin: Cabin) => it.legs.reduce((s, l) => s + l.flight.prices[cabin], 0);

/** One booking for the user, or `undefined` when the drawn route and dates have no seats or no payment fits. */
export function drawBooking(
  rng: Rng,
  state: AirlineState,
  routes: readonly (readonly [string, string])[],
): Draft | undefined {
  if (routes.length === 0) return undefined;
  const route = rng.pick(routes);
  const stops: 0 | 1 = rng.chance(0.75) ? 0 : 1;
  const [origin, destination] =
    stops === 0 ? route : [route[0], rng.pick(routes.filter((r) => r[0] !== route[0]).map((r) => r[0]))];
  if (origin === undefined || destination === undefined || origin === destination) return undefined;
  const pax = rng.int(1, 3);
  const cabin = rng.pick(CABINS) as Cabin;
  const date = rng.pick(BOOKABLE_DATES.slice(0, 10));
  const out = drawItinerary(rng, state.reader, { origin, destination, date, stops }, cabin, pax);
  if (out === undefined) return undefined;
  const roundTrip = rng.chance(0.5);
  let back: Itinerary | undefined;
  let backStops: 0 | 1 = 0;
  if (roundTrip) {
    const lastDate = out.legs[out.legs.length - 1]?.date ?? date;
    const backDate = shiftDate(lastDate, rng.int(1, 4));
    if (backDate === undefined) return undefined;
    backStops = rng.chance(0.75) ? 0 : 1;
    const route2 = { origin: destination, destination: origin, date: backDate, stops: backStops };
    back = drawItinerary(rng, state.reader, route2, cabin, pax);
    if (back === undefined) return undefined;
  }
  const people = drawPassengers(rng, state, pax);
  const totalBags = people.reduce((s) => s + rng.int(0, 2), 0);
  const nonfree = bookingNonfree(state.user.membership, cabin, pax, totalBags);
  const insurance = rng.chance(0.5);
  const fare = price(out, cabin) + (back === undefined ? 0 : price(back, cabin));
  const total = fare * pax + (insurance ? INSURANCE_PRICE * pax : 0) + 50 * nonfree;
  const payments = drawPayments(rng, Object.values(state.user.payment_methods), total);
  if (payments === undefined) return undefined;
  const legs = [...routedLegs(out), ...(back === undefined ? [] : routedLegs(back))];
  return {
    kind: 'book_reservation',
    args: {
      user_id: state.user.user_id,
      origin,
      destination,
      flight_type: roundTrip ? 'round_trip' : 'one_way',
      cabin,
      flights: legs.map((l) => ({ flight_number: l.flight_number, date: l.date })),
      passengers: people.map(([p]) => p),
      payment_methods: payments.map((p) => ({ payment_id: p.payment_id, amount: p.amount })),
      total_baggages: totalBags,
      nonfree_baggages: nonfree,
      insurance: insurance ? 'yes' : 'no',
      // for the descriptions, not the tool
      passenger_sources: people.map(([, s]) => s),
      payment_shares: payments.map((p) => p.share),
      outbound: { date, stops, count: out.legs.length },
      ...(back === undefined ? {} : { return: { date: back.legs[0]?.date, stops: backStops } }),
    },
  };
}
