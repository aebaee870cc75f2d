import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pyJsonDumps } from '../../src/core/py-json.js';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import { airlineDomain } from '../../src/domains/airline/index.js';
import {
  airlineFingerprintModuleText,
  tau2AirlineFingerprints,
} from '../../src/domains/airline/sandbox/fingerprints.js';
import {
  type AirlineSandboxOptions,
  generateAirlineSandbox,
} from '../../src/domains/airline/sandbox/generate.js';
import { TAU2_FINGERPRINTS } from '../../src/domains/airline/sandbox/tau2-fingerprints.js';
import { baseFromValue, readJsonFile } from '../../src/domains/load-db.js';
import { stateFileText } from '../../src/env/state-file.js';
import { AIRLINE_DB } from '../helpers/airline-base.js';
import { type AirlineJson, identifying, structuralProblems } from '../helpers/airline-sandbox-checks.js';
import { REPO, runCove } from '../helpers/cli.js';

const TAU2 = JSON.parse(readFileSync(AIRLINE_DB, 'utf8')) as AirlineJson;

const texts = new Map<string, string>();
/** The generated db.json text (cached per options: generation is deterministic, which test (a) checks). */
function sandboxText(options: AirlineSandboxOptions): string {
  const key = JSON.stringify(options);
  let text = texts.get(key);
  if (text === undefined) {
    text = pyJsonDumps(generateAirlineSandbox(options), { indent: 4 });
    texts.set(key, text);
  }
  return text;
}
const sandbox = (options: AirlineSandboxOptions): AirlineJson =>
  JSON.parse(sandboxText(options)) as AirlineJson;

/**
 * τ²'s airline db.json (500 users, 2000 reservations, 300 flights), measured by hand with Python's `json.load`
 * and plain counting, e.g. `sum(r['insurance'] == 'yes' for r in db['reservations'].values())` → 1005. Each
 * value is the ratio shown; "before the clock" means a date before 2024-05-15, "recent" a `created_at` at or
 * after 2024-05-14T15:00:00 (24 h before τ²'s clock).
 */
const TAU2_STATISTICS: Readonly<Record<string, number>> = {
  'gold members': 175 / 500,
  'silver members': 182 / 500,
  'regular members': 143 / 500,
  'payment methods per user': 1486 / 500,
  'credit cards among methods': 503 / 1486,
  'gift cards among methods': 516 / 1486,
  'certificates among methods': 467 / 1486,
  'users with no credit or gift card': 42 / 500,
  'mean gift card balance': 77606 / 516,
  'saved passengers per user': 672 / 500,
  'users without reservations': 48 / 500,
  'reservations per user': 2000 / 500,
  'one-way reservations': 1045 / 2000,
  'business reservations': 675 / 2000,
  'economy reservations': 676 / 2000,
  'basic economy reservations': 649 / 2000,
  'insured reservations': 1005 / 2000,
  'passengers per reservation': 3593 / 2000,
  'flights per reservation': 5003 / 2000,
  'reservations with a flight before the clock': 697 / 2000,
  'reservations holding a cancelled flight': 111 / 2000,
  'recent reservations': 41 / 2000,
  'bags per reservation': 1831 / 2000,
  'reservations without bags': 1075 / 2000,
  'paid by credit card': 1035 / 2000,
  'first passenger is the user': 1598 / 2000,
  'cancelled past flight dates': 373 / 4200,
  'delayed among clock-date flights not yet gone': 41 / 98,
  'overnight flights': 36 / 300,
  'mean block minutes': 55140 / 300,
  'seats per cabin on bookable dates': 135597 / (4500 * 3),
  'mean basic economy price': 336982 / 4500,
  'mean economy price': 673529 / 4500,
  'mean business price': 1572771 / 4500,
};

const CLOCK_DATE = '2024-05-15';
const RECENT_FROM = '2024-05-14T15:00:00';

