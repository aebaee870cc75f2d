import { describe, expect, it } from 'vitest';
import { canonicalSha256, tau2DictHash } from '../../src/core/hash.js';
import { type PyValue, pyDict } from '../../src/core/py-value.js';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { baseFromValue } from '../../src/domains/load-db.js';
import type { Episode } from '../../src/env/episode.js';

/**
 * The incremental digests (resumed from the base's hash checkpoints) must equal hashes of a full dump, whatever the
 * episode changed: the first or last entity of a collection, entities deleted (including every entity of a
 * collection) or added before the first and after the last base key, and several collections at once. The
 * reference is `sha256(json.dumps(dump, sort_keys=True))` of the episode's whole model dump.
 */

const open = () =>
  pyDict({
    status: 'available',
    available_seats: pyDict({ basic_economy: 5n, economy: 5n, business: 5n }),
    prices: pyDict({ basic_economy: 50n, economy: 100n, business: 300n }),
  });

function flight(n: string): PyValue {
  return pyDict({
    flight_number: n,
    origin: 'AAA',
    destination: 'BBB',
    scheduled_departure_time_est: '06:00:00',
    scheduled_arrival_time_est: '07:00:00',
    dates: pyDict({ '2024-05-20': open() }),
  });
}

function user(id: string): PyValue {
  return pyDict({
    user_id: id,
    name: pyDict({ first_name: 'A', last_name: 'B' }),
    address: pyDict({
      address1: '1 Main',
      address2: 'Apt 1',
      city: 'X',
      country: 'USA',
      state: 'TX',
      zip: '1',
    }),
    email: 'a@example.com',
    dob: '1990-01-01',
    payment_methods: pyDict({
      credit_card_1: pyDict({ source: 'credit_card', id: 'credit_card_1', brand: 'visa', last_four: '1234' }),
    }),
    saved_passengers: [],
    membership: 'gold',
    reservations: [],
  });
}

const db = pyDict({
  flights: pyDict({ HAT100: flight('HAT100'), HAT200: flight('HAT200'), HAT300: flight('HAT300') }),
  users: pyDict({ bob_1: user('bob_1'), carl_2: user('carl_2') }),
  reservations: new Map(),
});

const FLIGHT_TABLES = ['flight_dates', 'flights'];

function removeFlight(e: Episode, n: string): void {
  for (const t of FLIGHT_TABLES) e.sql.run(`DELETE FROM ${t} WHERE flight_number = ?`, n);
}

function addFlight(e: Episode, n: string, pos: number): void {
  e.sql.run(
    `INSERT INTO flights(flight_number, pos, origin, destination, scheduled_departure_time_est, scheduled_arrival_time_est)
     VALUES (?, ?, 'CCC', 'DDD', '01:00:00', '02:00:00')`,
    n,
    pos,
  );
  e.sql.run(
    `INSERT INTO flight_dates(flight_number, date, pos, status) VALUES (?, '2024-05-21', 0, 'cancelled')`,
    n,
  );
}

const edits: Record<string, (e: Episode) => void> = {
  'first entity changed': (e) =>
    e.sql.run("UPDATE flights SET origin = 'ZZZ' WHERE flight_number = 'HAT100'"),
  'last entity changed': (e) => e.sql.run("UPDATE users SET dob = '2000-01-01' WHERE user_id = 'carl_2'"),
  'first entity deleted': (e) => removeFlight(e, 'HAT100'),
  'middle entity deleted': (e) => removeFlight(e, 'HAT200'),
  'every entity of a collection deleted': (e) => {
    for (const n of ['HAT100', 'HAT200', 'HAT300']) removeFlight(e, n);
  },
  'added before the first key': (e) => addFlight(e, 'HAT000', 3),
  'added after the last key': (e) => addFlight(e, 'HAT999', 3),
  'added into an empty collection and elsewhere': (e) => {
    e.call('send_certificate', pyDict({ user_id: 'bob_1', amount: 5n }));
    e.call(
      'book_reservation',
      pyDict({
        user_id: 'carl_2',
        origin: 'AAA',
        destination: 'BBB',
        flight_type: 'one_way',
        cabin: 'economy',
        flights: [pyDict({ flight_number: 'HAT300', date: '2024-05-20' })],
        passengers: [pyDict({ first_name: 'A', last_name: 'B', dob: '1990-01-01' })],
        payment_methods: [pyDict({ payment_id: 'credit_card_1', amount: 100n })],
        total_baggages: 0n,
        nonfree_baggages: 0n,
        insurance: 'no',
      }),
    );
  },
  'first entity deleted and a later one added': (e) => {
    removeFlight(e, 'HAT100');
    addFlight(e, 'HAT250', 3);
  },
  'changed back to the base value': (e) => {
    e.sql.run("UPDATE users SET dob = '2000-01-01' WHERE user_id = 'bob_1'");
    e.call('get_user_details', pyDict({ user_id: 'bob_1' }));
    e.sql.run("UPDATE users SET dob = '1990-01-01' WHERE user_id = 'bob_1'");
  },
};

describe('incremental state digests', () => {
  const loaded = baseFromValue(airlineDomain, db, 'digest-test-db');

  it('base hashes equal hashes of the full dump', () => {
    const e = loaded.base.fork();
    try {
      const dump = e.dump('model_dump');
      expect(loaded.hashes.db_hash).toBe(tau2DictHash(dump));
      expect(loaded.hashes.canonical_sha256).toBe(canonicalSha256(dump));
    } finally {
      e.close();
    }
  });

  it.each(Object.keys(edits))('%s', (label) => {
    const e = loaded.base.fork();
    try {
      (edits[label] as (e: Episode) => void)(e);
      e.call('get_flight_status', pyDict({ flight_number: 'HAT300', date: '2024-05-20' })); // collects the changes
      expect(e.stats.internalErrors).toBe(0);
      const dump = e.dump('model_dump');
      const hashes = e.hashes();
      expect(hashes.db_hash).toBe(tau2DictHash(dump));
      expect(hashes.canonical_sha256).toBe(canonicalSha256(dump));
    } finally {
      e.close();
    }
  });
});
