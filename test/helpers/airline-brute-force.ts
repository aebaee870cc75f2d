import { toPyValue } from '../../src/core/py-value.js';
import type { EnvironmentBase } from '../../src/env/environment-base.js';
import type { SqlConnection } from '../../src/env/sql.js';

/**
 * An INDEPENDENT brute-force uniqueness checker for synthesized airline tasks.
 *
 * It re-implements, from the written spec only (docs/airline.md "References", τ²'s search semantics), what every
 * fuzzy description of an airline task means, and checks by enumerating ALL entities in scope with raw SQL on
 * the airline tables (no read tools, nothing from `src/domains/airline/synthesis/` or `src/tasks/`) that exactly
 * the intended entity matches, in the state just before the request (the gold actions of the earlier constraints
 * applied, in order):
 *
 * - the user: their user id names exactly one user;
 * - a reservation among all of the user's reservations (by id; by origin, destination and first flight's date;
 *   by a passenger's name, case-insensitive, optionally with origin and destination);
 * - a payment method among the user's methods (id, credit card brand or last four, kind, the gift card with the
 *   largest balance);
 * - new flights among every direct flight or one-stop pair the airline flies on that route and date with status
 *   `available` (one-stop: the first leg's destination is the second leg's origin, the second leg leaves on the
 *   next day — τ²'s unpadded `2024-05-<day+1>` under parity — when the first arrives "+1", and departs at or after
 *   the first's arrival by string comparison), filtered by time of day, earliest departure, or lowest summed
 *   price in the cabin among those with enough seats;
 * - a flight of a reservation (number and date, or origin and destination);
 * - a passenger among the reservation's passengers, or the user and their saved passengers.
 *
 * It also scans every user-facing text (scenario, persona, every `phrase`) for hidden ids.
 */

type Rec = Readonly<Record<string, unknown>>;
const s = (v: unknown): string => String(v);
const n = (v: unknown): number => Number(v);

interface Leg {
  flight_number: string;
  date: string;
}
interface Person {
  first_name: string;
  last_name: string;
  dob: string;
}

/** The kinds with one gold action each (the others have none). */
const WRITE_KINDS = new Set([
  'book_reservation',
  'change_flights',
  'change_cabin',
  'add_bags',
  'change_passengers',
  'cancel_reservation',
  'compensation_certificate',
]);

function userReservations(sql: SqlConnection, userId: string): string[] {
  const ids = new Set<string>();
  for (const r of sql.all('SELECT reservation_id FROM user_reservations WHERE user_id = ?', userId))
    ids.add(s(r.reservation_id));
  for (const r of sql.all('SELECT reservation_id FROM reservations WHERE user_id = ?', userId))
    ids.add(s(r.reservation_id));
  return [...ids].sort();
}

function flightsOf(
  sql: SqlConnection,
  reservationId: string,
): (Leg & { origin: string; destination: string })[] {
  return sql
    .all('SELECT * FROM reservation_flights WHERE reservation_id = ? ORDER BY pos', reservationId)
    .map((r) => ({
      flight_number: s(r.flight_number),
      date: s(r.date),
      origin: s(r.origin),
      destination: s(r.destination),
    }));
}

function passengersOf(sql: SqlConnection, reservationId: string): Person[] {
  return sql
    .all('SELECT * FROM reservation_passengers WHERE reservation_id = ? ORDER BY pos', reservationId)
    .map((r) => ({ first_name: s(r.first_name), last_name: s(r.last_name), dob: s(r.dob) }));
}

function matchReservation(sql: SqlConnection, userId: string, ref: Rec): string[] {
  return userReservations(sql, userId).filter((id) => {
    const r = sql.get('SELECT * FROM reservations WHERE reservation_id = ?', id) as Rec;
    if (ref.strategy === 'id') return id === ref.reservation_id;
    const origin = (ref.origin as Rec | undefined)?.iata;
    const destination = (ref.destination as Rec | undefined)?.iata;
    if (ref.strategy === 'route_date')
      return r.origin === origin && r.destination === destination && flightsOf(sql, id)[0]?.date === ref.date;
    if (ref.strategy === 'passenger')
      return (
        passengersOf(sql, id).some(
          (p) =>
            p.first_name.toLowerCase() === s(ref.first_name).toLowerCase() &&
            p.last_name.toLowerCase() === s(ref.last_name).toLowerCase(),
        ) &&
        (origin === undefined || r.origin === origin) &&
        (destination === undefined || r.destination === destination)
      );
    return false;
  });
}