function statistics(db: AirlineJson): Record<string, number> {
  const users = Object.values(db.users);
  const reservations = Object.values(db.reservations);
  const flights = Object.values(db.flights);
  const methods = users.flatMap((u) => Object.values(u.payment_methods));
  const gifts = methods.filter((m) => m.source === 'gift_card');
  const share = <T>(xs: readonly T[], p: (x: T) => boolean) => xs.filter(p).length / xs.length;
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const past = flights.flatMap((f) => Object.entries(f.dates).filter(([d]) => d < CLOCK_DATE));
  const clock = flights.map((f) => f.dates[CLOCK_DATE]?.status);
  const open = flights.flatMap((f) => Object.values(f.dates).filter((s) => s.status === 'available'));
  const minutes = (t: string) =>
    Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5)) + (t.endsWith('+1') ? 1440 : 0);
  const statusOf = (f: { flight_number: string; date: string }) =>
    db.flights[f.flight_number]?.dates[f.date]?.status;
  const isUser = (r: (typeof reservations)[number]) => {
    const u = db.users[r.user_id];
    const p = r.passengers[0];
    return (
      u !== undefined &&
      p !== undefined &&
      p.first_name === u.name.first_name &&
      p.last_name === u.name.last_name &&
      p.dob === u.dob
    );
  };
  const meanPrice = (cabin: string) => sum(open.map((s) => s.prices?.[cabin] ?? 0)) / open.length;
  return {
    'gold members': share(users, (u) => u.membership === 'gold'),
    'silver members': share(users, (u) => u.membership === 'silver'),
    'regular members': share(users, (u) => u.membership === 'regular'),
    'payment methods per user': methods.length / users.length,
    'credit cards among methods': share(methods, (m) => m.source === 'credit_card'),
    'gift cards among methods': share(methods, (m) => m.source === 'gift_card'),
    'certificates among methods': share(methods, (m) => m.source === 'certificate'),
    'users with no credit or gift card': share(users, (u) =>
      Object.values(u.payment_methods).every((m) => m.source === 'certificate'),
    ),
    'mean gift card balance': sum(gifts.map((m) => m.amount ?? 0)) / gifts.length,
    'saved passengers per user': sum(users.map((u) => u.saved_passengers.length)) / users.length,
    'users without reservations': share(users, (u) => u.reservations.length === 0),
    'reservations per user': reservations.length / users.length,
    'one-way reservations': share(reservations, (r) => r.flight_type === 'one_way'),
    'business reservations': share(reservations, (r) => r.cabin === 'business'),
    'economy reservations': share(reservations, (r) => r.cabin === 'economy'),
    'basic economy reservations': share(reservations, (r) => r.cabin === 'basic_economy'),
    'insured reservations': share(reservations, (r) => r.insurance === 'yes'),
    'passengers per reservation': sum(reservations.map((r) => r.passengers.length)) / reservations.length,
    'flights per reservation': sum(reservations.map((r) => r.flights.length)) / reservations.length,
    'reservations with a flight before the clock': share(reservations, (r) =>
      r.flights.some((f) => f.date < CLOCK_DATE),
    ),
    'reservations holding a cancelled flight': share(reservations, (r) =>
      r.flights.some((f) => statusOf(f) === 'cancelled'),
    ),
    'recent reservations': share(reservations, (r) => r.created_at >= RECENT_FROM),
    'bags per reservation': sum(reservations.map((r) => r.total_baggages)) / reservations.length,
    'reservations without bags': share(reservations, (r) => r.total_baggages === 0),
    'paid by credit card': share(
      reservations,
      (r) => r.payment_history[0]?.payment_id.startsWith('credit_card') === true,
    ),
    'first passenger is the user': share(reservations, isUser),
    'cancelled past flight dates': share(past, ([, s]) => s.status === 'cancelled'),
    'delayed among clock-date flights not yet gone':
      clock.filter((s) => s === 'delayed').length /
      clock.filter((s) => s === 'delayed' || s === 'on time').length,
    'overnight flights': share(flights, (f) => f.scheduled_arrival_time_est.endsWith('+1')),
    'mean block minutes':
      sum(
        flights.map((f) => minutes(f.scheduled_arrival_time_est) - minutes(f.scheduled_departure_time_est)),
      ) / flights.length,
    'seats per cabin on bookable dates':
      sum(open.flatMap((s) => Object.values(s.available_seats ?? {}))) / (open.length * 3),
    'mean basic economy price': meanPrice('basic_economy'),
    'mean economy price': meanPrice('economy'),
    'mean business price': meanPrice('business'),
  };
}

/** Statistics of `db` more than ±`tolerance` (relative) away from τ²'s, as readable lines. */
function outsideTolerance(db: AirlineJson, tolerance: number): string[] {
  const ours = statistics(db);
  return Object.entries(TAU2_STATISTICS)
    .filter(([k, t]) => !(Math.abs((ours[k] as number) - t) <= tolerance * t))
    .map(([k, t]) => `${k}: τ² ${t.toFixed(3)}, sandbox ${(ours[k] as number).toFixed(3)}`);
}

