import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputFileError } from '../../src/core/errors.js';
import { canonicalSha256, tau2DictHash } from '../../src/core/hash.js';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import { type PyDict, type PyValue, pyDict } from '../../src/core/py-value.js';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { baseFromValue, loadDbFile } from '../../src/domains/load-db.js';
import { stateFileText } from '../../src/env/state-file.js';
import { AIRLINE_DB, tau2AirlineBase } from '../helpers/airline-base.js';

/**
 * The airline DB in SQL: lossless import and dump in both writer styles, episode isolation, determinism, and bad
 * input named by file and JSON path. (The lead's shared `domainConformance` suite was not in this branch; these are
 * its airline-specific equivalents.)
 */

const dir = mkdtempSync(join(tmpdir(), 'cove-airline-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BOOK = pyDict({
  user_id: 'mia_li_3668',
  origin: 'PHL',
  destination: 'LGA',
  flight_type: 'one_way',
  cabin: 'economy',
  flights: [pyDict({ flight_number: 'HAT001', date: '2024-05-20' })],
  passengers: [pyDict({ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' })],
  payment_methods: [pyDict({ payment_id: 'certificate_7504069', amount: 137n })],
  total_baggages: 0n,
  nonfree_baggages: 0n,
  insurance: 'no',
});

describe('airline DB import and dump', () => {
  it('writes τ²’s db.json back byte for byte (file style), with τ²’s initial hashes', {
    timeout: 60_000,
  }, () => {
    const { base, hashes, isTau2Benchmark } = tau2AirlineBase();
    expect(isTau2Benchmark).toBe(true);
    expect(hashes.db_hash.slice(0, 16)).toBe('124e39a664b56402'); // tau2-spec.md §11
    expect(stateFileText(airlineDomain, base.sql, 'file')).toBe(readFileSync(AIRLINE_DB, 'utf8'));
  });

  it('model_dump style has τ²’s model field order and nulls, and re-imports to the same state', {
    timeout: 60_000,
  }, () => {
    const { base, hashes } = tau2AirlineBase();
    const text = stateFileText(airlineDomain, base.sql, 'model_dump');
    const value = parsePyJson(text) as PyDict;
    const flight = (value.get('flights') as PyDict).get('HAT001') as PyDict;
    expect([...flight.keys()].slice(0, 3)).toEqual(['flight_number', 'origin', 'destination']);
    const reservation = (value.get('reservations') as PyDict).get('4WQ150') as PyDict;
    expect(reservation.get('status')).toBe(null);
    expect([...((reservation.get('flights') as PyDict[])[0] as PyDict).keys()]).toEqual([
      'flight_number',
      'origin',
      'destination',
      'date',
      'price',
    ]);
    expect(tau2DictHash(value)).toBe(hashes.db_hash);
    const again = baseFromValue(airlineDomain, value, 'model_dump.json');
    expect(again.hashes).toEqual(hashes);
    expect(stateFileText(airlineDomain, again.base.sql, 'file')).toBe(readFileSync(AIRLINE_DB, 'utf8'));
    again.base.close();
  });

  it('a changed state round-trips through its file dump: cancelled status kept, the used certificate gone', () => {
    const episode = tau2AirlineBase().base.fork();
    try {
      expect(episode.call('book_reservation', BOOK).error).toBe(false);
      expect(episode.call('cancel_reservation', pyDict({ reservation_id: 'HATHAT' })).error).toBe(false);
      const file = join(dir, 'changed.json');
      writeFileSync(file, stateFileText(airlineDomain, episode.sql, 'file'));
      const reloaded = loadDbFile(airlineDomain, file);
      expect(reloaded.hashes).toEqual(episode.hashes());
      expect(reloaded.isTau2Benchmark).toBe(false);
      const user = parsePyJson(
        reloaded.base.fork().call('get_user_details', pyDict({ user_id: 'mia_li_3668' })).content,
      ) as PyDict;
      expect([...(user.get('payment_methods') as PyDict).keys()]).toEqual([
        'credit_card_4421486',
        'certificate_4856383',
        'credit_card_1955700',
      ]);
      expect(user.get('reservations')).toEqual(['NO6JO3', 'AIXC49', 'HKEG34', 'HATHAT']);
      reloaded.base.close();
    } finally {
      episode.close();
    }
  });
});

describe('airline episodes', () => {
  it('are isolated: a booking in one is invisible to another, and closing rolls it back', () => {
    const { base, hashes } = tau2AirlineBase();
    const a = base.fork();
    const b = base.fork();
    expect(a.call('book_reservation', BOOK).error).toBe(false);
    expect(b.call('get_reservation_details', pyDict({ reservation_id: 'HATHAT' })).content).toBe(
      'Error: Reservation HATHAT not found',
    );
    // b books too and gets the same id: each episode has its own sequence
    expect(JSON.parse(b.call('book_reservation', BOOK).content).reservation_id).toBe('HATHAT');
    expect(a.hashes()).toEqual(b.hashes());
    a.close();
    b.close();
    const c = base.fork();
    expect(c.hashes()).toEqual(hashes);
    expect(c.call('get_reservation_details', pyDict({ reservation_id: 'HATHAT' })).error).toBe(true);
    c.close();
  });

  it('are deterministic: the same calls give the same outputs and hashes, across bases loaded twice', {
    timeout: 60_000,
  }, () => {
    const run = (base: ReturnType<typeof tau2AirlineBase>['base']) => {
      const e = base.fork();
      try {
        const outputs = [
          e.call('book_reservation', BOOK).content,
          e.call('send_certificate', pyDict({ user_id: 'mia_li_3668', amount: 100n })).content,
          e.call(
            'update_reservation_baggages',
            pyDict({
              reservation_id: 'HATHAT',
              total_baggages: 2n,
              nonfree_baggages: 1n,
              payment_id: 'credit_card_4421486',
            }),
          ).content,
        ];
        return { outputs, hashes: e.hashes(), canonical: canonicalSha256(e.dump('model_dump')) };
      } finally {
        e.close();
      }
    };
    const first = run(tau2AirlineBase().base);
    const other = loadDbFile(airlineDomain, AIRLINE_DB);
    expect(run(other.base)).toEqual(first);
    expect(first.canonical).toBe(first.hashes.canonical_sha256);
    other.base.close();
  });
});

describe('malformed airline DBs', () => {
  const base = () => parsePyJson(readFileSync(AIRLINE_DB, 'utf8')) as PyDict;
  const cases: [string, (db: PyDict) => void, string][] = [
    [
      'a seat count that is not a number',
      (db) => {
        const dates = ((db.get('flights') as PyDict).get('HAT001') as PyDict).get('dates') as PyDict;
        ((dates.get('2024-05-20') as PyDict).get('available_seats') as PyDict).set('economy', 'ten');
      },
      '$.flights.HAT001.dates["2024-05-20"].available_seats.economy',
    ],
    [
      'an unknown flight status',
      (db) => {
        const dates = ((db.get('flights') as PyDict).get('HAT001') as PyDict).get('dates') as PyDict;
        dates.set('2024-05-20', pyDict({ status: 'boarding' }));
      },
      '$.flights.HAT001.dates["2024-05-20"].status',
    ],
    [
      'a reservation without passengers',
      (db) => ((db.get('reservations') as PyDict).get('4WQ150') as PyDict).delete('passengers'),
      '$.reservations["4WQ150"].passengers',
    ],
    [
      'a fractional payment amount',
      (db) => {
        const r = (db.get('reservations') as PyDict).get('4WQ150') as PyDict;
        ((r.get('payment_history') as PyValue[])[0] as PyDict).set('amount', 12.5);
      },
      '$.reservations["4WQ150"].payment_history[0].amount',
    ],
    [
      'a user stored under another key',
      (db) => {
        const users = db.get('users') as PyDict;
        users.set('someone_else', users.get('mia_li_3668') as PyValue);
      },
      '$.users.someone_else',
    ],
    ['an extra top-level collection', (db) => db.set('airports', []), '$'],
  ];

  it.each(cases)(
    '%s is refused, naming the file and the JSON path',
    { timeout: 60_000 },
    (_label, edit, path) => {
      const db = base();
      edit(db);
      let error: unknown;
      try {
        baseFromValue(airlineDomain, db, 'bad-airline.json');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputFileError);
      expect((error as InputFileError).file).toBe('bad-airline.json');
      expect((error as InputFileError).path).toBe(path);
    },
  );
});