function matchPayment(sql: SqlConnection, userId: string, ref: Rec): string[] {
  const all = sql.all('SELECT * FROM payment_methods WHERE user_id = ?', userId);
  const ids = (rows: Rec[]) => rows.map((m) => s(m.id)).sort();
  switch (ref.strategy) {
    case 'id':
      return ids(all.filter((m) => m.id === ref.payment_id));
    case 'brand':
      return ids(
        all.filter(
          (m) => m.source === 'credit_card' && s(m.brand).toLowerCase() === s(ref.brand).toLowerCase(),
        ),
      );
    case 'last_four':
      return ids(all.filter((m) => m.source === 'credit_card' && m.last_four === ref.last_four));
    case 'kind':
      return ids(all.filter((m) => m.source === ref.source));
    case 'richest_gift_card': {
      const cards = all.filter((m) => m.source === 'gift_card');
      const top = Math.max(...cards.map((m) => n(m.amount)));
      return ids(cards.filter((m) => n(m.amount) === top));
    }
    default:
      return [];
  }
}

interface Offer {
  flight_number: string;
  date: string;
  dep: string;
  arr: string;
  seats: Record<string, number>;
  prices: Record<string, number>;
}

function offers(sql: SqlConnection, origin: string, destination: string | null, date: string): Offer[] {
  const rows = sql.all(
    `SELECT f.flight_number, f.destination, f.scheduled_departure_time_est AS dep, f.scheduled_arrival_time_est AS arr,
            d.available_seats, d.prices
     FROM flights f JOIN flight_dates d ON d.flight_number = f.flight_number
     WHERE f.origin = ? AND d.date = ? AND d.status = 'available'`,
    origin,
    date,
  );
  return rows
    .filter((r) => destination === null || r.destination === destination)
    .map((r) => ({
      flight_number: s(r.flight_number),
      date,
      dep: s(r.dep),
      arr: s(r.arr),
      seats: JSON.parse(s(r.available_seats)),
      prices: JSON.parse(s(r.prices)),
      destination: s(r.destination),
    }));
}

function nextDay(date: string, parity: boolean): string {
  const day = Number(date.slice(8, 10)) + 1;
  return parity ? `2024-05-${day}` : `2024-05-${String(day).padStart(2, '0')}`;
}

/** Every itinerary the airline flies from `origin` to `destination` leaving on `date`, with `stops` stops. */
function itineraries(sql: SqlConnection, ref: Rec, parity: boolean): Offer[][] {
  const origin = s((ref.origin as Rec).iata);
  const destination = s((ref.destination as Rec).iata);
  const date = s(ref.date);
  if (ref.stops === 0) return offers(sql, origin, destination, date).map((o) => [o]);
  const out: Offer[][] = [];
  for (const first of offers(sql, origin, null, date)) {
    const date2 = first.arr.includes('+1') ? nextDay(date, parity) : date;
    const after = parity ? first.arr : first.arr.replace('+1', '');
    const via = (first as Offer & { destination: string }).destination;
    for (const second of offers(sql, via, destination, date2))
      if (second.dep >= after) out.push([first, second]);
  }
  return out;
}

function partOfDay(dep: string): string {
  const h = Number(dep.slice(0, 2));
  return h >= 5 && h < 12
    ? 'morning'
    : h >= 12 && h < 17
      ? 'afternoon'
      : h >= 17 && h < 21
        ? 'evening'
        : 'night';
}

function matchItinerary(sql: SqlConnection, ref: Rec, pax: number, parity: boolean): string[] {
  const key = (legs: readonly Leg[]) => legs.map((l) => `${l.flight_number}@${l.date}`).join(',');
  if (ref.strategy === 'numbers') return [key(ref.flights as Leg[])];
  let all = itineraries(sql, ref, parity);
  if (ref.strategy === 'time_of_day') all = all.filter((it) => partOfDay(it[0]?.dep ?? '') === ref.part);
  else if (ref.strategy === 'earliest') {
    const first = all.map((it) => it[0]?.dep ?? '').sort()[0];
    all = all.filter((it) => it[0]?.dep === first);
  } else if (ref.strategy === 'cheapest') {
    const cabin = s(ref.cabin);
    all = all.filter((it) => it.every((l) => (l.seats[cabin] ?? 0) >= pax));
    const price = (it: Offer[]) => it.reduce((t, l) => t + (l.prices[cabin] ?? 0), 0);
    const low = Math.min(...all.map(price));
    all = all.filter((it) => price(it) === low);
  } else return [];
  return all.map(key);
}

