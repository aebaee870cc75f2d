import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pyJsonDumps } from '../../src/core/py-json.js';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import { type PyValue, toPyValue } from '../../src/core/py-value.js';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { generateAirlineSandbox } from '../../src/domains/airline/sandbox/generate.js';
import { baseFromValue, type LoadedDb } from '../../src/domains/load-db.js';
import type { Episode } from '../../src/env/episode.js';
import type { AirlineJson, ReservationJson, UserJson } from '../helpers/airline-sandbox-checks.js';

/**
 * Every τ² airline tool on sandbox entities: a hand-written action list (look up, search, book, change bags, cabin
 * and passengers, cancel, certificate, transfer) replayed through the environment. Expected values are computed
 * here from the sandbox's db.json text with τ²'s rules (tau2-spec §4.2), not taken from the tools.
 */

const SIZE = { seed: 11, users: 80, reservations: 320 };
const TEXT = pyJsonDumps(generateAirlineSandbox(SIZE), { indent: 4 });
const DB = JSON.parse(TEXT) as AirlineJson;
const CLOCK_DATE = '2024-05-15';

let loaded: LoadedDb;
let episode: Episode;
beforeAll(() => {
  loaded = baseFromValue(airlineDomain, parsePyJson(TEXT), 'sandbox.json');
  episode = loaded.base.fork();
});
afterAll(() => {
  episode.close();
  loaded.base.close();
});

/** Calls a tool and returns its text; fails the test on a tool error. */
function call(name: string, args: Record<string, unknown>): string {
  const r = episode.call(name, toPyValue(args) as PyValue);
  if (r.error) expect.fail(`${name}(${JSON.stringify(args)}) failed: ${r.content}`);
  return r.content;
}
const json = <T>(text: string): T => JSON.parse(text) as T;

const reservations = Object.values(DB.reservations);
const unflown = (r: ReservationJson) => r.flights.every((f) => f.date > CLOCK_DATE);
const userOf = (r: ReservationJson) => DB.users[r.user_id] as UserJson;
const cardOf = (u: UserJson) => Object.values(u.payment_methods).find((m) => m.source === 'credit_card');
const dateStatus = (flight: string, date: string) => DB.flights[flight]?.dates[date];

