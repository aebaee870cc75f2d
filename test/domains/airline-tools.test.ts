import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type PyDict, type PyValue, pyDict } from '../../src/core/py-value.js';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { baseFromValue, readJsonFile } from '../../src/domains/load-db.js';
import type { Episode } from '../../src/env/episode.js';
import type { Semantics } from '../../src/env/tool.js';
import { tau2AirlineBase } from '../helpers/airline-base.js';

/**
 * Every error branch of every airline tool, and the success paths of the write tools, with τ²'s exact output.
 *
 * `airline-tools.tau2.json` was produced by running τ²'s own `AirlineTools` (tau2-bench commit a2c02472, pydantic
 * 2.13, CPython 3.11) on τ²'s airline db.json: for each case, a fresh DB, the calls in order, each call's message
 * content and error flag, and τ²'s `get_db_hash()` at the end. Nothing in it was computed by cove.
 */

interface Case {
  readonly calls: [string, PyValue][];
  readonly outputs: string[];
  readonly errors: boolean[];
  readonly db_hash: string;
}

const FIXTURE = fileURLToPath(new URL('./airline-tools.tau2.json', import.meta.url));
const cases = readJsonFile(FIXTURE) as PyDict;
const labels = [...cases.keys()];
const field = (c: PyValue, name: string) => (c as PyDict).get(name) as PyValue;

function withEpisode<T>(fn: (episode: Episode) => T, semantics: Semantics = 'parity'): T {
  const episode = tau2AirlineBase().base.fork({ semantics });
  try {
    return fn(episode);
  } finally {
    episode.close();
  }
}

describe('airline tools against τ²’s Python (parity)', () => {
  it('has the cases', () => {
    expect(labels.length).toBeGreaterThanOrEqual(65);
  });

  it.each(labels)('%s', (label) => {
    const c = cases.get(label) as PyValue;
    const expected: Case = {
      calls: field(c, 'calls') as [string, PyValue][],
      outputs: field(c, 'outputs') as string[],
      errors: field(c, 'errors') as boolean[],
      db_hash: field(c, 'db_hash') as string,
    };
    withEpisode((episode) => {
      expected.calls.forEach(([name, args], i) => {
        const r = episode.call(name, args);
        expect({ i, content: r.content, error: r.error }).toEqual({
          i,
          content: expected.outputs[i],
          error: expected.errors[i],
        });
      });
      expect(episode.hashes().db_hash).toBe(expected.db_hash);
      expect(episode.stats.internalErrors).toBe(0);
    });
  });
});

/** Seats of a flight date, read from `get_flight_status`-independent SQL. */
function seats(episode: Episode, flight: string, date: string): Record<string, unknown> {
  const row = episode.sql.get(
    'SELECT available_seats FROM flight_dates WHERE flight_number = ? AND date = ?',
    flight,
    date,
  );
  return JSON.parse(String(row?.available_seats));
}