function matchPerson(ref: Rec, pool: readonly Person[], self: Person): string[] {
  const key = (p: Person) => `${p.first_name}|${p.last_name}|${p.dob}`;
  if (ref.strategy === 'details') return [key(ref as unknown as Person)];
  const hits =
    ref.strategy === 'relation'
      ? pool.filter((p) => key(p) === key(self))
      : pool.filter(
          (p) =>
            p.first_name.toLowerCase() === s(ref.first_name).toLowerCase() &&
            p.last_name.toLowerCase() === s(ref.last_name).toLowerCase(),
        );
  return [...new Set(hits.map(key))];
}

function selfAndSaved(sql: SqlConnection, userId: string): { self: Person; pool: Person[] } {
  const u = sql.get('SELECT first_name, last_name, dob FROM users WHERE user_id = ?', userId) as Rec;
  const self = { first_name: s(u.first_name), last_name: s(u.last_name), dob: s(u.dob) };
  const saved = sql
    .all('SELECT first_name, last_name, dob FROM saved_passengers WHERE user_id = ? ORDER BY pos', userId)
    .map((r) => ({ first_name: s(r.first_name), last_name: s(r.last_name), dob: s(r.dob) }));
  return { self, pool: [self, ...saved] };
}

/**
 * The new flights of the changed leg in a reservation's new flight list: for `outbound`, all but as many trailing
 * flights as the old return had; for `return`, all after as many leading flights as the old outbound had (a round
 * trip's outbound ends at the reservation's destination).
 */
function changedLeg(sql: SqlConnection, reservationId: string, flights: readonly Leg[], leg: unknown): Leg[] {
  const r = sql.get('SELECT * FROM reservations WHERE reservation_id = ?', reservationId) as Rec;
  const old = flightsOf(sql, reservationId);
  const turn =
    r.flight_type === 'one_way' ? old.length : old.findIndex((f) => f.destination === r.destination) + 1;
  return leg === 'outbound' ? flights.slice(0, flights.length - (old.length - turn)) : flights.slice(turn);
}

