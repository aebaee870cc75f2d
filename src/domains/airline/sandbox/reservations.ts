import type { Faker } from '@faker-js/faker';
import type { PyDict, PyValue } from '../../../core/py-value.js';
import { pyDict } from '../../../core/py-value.js';
import type { Rng } from '../../../core/rng.js';
import { fullNameKey } from '../../shared/sandbox/fingerprint.js';
import { drawUnique, drawUntil } from '../../shared/sandbox/sampling.js';
import { RESERVATION_IDS } from '../sequences.js';
import type { Cabin } from '../vocabulary.js';
import { CABIN_PRICES } from './flight-dates.js';
import { arrivalDay, type Itinerary, type ItineraryIndex } from './itineraries.js';
import { isTau2AirlineValue } from './overlap.js';
import { drawPerson, passengerValue, type SandboxPerson } from './people.js';
import { CLOCK_DAY, CLOCK_MINUTE, DATE_COUNT, dateKey, isoTime, MINUTES_PER_DAY } from './times.js';
import type { Membership, SandboxUser, TakenIds } from './users.js';

/** A trip's shape: trip type and stops out and back (τ²'s counts of 2000 reservations as weights). */
export interface TripShape {
  readonly flightType: 'one_way' | 'round_trip';
  readonly outStops: number;
  /** Stops on the way back; `undefined` for one way. For 3 flights, which way has the stop is drawn. */
  readonly backStops: number | undefined;
  /** A round trip of three flights: one way direct, the other with one stop. */
  readonly mixed?: boolean;
}
export const TRIP_SHAPES: readonly TripShape[] = [
  { flightType: 'one_way', outStops: 0, backStops: undefined },
  { flightType: 'one_way', outStops: 1, backStops: undefined },
  { flightType: 'round_trip', outStops: 0, backStops: 0 },
  { flightType: 'round_trip', outStops: 0, backStops: 1, mixed: true },
  { flightType: 'round_trip', outStops: 1, backStops: 1 },
];
export const TRIP_SHAPE_WEIGHTS = [310, 735, 254, 89, 612];

export const CABIN_LIST: readonly Cabin[] = ['business', 'economy', 'basic_economy'];
export const CABIN_WEIGHTS = [675, 676, 649];
/** Passengers per reservation, 1–4 (τ²: 920, 662, 323, 95). */
export const PASSENGER_COUNTS = [1, 2, 3, 4];
export const PASSENGER_WEIGHTS = [920, 662, 323, 95];
/** Insured share (τ²: 1005 of 2000). */
export const INSURED_SHARE = 0.5025;
/** Reservations created in the 24 h before the clock (τ²: 41 of 2000). */
export const RECENT_SHARE = 0.0205;
/** Reservations whose first passenger is the user (τ²: 1598 of 2000). */
export const USER_FIRST_SHARE = 0.8;
/** Of the other passengers, the share taken from the saved list (τ²: 827 of 1995). */
const SAVED_PASSENGER_SHARE = 0.41;
/** Of reservations with a free bag allowance, the share without bags (τ²: 867 of 1792). */
const NO_BAG_SHARE = 0.48;
/**
 * In a reservation with bags, the share of passengers who check none; the others check 0 to the allowance. Tuned
 * so that the mean bags per reservation matches τ²'s (0.92).
 */
const NO_BAG_PASSENGER_SHARE = 0.35;
/** Insurance per passenger, dollars (τ² policy). */
const INSURANCE_PRICE = 30;

/** Free checked bags per passenger by membership and cabin (τ²'s policy). */
export const FREE_BAGS: Readonly<Record<Membership, Readonly<Record<Cabin, number>>>> = {
  regular: { basic_economy: 0, economy: 1, business: 2 },
  silver: { basic_economy: 1, economy: 2, business: 3 },
  gold: { basic_economy: 2, economy: 3, business: 4 },
};

