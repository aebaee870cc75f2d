import type { Rng } from '../../../core/rng.js';
import type { Cabin } from '../vocabulary.js';
import {
  type AirlineState,
  dayPart,
  type FlightLeg,
  type ItineraryRef,
  matchItineraries,
  matchPassengers,
  matchPayments,
  matchReservations,
  matchSegments,
  type PassengerRef,
  type PaymentRef,
  type Place,
  type ReservationRef,
  type SegmentRef,
} from './references.js';
import type { PassengerView, ReservationFlightView, ReservationView } from './views.js';

/**
 * Fuzzification for airline (docs/airline.md, "References"): each id becomes a description that the agent's own
 * lookups resolve to exactly the intended entity — reservations and payment methods in every state of the context
 * (the initial one and the one just before the request), new flights in the state the agent searches in (the
 * current one). Returns `undefined` when no description is unique, so the sampler draws again.
 */

/** Bookkeeping shared by all references of one task. */
export class FuzzContext {
  readonly strategies: string[] = [];
  readonly hidden = new Set<string>();
  /** Ids some reference names outright (never hidden, even if another reference replaced them). */
  readonly named = new Set<string>();
  readonly #rng: Rng;
  readonly #level: 0 | 1 | 2;
  /** States in which descriptions must be unique (initial first, the current one last). */
  states: readonly AirlineState[] = [];

  constructor(rng: Rng, level: 0 | 1 | 2) {
    this.#rng = rng;
    this.#level = level;
  }

  get rng(): Rng {
    return this.#rng;
  }

  get current(): AirlineState {
    return this.states[this.states.length - 1] as AirlineState;
  }

  /** Whether this reference is fuzzified (level 2: always, 0: never, 1: a seeded coin flip). */
  fuzzy(): boolean {
    return this.#level === 2 || (this.#level === 1 && this.#rng.chance(0.5));
  }

  note(
    reference: string,
    strategy: string,
    hiddenIds: readonly string[] = [],
    namedIds: readonly string[] = [],
  ): void {
    this.strategies.push(`${reference}:${strategy}`);
    for (const id of hiddenIds) this.hidden.add(id);
    for (const id of namedIds) this.named.add(id);
  }

  /** The hidden ids no reference names outright. */
  hiddenIds(): string[] {
    return [...this.hidden].filter((id) => !this.named.has(id));
  }
}

const MONTH = 'May';
/** "May 18" for `2024-05-18`. */
export function dateText(date: string): string {
  return `${MONTH} ${Number(date.slice(8, 10))}`;
}

/** An airport as a place with its city (`list_all_airports`). */
export function placeOf(state: AirlineState, iata: string): Place {
  const city = state.reader.airports().find((a) => a.iata === iata)?.city ?? iata;
  return { iata, city };
}

export function describeReservation(
  context: FuzzContext,
  reservation: ReservationView,
  reference = 'reservation',
): ReservationRef | undefined {
  const id = reservation.reservation_id;
  if (!context.fuzzy()) {
    context.note(reference, 'id', [], [id]);
    return { strategy: 'id', reservation_id: id, phrase: `reservation ${id}` };
  }
  const state = context.current;
  const origin = placeOf(state, reservation.origin);
  const destination = placeOf(state, reservation.destination);
  const date = reservation.flights[0]?.date;
  const options: ReservationRef[] = [];
  // some of τ²'s one-way reservations start and end at the same airport: "my Detroit to Detroit trip" reads wrong
  const route = reservation.origin !== reservation.destination;
  if (date !== undefined && route)
    options.push({
      strategy: 'route_date',
      origin,
      destination,
      date,
      phrase: `my ${origin.city} to ${destination.city} trip on ${dateText(date)}`,
    });
  const user = state.user.name;
  const others = reservation.passengers.filter(
    (p) => p.first_name !== user.first_name || p.last_name !== user.last_name,
  );
  for (const p of context.rng.shuffle(others)) {
    const who = `${p.first_name} ${p.last_name}`;
    options.push({
      strategy: 'passenger',
      first_name: p.first_name,
      last_name: p.last_name,
      phrase: `the trip I booked for ${who}`,
    });
    if (route)
      options.push({
        strategy: 'passenger',
        first_name: p.first_name,
        last_name: p.last_name,
        origin,
        destination,
        phrase: `the ${origin.city} to ${destination.city} trip I booked for ${who}`,
      });
  }
  for (const ref of context.rng.shuffle(options)) {
    const unique = context.states.every((s) => {
      const hits = matchReservations(ref, s);
      return hits.length === 1 && hits[0]?.reservation_id === id;
    });
    if (unique) {
      context.note(reference, ref.strategy, [id]);
      return ref;
    }
  }
  return undefined;
}