/** Every violation of one task (empty when all its descriptions are unique and no text leaks a hidden id). */
export function airlineBruteForceViolations(base: EnvironmentBase, task: Rec): string[] {
  const cove = task.cove as Rec;
  const fuzz = cove.fuzz as Rec;
  const parity = cove.semantics !== 'fixed';
  const userId = s((fuzz.user as Rec).user_id);
  const constraints = cove.constraints as Rec[];
  const requests = fuzz.requests as Rec[];
  const actions = (task.evaluation_criteria as Rec).actions as Rec[];
  const out: string[] = [];
  const bad = (i: number, what: string, hits: readonly string[], want: string) => {
    if (hits.length !== 1 || hits[0] !== want)
      out.push(`${task.id} c${i + 1} ${what}: [${hits.join(' ')}] for ${want}`);
  };
  const episode = base.fork({ semantics: parity ? 'parity' : 'fixed' });
  try {
    const sql = episode.sql;
    if (sql.all('SELECT 1 FROM users WHERE user_id = ?', userId).length !== 1)
      out.push(`${task.id}: user ${userId}`);
    let next = 0;
    for (const [i, c] of constraints.entries()) {
      const a = c.args as Rec;
      const q = requests[i] as Rec;
      const people = selfAndSaved(sql, userId);
      const rid = s(a.reservation_id);
      if (c.kind === 'book_reservation') {
        const flights = a.flights as Leg[];
        const count = n((a.outbound as Rec).count);
        const pax = (a.passengers as Person[]).length;
        const key = (legs: Leg[]) => legs.map((l) => `${l.flight_number}@${l.date}`).join(',');
        bad(i, 'outbound', matchItinerary(sql, q.outbound as Rec, pax, parity), key(flights.slice(0, count)));
        if (q.return !== undefined)
          bad(i, 'return', matchItinerary(sql, q.return as Rec, pax, parity), key(flights.slice(count)));
        (q.passengers as Rec[]).forEach((p, j) => {
          const want = (a.passengers as Person[])[j] as Person;
          bad(
            i,
            'passenger',
            matchPerson(p, people.pool, people.self),
            `${want.first_name}|${want.last_name}|${want.dob}`,
          );
        });
        (q.payments as Rec[]).forEach((p, j) => {
          const want = s(((a.payment_methods as Rec[])[j] as Rec).payment_id);
          bad(i, 'payment', matchPayment(sql, userId, p.payment as Rec), want);
        });
      } else {
        bad(i, 'reservation', matchReservation(sql, userId, q.reservation as Rec), rid);
        if (q.payment !== undefined)
          bad(i, 'payment', matchPayment(sql, userId, q.payment as Rec), s(a.payment_id));
        if (q.flight !== undefined) {
          const ref = q.flight as Rec;
          const hits = flightsOf(sql, rid)
            .filter((f) =>
              ref.strategy === 'number'
                ? f.flight_number === ref.flight_number && f.date === ref.date
                : f.origin === (ref.origin as Rec).iata && f.destination === (ref.destination as Rec).iata,
            )
            .map((f) => `${f.flight_number}@${f.date}`);
          bad(i, 'flight', hits, `${a.flight_number}@${a.date}`);
        }
        if (q.legs !== undefined) {
          const pax = c.kind === 'change_flights' ? passengersOf(sql, rid).length : 0;
          for (const l of q.legs as Rec[]) {
            const want = changedLeg(sql, rid, a.flights as Leg[], l.leg);
            const key = want.map((f) => `${f.flight_number}@${f.date}`).join(',');
            bad(i, `${l.leg} leg`, matchItinerary(sql, l.to as Rec, pax, parity), key);
          }
        }
        const onBoard = passengersOf(sql, rid);
        const k = (p: Person) => `${p.first_name}|${p.last_name}|${p.dob}`;
        for (const e of (q.edits ?? []) as Rec[]) {
          const at = n(a.index);
          bad(
            i,
            'passenger',
            matchPerson(e.passenger as Rec, onBoard, people.self),
            k(onBoard[at] as Person),
          );
          bad(
            i,
            'new passenger',
            matchPerson(e.to as Rec, people.pool, people.self),
            k((a.passengers as Person[])[at] as Person),
          );
        }
        const added = (Array.isArray(q.add) ? q.add : []) as Rec[];
        for (const [j, p] of added.entries())
          bad(
            i,
            'added passenger',
            matchPerson(p, people.pool, people.self),
            k((a.add as Person[])[j] as Person),
          );
        const removed = (Array.isArray(q.remove) ? q.remove : []) as Rec[];
        for (const [j, p] of removed.entries())
          bad(
            i,
            'removed passenger',
            matchPerson(p, onBoard, people.self),
            k((a.remove as Person[])[j] as Person),
          );
      }
      if (WRITE_KINDS.has(s(c.kind))) {
        const action = actions[next++] as Rec;
        const r = episode.call(s(action.name), toPyValue(action.arguments));
        if (r.error) out.push(`${task.id} c${i + 1}: gold ${s(action.name)} failed: ${r.content}`);
      }
    }
  } finally {
    episode.close();
  }
  out.push(...leaks(task));
  return out;
}

/** Every `phrase` in a value (the words the user says for each reference). */
function phrases(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(phrases);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Rec).flatMap(([k, v]) =>
    k === 'phrase' && typeof v === 'string' ? [v] : phrases(v),
  );
}

/** Hidden ids found in the scenario, the persona or any phrase of the task. */
export function leaks(task: Rec): string[] {
  const cove = task.cove as Rec;
  const fuzz = cove.fuzz as Rec;
  const texts = [JSON.stringify(task.user_scenario), ...phrases(fuzz.requests)];
  return (fuzz.hidden_ids as string[])
    .filter((id) => texts.some((t) => t.includes(id)))
    .map((id) => `${task.id}: user text mentions hidden id ${id}`);
}
