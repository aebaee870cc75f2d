import type { PyDict, PyValue } from '../../../core/py-value.js';
import { pyDict } from '../../../core/py-value.js';
import { Rng } from '../../../core/rng.js';
import { fakerFor, loadFaker } from '../../shared/sandbox/faker.js';
import { quotaList } from '../../shared/sandbox/sampling.js';
import { flightDates } from './flight-dates.js';
import { ItineraryIndex } from './itineraries.js';
import {
  CABIN_LIST,
  CABIN_WEIGHTS,
  INSURED_SHARE,
  makeReservation,
  PASSENGER_COUNTS,
  PASSENGER_WEIGHTS,
  RECENT_SHARE,
  reservationsValue,
  TRIP_SHAPE_WEIGHTS,
  TRIP_SHAPES,
  USER_FIRST_SHARE,
} from './reservations.js';
import { type ScheduledFlight, scheduleFlights } from './schedule.js';
import {
  MEMBERSHIP_LIST,
  MEMBERSHIP_WEIGHTS,
  makeUser,
  SAVED_COUNTS,
  SAVED_WEIGHTS,
  type SandboxUser,
  type TakenIds,
  userValue,
  WALLET_WEIGHTS,
  WALLETS,
} from './users.js';

/** τ²'s sizes, the defaults. */
export const DEFAULT_USERS = 500;
export const DEFAULT_RESERVATIONS = 2000;
/** Share of users without reservations (τ²: 48 of 500, among them all 42 who hold only certificates). */
const NO_RESERVATION_SHARE = 0.096;

/** Options of {@link generateAirlineSandbox}. */
export interface AirlineSandboxOptions {
  /** Drives every random choice: the same options give the same DB, byte for byte. */
  readonly seed: number;
  /** @defaultValue 500 (τ²'s count) */
  readonly users?: number | undefined;
  /** @defaultValue 2000 (τ²'s count) */
  readonly reservations?: number | undefined;
}

function checkSize(name: string, n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`sandbox: ${name} must be a positive integer`);
  return n;
}

const yesNo = (n: number, share: number, rng: Rng): boolean[] =>
  quotaList(rng, n, [true, false], [share, 1 - share]);

/**
 * A synthetic airline DB in τ²'s db.json shape (file key order), from faker and the seed only: the same options
 * give the same value. 300 flights on the 20 airports over 2024-05-01…30 with statuses around the clock
 * (2024-05-15 15:00 EST), users with memberships, wallets and saved passengers, and reservations whose flights,
 * prices and payments agree; the shares follow τ²'s DB and no user id, email, name, reservation id or payment id
 * is τ²'s. The flights do not depend on the sizes.
 */
export function generateAirlineSandbox(options: AirlineSandboxOptions): PyValue {
  if (!Number.isSafeInteger(options.seed)) throw new RangeError('sandbox: seed must be an integer');
  const userCount = checkSize('users', options.users ?? DEFAULT_USERS);
  const reservationCount = checkSize('reservations', options.reservations ?? DEFAULT_RESERVATIONS);
  const root = new Rng(options.seed);
  const faker = loadFaker();
  const taken: TakenIds = {
    users: new Set(),
    emails: new Set(),
    payments: new Set(),
    reservations: new Set(),
  };

  const schedule = scheduleFlights(root.child('schedule'));
  const flights = new Map<string, PyValue>(
    schedule.map((f) => [f.flightNumber, flightValue(root.child('flight', f.flightNumber), f)]),
  );
  const index = new ItineraryIndex(schedule);

  const wallets = quotaList(root.child('wallets'), userCount, WALLETS, WALLET_WEIGHTS);
  const memberships = quotaList(root.child('memberships'), userCount, MEMBERSHIP_LIST, MEMBERSHIP_WEIGHTS);
  const savedCounts = quotaList(root.child('saved'), userCount, SAVED_COUNTS, SAVED_WEIGHTS);
  const users = wallets.map((wallet, i) => {
    const rng = root.child('user', i);
    const plan = { wallet, membership: memberships[i] ?? 'regular', savedCount: savedCounts[i] ?? 1 };
    return makeUser(rng, fakerFor(faker, rng), plan, taken);
  });

  const n = reservationCount;
  const owners = reservationOwners(root.child('owners'), users, n);
  const shapes = quotaList(root.child('shapes'), n, TRIP_SHAPES, TRIP_SHAPE_WEIGHTS);
  const cabins = quotaList(root.child('cabins'), n, CABIN_LIST, CABIN_WEIGHTS);
  const paxCounts = quotaList(root.child('passengers'), n, PASSENGER_COUNTS, PASSENGER_WEIGHTS);
  const insured = yesNo(n, INSURED_SHARE, root.child('insurance'));
  const recent = yesNo(n, RECENT_SHARE, root.child('recent'));
  const userFirst = yesNo(n, USER_FIRST_SHARE, root.child('user-first'));
  const reservations: PyDict[] = [];
  for (let i = 0; i < n; i++) {
    const rng = root.child('reservation', i);
    reservations.push(
      makeReservation(rng, fakerFor(faker, rng), {
        user: users[owners[i] as number] as SandboxUser,
        shape: shapes[i] as (typeof TRIP_SHAPES)[number],
        cabin: cabins[i] as (typeof CABIN_LIST)[number],
        passengers: paxCounts[i] as number,
        insured: insured[i] as boolean,
        recent: recent[i] as boolean,
        userFirst: userFirst[i] as boolean,
        index,
        taken,
      }),
    );
  }
  return pyDict([
    ['flights', flights],
    ['users', new Map(users.map((u) => [u.userId, userValue(u)]))],
    ['reservations', reservationsValue(reservations)],
  ]);
}

/** The `Flight` dict, in the field order of τ²'s db.json. */
function flightValue(rng: Rng, f: ScheduledFlight): PyDict {
  return pyDict([
    ['origin', f.origin],
    ['destination', f.destination],
    ['flight_number', f.flightNumber],
    ['scheduled_departure_time_est', f.departureText],
    ['scheduled_arrival_time_est', f.arrivalText],
    ['dates', flightDates(rng, f)],
  ]);
}

/**
 * The user index of each reservation: users who can pay (a credit or gift card) get one or more, except for enough
 * of them to bring the users without reservations to τ²'s share; the rest are spread uniformly.
 */
function reservationOwners(rng: Rng, users: readonly SandboxUser[], count: number): number[] {
  const payers = users.flatMap((u, i) => (u.payable.length > 0 ? [i] : []));
  if (payers.length === 0) throw new Error('sandbox: no user holds a credit or gift card');
  const idle = Math.max(0, Math.round(users.length * NO_RESERVATION_SHARE) - (users.length - payers.length));
  const activeCount = Math.max(1, Math.min(payers.length - idle, count));
  const active = rng.sample(payers, activeCount);
  const owners = [...active];
  while (owners.length < count) owners.push(rng.pick(active));
  return rng.shuffle(owners);
}