/** "Visa card", "Mastercard": a brand as a user names the card. */
function brandText(brand: string): string {
  const name = `${brand[0]?.toUpperCase() ?? ''}${brand.slice(1)}`;
  return /card$/i.test(name) ? name : `${name} card`;
}

const PAYMENT_WORDS: Record<string, string> = {
  credit_card: 'my credit card',
  gift_card: 'my gift card',
  certificate: 'my travel certificate',
};

export function describePayment(
  context: FuzzContext,
  paymentId: string,
  reference = 'payment',
): PaymentRef | undefined {
  if (!context.fuzzy()) {
    context.note(reference, 'id', [], [paymentId]);
    return { strategy: 'id', payment_id: paymentId, phrase: `payment method ${paymentId}` };
  }
  const m = context.current.user.payment_methods[paymentId];
  if (m === undefined) return undefined;
  const options: PaymentRef[] = [
    { strategy: 'kind', source: m.source, phrase: PAYMENT_WORDS[m.source] as string },
  ];
  if (m.source === 'credit_card' && m.brand !== undefined)
    options.push({
      strategy: 'brand',
      brand: m.brand,
      phrase: `my ${brandText(m.brand)}`,
    });
  if (m.source === 'credit_card' && m.last_four !== undefined)
    options.push({
      strategy: 'last_four',
      last_four: m.last_four,
      phrase: `my card ending in ${m.last_four}`,
    });
  if (m.source === 'gift_card')
    options.push({ strategy: 'richest_gift_card', phrase: 'the gift card with the most money on it' });
  for (const ref of context.rng.shuffle(options)) {
    const unique = context.states.every((s) => {
      const hits = matchPayments(ref, s.user);
      return hits.length === 1 && hits[0]?.id === paymentId;
    });
    if (unique) {
      context.note(reference, ref.strategy, [paymentId]);
      return ref;
    }
  }
  return undefined;
}

const DAY_WORDS = {
  morning: 'morning',
  afternoon: 'afternoon',
  evening: 'evening',
  night: 'overnight',
} as const;

/**
 * Describes new flights (`legs`, one or two) from `origin` to `destination` on `date`: by numbers, or by the
 * cheapest in a cabin, the earliest, or the part of the day, among what the search in the current state lists.
 */