/** Reservations by the date of their first flight, 2024-05-01 … 2024-05-28 (τ²'s counts). */
const FIRST_DAY_WEIGHTS = [
  12, 10, 21, 35, 40, 43, 54, 41, 70, 78, 76, 79, 70, 68, 63, 123, 124, 106, 118, 109, 97, 88, 84, 70, 80, 88,
  76, 77,
];
const FIRST_DAYS = FIRST_DAY_WEIGHTS.map((_, i) => i);
/** Days between going out and coming back, 1–14 (τ²'s counts; its 25 same-day returns counted as next-day). */
const RETURN_GAP_WEIGHTS = [184, 156, 126, 116, 81, 62, 54, 45, 39, 39, 23, 21, 7, 2];
const RETURN_GAPS = RETURN_GAP_WEIGHTS.map((_, i) => i + 1);
/** Earliest `created_at` (τ²: 2024-04-30) and the longest wait from booking to flying (τ²: 27 days). */
const FIRST_CREATED_MINUTE = -MINUTES_PER_DAY;
const MAX_LEAD_MINUTES = 27 * MINUTES_PER_DAY;

/** Reservation id characters: six of them, uniformly (τ²'s ids: 275 of 2000 letters only, as uniform draws give). */
const ID_CHARS = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

/** What one reservation is drawn with (the shares are dealt by quota over all reservations). */
export interface ReservationPlan {
  readonly user: SandboxUser;
  readonly shape: TripShape;
  readonly cabin: Cabin;
  readonly passengers: number;
  readonly insured: boolean;
  readonly recent: boolean;
  readonly userFirst: boolean;
  readonly index: ItineraryIndex;
  readonly taken: TakenIds;
}

interface DatedLeg {
  readonly itinerary: Itinerary;
  readonly leg: number;
  readonly day: number;
}

/**
 * A reservation in τ²'s shape whose flights exist on their dates and connect as τ²'s search would offer them,
 * paid in one payment (a credit or gift card of the user) of the flight prices times the passengers plus
 * insurance, with bags within the free allowance (τ²'s DB has no paid bags and no cancelled reservations).
 */
export function makeReservation(rng: Rng, faker: Faker, plan: ReservationPlan): PyDict {
  const { user, shape, cabin } = plan;
  const reservationId = drawUnique(
    'reservation id',
    () => Array.from({ length: 6 }, () => rng.pick(ID_CHARS)).join(''),
    plan.taken.reservations,
    // all-digit ids (τ² has one in 2000) are skipped: JSON.parse puts integer-like keys first, so a JavaScript
    // reader would see such a reservation out of the file's order
    (id) => !/^\d+$/.test(id) && !isTau2AirlineValue('reservation', id) && !RESERVATION_IDS.includes(id),
  );
  const backStops = shape.mixed === true && rng.chance(0.5) ? 0 : shape.backStops;
  const outStops = shape.mixed === true && backStops === 0 ? 1 : shape.outStops;
  const [out, back] = plan.index.pickTrip(rng, outStops, backStops);
  const legs = dateLegs(rng, out, back, plan.recent);
  const firstLeg = legs[0] as DatedLeg;
  const departure = firstLeg.day * MINUTES_PER_DAY + (firstLeg.itinerary.legs[0]?.departure ?? 0);
  const createdAt = plan.recent
    ? createdBetween(rng, CLOCK_MINUTE - MINUTES_PER_DAY, CLOCK_DAY * MINUTES_PER_DAY)
    : createdBetween(
        rng,
        Math.max(
          FIRST_CREATED_MINUTE,
          Math.min(departure, CLOCK_MINUTE - MINUTES_PER_DAY) - MAX_LEAD_MINUTES,
        ),
        Math.min(departure, CLOCK_MINUTE - MINUTES_PER_DAY),
      );
  const [low, high] = CABIN_PRICES[cabin];
  const flights = legs.map(({ itinerary, leg, day }) => {
    const f = itinerary.legs[leg];
    if (f === undefined) throw new Error('sandbox: itinerary leg out of range');
    return { f, day, price: rng.int(low, high) };
  });
  const passengers = pickPassengers(rng, faker, plan);
  const perPassenger = flights.reduce((n, x) => n + x.price, 0) + (plan.insured ? INSURANCE_PRICE : 0);
  const paymentId = rng.pick(plan.user.payable);
  const bags = drawBags(rng, FREE_BAGS[user.membership][cabin], passengers.length);
  user.reservations.push(reservationId);
  return pyDict([
    ['reservation_id', reservationId],
    ['user_id', user.userId],
    ['origin', out.origin],
    ['destination', out.destination],
    ['flight_type', shape.flightType],
    ['cabin', cabin],
    [
      'flights',
      flights.map(({ f, day, price }) =>
        pyDict([
          ['origin', f.origin],
          ['destination', f.destination],
          ['flight_number', f.flightNumber],
          ['date', dateKey(day)],
          ['price', BigInt(price)],
        ]),
      ),
    ],
    ['passengers', passengers.map(passengerValue)],
    [
      'payment_history',
      [
        pyDict([
          ['payment_id', paymentId],
          ['amount', BigInt(perPassenger * passengers.length)],
        ]),
      ],
    ],
    ['created_at', createdAt],
    ['total_baggages', BigInt(bags)],
    ['nonfree_baggages', 0n],
    ['insurance', plan.insured ? 'yes' : 'no'],
  ]);
}