describe('τ² airline tools on a sandbox DB', () => {
  it('reads: user and reservation details are the DB records, airports are the 20 of τ²', () => {
    const r = reservations[0] as ReservationJson;
    expect(json(call('get_user_details', { user_id: r.user_id }))).toEqual(userOf(r));
    expect(json(call('get_reservation_details', { reservation_id: r.reservation_id }))).toEqual({
      ...r,
      status: null,
    });
    expect(json<unknown[]>(call('list_all_airports', {}))).toHaveLength(20);
  });

  it('searches find the flights of a future one-stop reservation, and statuses read back', () => {
    const r = reservations.find(
      (x) =>
        x.flight_type === 'one_way' &&
        x.flights.length === 2 &&
        unflown(x) &&
        x.flights[0]?.date !== '2024-05-30',
    ) as ReservationJson;
    const [leg1, leg2] = r.flights as [ReservationJson['flights'][0], ReservationJson['flights'][0]];
    const pairs = json<{ flight_number: string; date: string }[][]>(
      call('search_onestop_flight', { origin: r.origin, destination: r.destination, date: leg1.date }),
    ).map((p) => p.map((l) => `${l.flight_number}@${l.date}`).join(' '));
    expect(pairs).toContain(`${leg1.flight_number}@${leg1.date} ${leg2.flight_number}@${leg2.date}`);
    const direct = json<{ flight_number: string }[]>(
      call('search_direct_flight', { origin: leg1.origin, destination: leg1.destination, date: leg1.date }),
    ).map((f) => f.flight_number);
    const expected = Object.values(DB.flights)
      .filter((f) => f.origin === leg1.origin && f.destination === leg1.destination)
      .map((f) => f.flight_number);
    expect(direct).toEqual(expected); // every date after the clock is bookable
    for (const status of ['cancelled', 'delayed', 'flying', 'on time', 'landed', 'available']) {
      const f = Object.values(DB.flights).find((x) =>
        Object.values(x.dates).some((s) => s.status === status),
      );
      const date = Object.entries(f?.dates ?? {}).find(([, s]) => s.status === status)?.[0];
      expect(call('get_flight_status', { flight_number: f?.flight_number, date })).toBe(status);
    }
  });

  it('books a direct flight for a saved passenger at the listed price plus insurance', () => {
    const user = Object.values(DB.users).find((u) => cardOf(u) !== undefined) as UserJson;
    const card = cardOf(user)?.id as string;
    const [number, flight] = Object.entries(DB.flights).find(
      ([, f]) => (f.dates['2024-05-25']?.available_seats?.economy ?? 0) >= 1,
    ) as [string, AirlineJson['flights'][string]];
    const price = dateStatus(number, '2024-05-25')?.prices?.economy as number;
    const passenger = user.saved_passengers[0];
    const booked = json<ReservationJson>(
      call('book_reservation', {
        user_id: user.user_id,
        origin: flight.origin,
        destination: flight.destination,
        flight_type: 'one_way',
        cabin: 'economy',
        flights: [{ flight_number: number, date: '2024-05-25' }],
        passengers: [passenger],
        payment_methods: [{ payment_id: card, amount: price + 30 }],
        total_baggages: 0,
        nonfree_baggages: 0,
        insurance: 'yes',
      }),
    );
    expect(booked.reservation_id).toBe('HATHAT');
    expect(booked.flights.map((f) => f.price)).toEqual([price]);
    expect(json<UserJson>(call('get_user_details', { user_id: user.user_id })).reservations.at(-1)).toBe(
      'HATHAT',
    );
  });

  it('adds a paid bag, changes the cabin at current prices, edits a passenger, all on one reservation', () => {
    const r = reservations.find(
      (x) =>
        unflown(x) &&
        x.cabin === 'economy' &&
        cardOf(userOf(x)) !== undefined &&
        x.flights.every(
          (f) => (dateStatus(f.flight_number, f.date)?.available_seats?.business ?? 0) >= x.passengers.length,
        ),
    ) as ReservationJson;
    const card = cardOf(userOf(r))?.id as string;
    const bags = json<ReservationJson>(
      call('update_reservation_baggages', {
        reservation_id: r.reservation_id,
        total_baggages: r.total_baggages + 1,
        nonfree_baggages: 1,
        payment_id: card,
      }),
    );
    expect(bags.payment_history.at(-1)).toEqual({ payment_id: card, amount: 50 });
    const pax = r.passengers.length;
    const now = r.flights.reduce(
      (n, f) => n + (dateStatus(f.flight_number, f.date)?.prices?.business ?? 0),
      0,
    );
    const before = r.flights.reduce((n, f) => n + f.price, 0);
    const changed = json<ReservationJson>(
      call('update_reservation_flights', {
        reservation_id: r.reservation_id,
        cabin: 'business',
        flights: r.flights.map((f) => ({ flight_number: f.flight_number, date: f.date })),
        payment_id: card,
      }),
    );
    expect(changed.cabin).toBe('business');
    expect(changed.payment_history.at(-1)).toEqual({ payment_id: card, amount: (now - before) * pax });
    const passengers = r.passengers.map((p, i) => (i === 0 ? { ...p, dob: '1980-02-29' } : p));
    const edited = json<ReservationJson>(
      call('update_reservation_passengers', { reservation_id: r.reservation_id, passengers }),
    );
    expect(edited.passengers).toEqual(passengers);
  });

  it('cancels a booking of the last 24 h with refunds of every payment; certificate, calculate, transfer', () => {
    const r = reservations.find(
      (x) => x.created_at >= '2024-05-14T15:00:00' && unflown(x),
    ) as ReservationJson;
    const cancelled = json<ReservationJson & { status: string }>(
      call('cancel_reservation', { reservation_id: r.reservation_id }),
    );
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.payment_history).toEqual([
      ...r.payment_history,
      ...r.payment_history.map((p) => ({ payment_id: p.payment_id, amount: -p.amount })),
    ]);
    expect(call('send_certificate', { user_id: r.user_id, amount: 100 })).toBe(
      `Certificate certificate_3221322 added to user ${r.user_id} with amount 100.`,
    );
    expect(call('calculate', { expression: '(120 + 30) * 2' })).toBe('300.0');
    expect(call('transfer_to_human_agents', { summary: 'flown segment' })).toBe('Transfer successful');
    expect(episode.stats.internalErrors).toBe(0);
  });
});