describe('airline sandbox generator', () => {
  it('(a) is deterministic: same seed, same bytes; another seed, another DB; flights independent of sizes', () => {
    const first = sandboxText({ seed: 1 });
    expect(pyJsonDumps(generateAirlineSandbox({ seed: 1 }), { indent: 4 }) === first).toBe(true);
    expect(sandboxText({ seed: 2 }) === first).toBe(false);
    const small = sandbox({ seed: 1, users: 40, reservations: 120 });
    expect(JSON.stringify(small.flights) === JSON.stringify(sandbox({ seed: 1 }).flights)).toBe(true);
  });

  it("(b) loads through the airline importer, writes back byte for byte in τ²'s file style, and is not τ²'s DB", () => {
    const text = sandboxText({ seed: 1 });
    expect(text.startsWith('{\n    "flights": {\n        "HAT001": {\n            "origin": ')).toBe(true);
    expect(text.endsWith('\n}')).toBe(true);
    const loaded = baseFromValue(airlineDomain, parsePyJson(text), 'sandbox.json');
    try {
      expect(loaded.isTau2Benchmark).toBe(false);
      expect(loaded.hashes.db_hash).not.toBe(airlineDomain.tau2?.initialHashes?.db_hash);
      expect(stateFileText(loaded.base.spec, loaded.base.sql, 'file') === text).toBe(true);
    } finally {
      loaded.base.close();
    }
  });

  it("(c) has τ²'s structure: ids, key orders, schedules, statuses around the clock, resolvable reservations", () => {
    for (const seed of [1, 2]) {
      const db = sandbox({ seed });
      expect(structuralProblems(db)).toEqual([]);
      expect(Object.keys(db.flights)).toHaveLength(300);
      expect(Object.keys(db.users)).toHaveLength(500);
      expect(Object.keys(db.reservations)).toHaveLength(2000);
    }
  });

  it("(d) mirrors τ²'s shares: each statistic within ±20 % of the value measured from τ²'s db.json", () => {
    expect(outsideTolerance(TAU2, 1e-9)).toEqual([]); // the hand-measured numbers are τ²'s, computed the same way
    for (const seed of [1, 2]) expect(outsideTolerance(sandbox({ seed }), 0.2)).toEqual([]);
  });

  it('(e) keeps every kind of entity the constraint kinds draw on', () => {
    const db = sandbox({ seed: 1 });
    const reservations = Object.values(db.reservations);
    const flown = (r: (typeof reservations)[number]) => r.flights.some((f) => f.date <= CLOCK_DATE);
    const unflown = reservations.filter((r) => !flown(r));
    const count = (p: (r: (typeof reservations)[number]) => boolean) => unflown.filter(p).length;
    expect(count((r) => r.created_at >= RECENT_FROM)).toBeGreaterThanOrEqual(20);
    expect(count((r) => r.cabin === 'business')).toBeGreaterThanOrEqual(100);
    expect(count((r) => r.cabin === 'basic_economy')).toBeGreaterThanOrEqual(100);
    expect(count((r) => r.insurance === 'yes' && r.cabin !== 'business')).toBeGreaterThanOrEqual(100);
    expect(count((r) => r.flight_type === 'round_trip' && r.flights.length === 4)).toBeGreaterThanOrEqual(
      100,
    );
    const status = (f: { flight_number: string; date: string }) =>
      db.flights[f.flight_number]?.dates[f.date]?.status;
    for (const s of ['cancelled', 'delayed', 'landed', 'flying', 'on time']) {
      expect(
        reservations.filter((r) => r.flights.some((f) => status(f) === s)).length,
        s,
      ).toBeGreaterThanOrEqual(5);
    }
    // nothing flown yet (landed or in the air) but a flight the airline cancelled, or a delayed one: the
    // cancellation and compensation cases (τ²'s DB has 23 and 10)
    const gone = (r: (typeof reservations)[number]) =>
      r.flights.some((f) => ['landed', 'flying'].includes(status(f) ?? ''));
    const holding = (s: string) =>
      reservations.filter((r) => !gone(r) && r.flights.some((f) => status(f) === s));
    expect(holding('cancelled').length).toBeGreaterThanOrEqual(10);
    expect(holding('delayed').length).toBeGreaterThanOrEqual(5);
    const users = Object.values(db.users);
    expect(users.filter((u) => Object.keys(u.payment_methods).length >= 3).length).toBeGreaterThanOrEqual(
      100,
    );
    for (const m of ['gold', 'silver', 'regular']) {
      expect(users.filter((u) => u.membership === m && u.reservations.length > 0).length).toBeGreaterThan(50);
    }
  });

  it("(f) shares no user id, email, name, street address, reservation id or payment id with τ²'s DB", () => {
    const theirs = identifying(TAU2);
    for (const options of [{ seed: 1 }, { seed: 2 }, { seed: 3, users: 40, reservations: 120 }]) {
      const ours = identifying(sandbox(options));
      for (const [kind, values] of Object.entries(ours)) {
        expect(values.size, kind).toBeGreaterThan(0);
        const shared = [...values].filter((v) => theirs[kind]?.has(v));
        expect(shared, `${kind} shared with τ² (${JSON.stringify(options)})`).toEqual([]);
      }
      // nor the ids τ²'s tools hand out to new reservations and certificates
      const ids = [...(ours['reservation id'] ?? []), ...(ours['payment id'] ?? [])];
      expect(ids.filter((id) => /^HATHA[TUV]$|^certificate_322132[234]$/.test(id))).toEqual([]);
    }
  });

  it("(g) the committed fingerprint file is current with τ²'s db.json and covers every identifying value", () => {
    const committed = readFileSync(join(REPO, 'src/domains/airline/sandbox/tau2-fingerprints.ts'), 'utf8');
    expect(
      airlineFingerprintModuleText(tau2AirlineFingerprints(readJsonFile(AIRLINE_DB), AIRLINE_DB)) ===
        committed,
    ).toBe(true);
    const set = new Set(TAU2_FINGERPRINTS.flatMap((line) => line.split(' ')));
    const kinds: Record<string, string> = {
      'user id': 'user',
      email: 'email',
      'full name': 'name',
      address1: 'address1',
      'reservation id': 'reservation',
      'payment id': 'payment',
    };
    for (const [kind, values] of Object.entries(identifying(TAU2))) {
      for (const v of values) {
        const fp = createHash('sha256').update(`${kinds[kind]}:${v}`).digest('hex').slice(0, 12);
        if (!set.has(fp)) expect.fail(`no fingerprint for τ² ${kind} ${v}`);
      }
    }
  });

  it('(h) a small DB (40 users, 120 reservations) keeps the structure', () => {
    const db = sandbox({ seed: 3, users: 40, reservations: 120 });
    expect(Object.keys(db.users)).toHaveLength(40);
    expect(Object.keys(db.reservations)).toHaveLength(120);
    expect(structuralProblems(db)).toEqual([]);
    const one = sandbox({ seed: 4, users: 1, reservations: 1 });
    expect(structuralProblems(one)).toEqual([]);
    expect(Object.values(one.users)[0]?.reservations).toHaveLength(1);
  });
});