describe('airline tools under fixed semantics', () => {
  it('cancelling gives the seats back once, and refuses a second cancellation', () => {
    withEpisode((episode) => {
      // 1AKIA8: economy, 2 passengers, HAT070 on 2024-05-22 and HAT297 on 2024-05-23 (db.json)
      const before = [
        seats(episode, 'HAT070', '2024-05-22').economy,
        seats(episode, 'HAT297', '2024-05-23').economy,
      ];
      expect(episode.call('cancel_reservation', pyDict({ reservation_id: '1AKIA8' })).error).toBe(false);
      expect(seats(episode, 'HAT070', '2024-05-22').economy).toBe((before[0] as number) + 2);
      expect(seats(episode, 'HAT297', '2024-05-23').economy).toBe((before[1] as number) + 2);
      const again = episode.call('cancel_reservation', pyDict({ reservation_id: '1AKIA8' }));
      expect(again).toMatchObject({ error: true, content: 'Error: Reservation 1AKIA8 is already cancelled' });
    }, 'fixed');
  });

  it('parity leaves the seats alone on cancel (τ² issue #153)', () => {
    withEpisode((episode) => {
      const before = seats(episode, 'HAT070', '2024-05-22');
      episode.call('cancel_reservation', pyDict({ reservation_id: '1AKIA8' }));
      expect(seats(episode, 'HAT070', '2024-05-22')).toEqual(before);
    });
  });

  it('one-stop search: the real next day (parity asks for 2024-05-9) and the arrival time without its +1', () => {
    const loaded = baseFromValue(airlineDomain, miniDb(), 'mini-db');
    try {
      const legs = (semantics: Semantics, date: string) => {
        const episode = loaded.base.fork({ semantics });
        try {
          const r = episode.call(
            'search_onestop_flight',
            pyDict({ origin: 'AAA', destination: 'CCC', date }),
          );
          expect(r.error).toBe(false);
          return (JSON.parse(r.content) as { flight_number: string; date: string }[][]).map((pair) =>
            pair.map((leg) => `${leg.flight_number}@${leg.date}`).join(' '),
          );
        } finally {
          episode.close();
        }
      };
      expect(legs('parity', '2024-05-08')).toEqual([]);
      expect(legs('fixed', '2024-05-08')).toEqual([
        'HAT900@2024-05-08 HAT901@2024-05-09',
        'HAT900@2024-05-08 HAT902@2024-05-09',
      ]);
      // on the 20th τ²'s date is right, but '01:00:00' >= '01:00:00+1' is false as strings
      expect(legs('parity', '2024-05-20')).toEqual(['HAT900@2024-05-20 HAT902@2024-05-21']);
      expect(legs('fixed', '2024-05-20')).toEqual([
        'HAT900@2024-05-20 HAT901@2024-05-21',
        'HAT900@2024-05-20 HAT902@2024-05-21',
      ]);
    } finally {
      loaded.base.close();
    }
  });

  it('changing flights moves the seats: the dropped segment gets them back, the new one loses them', () => {
    withEpisode((episode) => {
      const dropped = seats(episode, 'HAT297', '2024-05-23').economy as number;
      const taken = seats(episode, 'HAT297', '2024-05-24').economy as number;
      const r = episode.call(
        'update_reservation_flights',
        pyDict({
          reservation_id: '1AKIA8',
          cabin: 'economy',
          flights: [
            pyDict({ flight_number: 'HAT070', date: '2024-05-22' }),
            pyDict({ flight_number: 'HAT297', date: '2024-05-24' }),
          ],
          payment_id: 'credit_card_6082923',
        }),
      );
      expect(r.error).toBe(false);
      expect(seats(episode, 'HAT297', '2024-05-23').economy).toBe(dropped + 2);
      expect(seats(episode, 'HAT297', '2024-05-24').economy).toBe(taken - 2);
    }, 'fixed');
  });
});

/** A three-airport airline DB: an overnight AAA→BBB flight and two BBB→CCC flights the next morning. */
function miniDb(): PyValue {
  const open = () =>
    pyDict({
      status: 'available',
      available_seats: pyDict({ basic_economy: 5n, economy: 5n, business: 5n }),
      prices: pyDict({ basic_economy: 50n, economy: 100n, business: 300n }),
    });
  const flight = (n: string, o: string, d: string, dep: string, arr: string, dates: string[]) =>
    pyDict({
      flight_number: n,
      origin: o,
      destination: d,
      scheduled_departure_time_est: dep,
      scheduled_arrival_time_est: arr,
      dates: new Map(dates.map((x) => [x, open()])),
    });
  return pyDict({
    flights: pyDict({
      HAT900: flight('HAT900', 'AAA', 'BBB', '22:00:00', '01:00:00+1', ['2024-05-08', '2024-05-20']),
      HAT901: flight('HAT901', 'BBB', 'CCC', '01:00:00', '03:00:00', ['2024-05-09', '2024-05-21']),
      HAT902: flight('HAT902', 'BBB', 'CCC', '06:00:00', '08:00:00', ['2024-05-09', '2024-05-21']),
    }),
    users: new Map(),
    reservations: new Map(),
  });
}