export function describeItinerary(
  context: FuzzContext,
  legs: readonly FlightLeg[],
  route: { origin: string; destination: string; date: string },
  cabin: Cabin,
  passengers: number,
  reference = 'flights',
): ItineraryRef | undefined {
  const numbers = legs.map((l) => l.flight_number);
  const on = dateText(route.date);
  if (!context.fuzzy()) {
    context.note(reference, 'numbers', [], numbers);
    return {
      strategy: 'numbers',
      flights: legs.map((l) => ({ ...l })),
      phrase: `${numbers.join(' and ')} on ${on}`,
    };
  }
  const state = context.current;
  const stops = legs.length === 1 ? 0 : 1;
  const kindWord = stops === 0 ? 'direct flight' : 'one-stop connection';
  const base = {
    origin: placeOf(state, route.origin),
    destination: placeOf(state, route.destination),
    date: route.date,
    stops,
  } as const;
  const first = state.reader
    .search(route.origin, route.destination, route.date, stops)
    .find((it) => it.legs[0]?.flight.flight_number === legs[0]?.flight_number);
  const part =
    first === undefined ? undefined : dayPart(first.legs[0]?.flight.scheduled_departure_time_est ?? '');
  const label = cabin.replace('_', ' ');
  const options: ItineraryRef[] = [
    { strategy: 'cheapest', ...base, cabin, phrase: `the cheapest ${kindWord} in ${label} on ${on}` },
    { strategy: 'earliest', ...base, phrase: `the earliest ${kindWord} on ${on}` },
  ];
  if (part !== undefined)
    options.push({
      strategy: 'time_of_day',
      ...base,
      part,
      phrase: `the ${DAY_WORDS[part]} ${kindWord} on ${on}`,
    });
  const want = legs.map((l) => `${l.flight_number}@${l.date}`).join(',');
  for (const ref of context.rng.shuffle(options)) {
    const hits = matchItineraries(ref, state.reader, passengers);
    if (hits.length === 1 && hits[0]?.map((l) => `${l.flight_number}@${l.date}`).join(',') === want) {
      context.note(reference, ref.strategy, numbers);
      return ref;
    }
  }
  return undefined;
}

/** Describes a flight of a reservation: by number and date, or by its airports within the reservation. */
export function describeSegment(
  context: FuzzContext,
  reservation: ReservationView,
  flight: ReservationFlightView,
): SegmentRef | undefined {
  if (!context.fuzzy()) {
    context.note('flight', 'number', [], [flight.flight_number]);
    return {
      strategy: 'number',
      flight_number: flight.flight_number,
      date: flight.date,
      phrase: `flight ${flight.flight_number} on ${dateText(flight.date)}`,
    };
  }
  const state = context.current;
  const origin = placeOf(state, flight.origin);
  const destination = placeOf(state, flight.destination);
  const ref: SegmentRef = {
    strategy: 'leg',
    origin,
    destination,
    phrase: `my flight from ${origin.city} to ${destination.city}`,
  };
  const hits = matchSegments(ref, reservation);
  if (hits.length !== 1 || hits[0]?.flight_number !== flight.flight_number || hits[0]?.date !== flight.date)
    return undefined;
  context.note('flight', 'leg', [flight.flight_number]);
  return ref;
}

/**
 * Describes a passenger among `pool` (a reservation's passengers, or the user and their saved passengers): the
 * user as `self`, another by name, both only when unique; `details` when not fuzzified or not in the pool.
 */
export function describePassenger(
  context: FuzzContext,
  passenger: PassengerView,
  pool: readonly PassengerView[] | undefined,
  reference = 'passenger',
): PassengerRef {
  const details: PassengerRef = {
    strategy: 'details',
    ...passenger,
    phrase: `${passenger.first_name} ${passenger.last_name} (born ${passenger.dob})`,
  };
  const user = context.current.user;
  const isSelf =
    passenger.first_name === user.name.first_name &&
    passenger.last_name === user.name.last_name &&
    passenger.dob === user.dob;
  if (pool !== undefined && context.fuzzy()) {
    const options: PassengerRef[] = [
      {
        strategy: 'name',
        first_name: passenger.first_name,
        last_name: passenger.last_name,
        phrase: `${passenger.first_name} ${passenger.last_name}`,
      },
    ];
    if (isSelf) options.unshift({ strategy: 'relation', relation: 'self', phrase: 'myself' });
    for (const ref of options) {
      const hits = matchPassengers(ref, pool, user);
      if (
        hits.length === 1 &&
        hits[0]?.dob === passenger.dob &&
        hits[0].first_name === passenger.first_name &&
        hits[0].last_name === passenger.last_name
      ) {
        context.note(reference, ref.strategy);
        return ref;
      }
    }
  }
  context.note(reference, 'details');
  return details;
}