describe('cove sandbox --domain airline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cove-air-sandbox-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the same bytes as the generator and prints the sizes', () => {
    const file = join(dir, 'db.json');
    const r = runCove([
      'sandbox',
      '--domain',
      'airline',
      '--seed',
      '3',
      '--users',
      '40',
      '--reservations',
      '120',
      '--out',
      file,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/300 flights, 40 users, 120 reservations/);
    expect(readFileSync(file, 'utf8') === sandboxText({ seed: 3, users: 40, reservations: 120 })).toBe(true);
    expect(readdirSync(dir)).toEqual(['db.json']);
  });

  it('rejects a size of another domain and a size out of range', () => {
    const out = join(dir, 'bad.json');
    const orders = runCove(['sandbox', '--domain', 'airline', '--seed', '1', '--orders', '5', '--out', out]);
    expect(orders.status).toBe(2);
    expect(orders.stderr).toContain(
      '--orders does not apply to airline (its sizes: --users, --reservations)',
    );
    const zero = runCove([
      'sandbox',
      '--domain',
      'airline',
      '--seed',
      '1',
      '--reservations',
      '0',
      '--out',
      out,
    ]);
    expect(zero.status).toBe(2);
    expect(zero.stderr).toContain("--reservations must be a positive integer (at most 100000), not '0'");
    expect(readdirSync(dir)).not.toContain('bad.json');
  });
});