/**
 * Dates for every leg: the first flight's date by τ²'s distribution (after the clock's date for a booking made in
 * the last 24 h, so it is still unflown), a return 1–14 days later and after the outbound has landed, all within
 * the calendar.
 */
function dateLegs(rng: Rng, out: Itinerary, back: Itinerary | undefined, recent: boolean): DatedLeg[] {
  const days = recent ? FIRST_DAYS.filter((d) => d > CLOCK_DAY) : FIRST_DAYS;
  const weights = days.map((d) => FIRST_DAY_WEIGHTS[d] as number);
  const [first, gap] = drawUntil(
    'flight dates',
    () => [
      rng.weighted(days, weights),
      back === undefined ? 0 : rng.weighted(RETURN_GAPS, RETURN_GAP_WEIGHTS),
    ],
    ([d, g]) =>
      back === undefined
        ? d + (out.legDays.at(-1) ?? 0) < DATE_COUNT
        : g > arrivalDay(out) && d + g + (back.legDays.at(-1) ?? 0) < DATE_COUNT,
  );
  const legs: DatedLeg[] = out.legs.map((_, leg) => ({
    itinerary: out,
    leg,
    day: first + (out.legDays[leg] as number),
  }));
  if (back !== undefined) {
    back.legs.forEach((_, leg) => {
      legs.push({ itinerary: back, leg, day: first + gap + (back.legDays[leg] as number) });
    });
  }
  return legs;
}

/** A `created_at` in [from, to) calendar minutes, with random seconds. */
function createdBetween(rng: Rng, from: number, to: number): string {
  return isoTime(rng.int(from, Math.max(from, to - 1)), rng.int(0, 59));
}

/** The passengers: the user first (most often), then saved passengers or new people, no name twice. */
function pickPassengers(rng: Rng, faker: Faker, plan: ReservationPlan): SandboxPerson[] {
  const { user } = plan;
  const chosen: SandboxPerson[] = plan.userFirst ? [user] : [];
  const names = new Set(chosen.map((p) => fullNameKey(p.first, p.last)));
  const savedLeft = rng.shuffle(user.saved);
  while (chosen.length < plan.passengers) {
    const fromSaved = savedLeft.length > 0 && rng.chance(SAVED_PASSENGER_SHARE);
    const person = fromSaved
      ? (savedLeft.pop() as SandboxPerson)
      : drawUntil(
          'passenger',
          () => drawPerson(faker, rng),
          (p) => !names.has(fullNameKey(p.first, p.last)),
        );
    const key = fullNameKey(person.first, person.last);
    if (names.has(key)) continue;
    names.add(key);
    chosen.push(person);
  }
  return chosen;
}

/** Checked bags within the free allowance: none about half the time, else a few per passenger. */
function drawBags(rng: Rng, allowance: number, passengers: number): number {
  if (allowance === 0 || rng.chance(NO_BAG_SHARE)) return 0;
  const perPassenger = () => (rng.chance(NO_BAG_PASSENGER_SHARE) ? 0 : rng.int(0, allowance));
  return drawUntil(
    'bags',
    () => Array.from({ length: passengers }, perPassenger).reduce((a, b) => a + b, 0),
    (n) => n > 0,
  );
}

/** The reservation dicts as a `reservations` collection value (keyed by id, in order). */
export function reservationsValue(reservations: readonly PyDict[]): Map<string, PyValue> {
  return new Map(reservations.map((r) => [r.get('reservation_id') as string, r]));
}
