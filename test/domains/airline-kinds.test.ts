import { describe, expect, it } from 'vitest';
import { toPyValue } from '../../src/core/py-value.js';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { REFUSAL_ACTIONS } from '../../src/domains/airline/synthesis/kinds.js';
import { matchItineraries } from '../../src/domains/airline/synthesis/references.js';
import {
  bagsAfterAdding,
  cancellationAllowed,
  flightChangeCost,
  refundAmount,
  TRANSFER_MESSAGE,
} from '../../src/domains/airline/synthesis/rules.js';
import { AirlineReader } from '../../src/domains/airline/synthesis/views.js';
import type { Episode } from '../../src/env/episode.js';
import type { Constraint, GoldAction } from '../../src/tasks/constraint.js';
import type { DomainSynthesis } from '../../src/tasks/synthesis.js';
import { tau2AirlineBase } from '../helpers/airline-base.js';

/**
 * Each airline constraint kind's predicate on hand-built cases on τ²'s airline db.json: the gold actions satisfy
 * it, a wrong action does not. The expected values were worked out by hand from db.json and τ²'s policy:
 *
 * - reservation 5JLTF1 (user noah_garcia_4365, silver; visa credit_card_5429291): ORD→IAH round trip, economy, 2
 *   passengers (Noah Garcia 1955-10-16, Aarav Johnson 1964-05-27), HAT165 on 05-27 at 129 and HAT138 on 05-29 at
 *   130, paid 518, 1 bag (0 non-free), no insurance, created 2024-05-10;
 * - business prices now: HAT165 218, HAT138 404, so moving to business costs (218 + 404 - 129 - 130) * 2 = 726;
 * - direct IAH→ORD on 05-29 in economy: HAT044 20:00 144, HAT078 01:00 154, HAT116 08:00 158, HAT138 11:00 120;
 * - silver economy allows 2 free bags per passenger: 4 for two, so 4 bags more make 5 bags, 1 of them non-free.
 */

const synthesis = airlineDomain.synthesis as DomainSynthesis;
const kind = (name: string) => {
  const k = synthesis.kinds.find((x) => x.name === name);
  if (k === undefined) throw new Error(`no kind ${name}`);
  return k;
};
const RES = '5JLTF1';
const USER = 'noah_garcia_4365';
const CARD = 'credit_card_5429291';
const NOAH = { first_name: 'Noah', last_name: 'Garcia', dob: '1955-10-16' };
const AARAV = { first_name: 'Aarav', last_name: 'Johnson', dob: '1964-05-27' };
const IVAN = { first_name: 'Ivan', last_name: 'Johansson', dob: '1968-06-11' };
const OLD_FLIGHTS = [
  { flight_number: 'HAT165', date: '2024-05-27' },
  { flight_number: 'HAT138', date: '2024-05-29' },
];

/** Runs `actions` on a fresh episode and returns the predicate of `c` on the final state. */
function judge(c: Constraint, actions: readonly GoldAction[], agentTexts: readonly string[] = []): boolean {
  const episode = tau2AirlineBase().base.fork({ semantics: 'parity' });
  try {
    for (const a of actions) {
      const r = episode.call(a.name, toPyValue(a.arguments));
      expect(r.error, `${a.name}: ${r.content}`).toBe(false);
    }
    return kind(c.kind).predicate(c, { final: episode, semantics: 'parity', agentTexts }).satisfied;
  } finally {
    episode.close();
  }
}

const constraint = (k: string, args: Record<string, unknown>): Constraint => ({
  id: 'c1',
  kind: k,
  args,
  footprint: [],
});
const gold = (c: Constraint) => kind(c.kind).goldActions(c);

describe('airline write kinds: gold actions satisfy the predicate, a wrong action does not', () => {
  const flights = (cabin: string, list: unknown) => ({
    name: 'update_reservation_flights',
    arguments: { reservation_id: RES, cabin, flights: list, payment_id: CARD },
  });

  it('book_reservation', () => {
    const args = {
      user_id: USER,
      origin: 'ORD',
      destination: 'IAH',
      flight_type: 'one_way',
      cabin: 'economy',
      flights: [{ flight_number: 'HAT165', date: '2024-05-27' }],
      passengers: [NOAH],
      payment_methods: [{ payment_id: CARD, amount: 155 }],
      total_baggages: 1,
      nonfree_baggages: 0,
      insurance: 'no',
    };
    const c = constraint('book_reservation', args);
    expect(gold(c)).toEqual([{ name: 'book_reservation', arguments: args }]);
    expect(judge(c, gold(c))).toBe(true);
    const wrong = { ...args, cabin: 'basic_economy', payment_methods: [{ payment_id: CARD, amount: 55 }] };
    expect(judge(c, [{ name: 'book_reservation', arguments: wrong }])).toBe(false);
  });

  it('change_flights keeps the outbound and moves the return to HAT044', () => {
    const list = [OLD_FLIGHTS[0], { flight_number: 'HAT044', date: '2024-05-29' }];
    const c = constraint('change_flights', {
      reservation_id: RES,
      cabin: 'economy',
      flights: list,
      payment_id: CARD,
    });
    expect(gold(c)).toEqual([flights('economy', list)]);
    expect(judge(c, gold(c))).toBe(true);
    expect(
      judge(c, [flights('economy', [OLD_FLIGHTS[0], { flight_number: 'HAT078', date: '2024-05-29' }])]),
    ).toBe(false);
  });

  it('change_cabin', () => {
    const c = constraint('change_cabin', {
      reservation_id: RES,
      cabin: 'business',
      flights: OLD_FLIGHTS,
      payment_id: CARD,
    });
    expect(judge(c, gold(c))).toBe(true);
    expect(judge(c, [flights('basic_economy', OLD_FLIGHTS)])).toBe(false);
  });

  it('add_bags', () => {
    const c = constraint('add_bags', {
      reservation_id: RES,
      total_baggages: 5,
      nonfree_baggages: 1,
      payment_id: CARD,
    });
    expect(judge(c, gold(c))).toBe(true);
    const wrong = { reservation_id: RES, total_baggages: 5, nonfree_baggages: 0, payment_id: CARD };
    expect(judge(c, [{ name: 'update_reservation_baggages', arguments: wrong }])).toBe(false);
  });

  it('change_passengers', () => {
    const c = constraint('change_passengers', { reservation_id: RES, passengers: [NOAH, IVAN] });
    expect(judge(c, gold(c))).toBe(true);
    const wrong = { reservation_id: RES, passengers: [IVAN, AARAV] };
    expect(judge(c, [{ name: 'update_reservation_passengers', arguments: wrong }])).toBe(false);
  });

  it('cancel_reservation', () => {
    const c = constraint('cancel_reservation', { reservation_id: RES, reason: 'health' });
    expect(gold(c)).toEqual([{ name: 'cancel_reservation', arguments: { reservation_id: RES } }]);
    expect(judge(c, gold(c))).toBe(true);
    expect(judge(c, [{ name: 'cancel_reservation', arguments: { reservation_id: '4WQ150' } }])).toBe(false);
  });

  it('compensation_certificate', () => {
    const c = constraint('compensation_certificate', { user_id: USER, amount: 200, reservation_id: RES });
    expect(gold(c)).toEqual([{ name: 'send_certificate', arguments: { user_id: USER, amount: 200 } }]);
    expect(judge(c, gold(c))).toBe(true);
    expect(judge(c, [{ name: 'send_certificate', arguments: { user_id: USER, amount: 100 } }])).toBe(false);
  });
});

describe('airline refusals, transfer and information', () => {
  const cancel = { name: 'cancel_reservation', arguments: { reservation_id: RES } };
  it.each(Object.keys(REFUSAL_ACTIONS).filter((k) => k !== 'refuse_compensation'))(
    '%s: holds when the reservation is left alone, fails when it is changed',
    (name) => {
      const c = constraint(name, { reservation_id: RES });
      expect(gold(c)).toEqual([]);
      expect(kind(name).category).toBe('refusal');
      expect(kind(name).grounding?.lookup[0]?.tool).toBe('get_reservation_details');
      expect(judge(c, [])).toBe(true);
      expect(judge(c, [cancel])).toBe(false);
    },
  );

  it('refuse_compensation: no certificate holds, one sent fails', () => {
    const c = constraint('refuse_compensation', { reservation_id: RES, user_id: USER });
    expect(judge(c, [])).toBe(true);
    expect(judge(c, [{ name: 'send_certificate', arguments: { user_id: USER, amount: 100 } }])).toBe(false);
  });

  it('transfer_flown_cancel: the hold message and no change', () => {
    const c = constraint('transfer_flown_cancel', { reservation_id: RES, reason: 'change_of_plan' });
    expect(judge(c, [], [TRANSFER_MESSAGE])).toBe(true);
    expect(judge(c, [], ['I cannot cancel that.'])).toBe(false);
    expect(judge(c, [cancel], [TRANSFER_MESSAGE])).toBe(false);
  });

  it.each([
    ['price_difference', '726', 'Moving to business would cost $726 more.'],
    ['refund_amount', '518', 'You would get 518 dollars back.'],
    ['flight_status', 'landed', 'That flight has landed.'],
  ])('%s: told (%s) holds, not told fails', (name, value, text) => {
    const c = constraint(name, { reservation_id: RES, value_text: value });
    expect(judge(c, [], [text])).toBe(true);
    expect(judge(c, [], ['I am sorry, but I cannot help with that request.'])).toBe(false);
  });
});

describe('airline policy arithmetic and flight references (hand-computed)', () => {
  function withReader<T>(fn: (reader: AirlineReader, episode: Episode) => T): T {
    const episode = tau2AirlineBase().base.fork();
    try {
      return fn(new AirlineReader(episode), episode);
    } finally {
      episode.close();
    }
  }

  it('bags, cabin price difference, refund and cancellation rule of 5JLTF1', () => {
    withReader((reader) => {
      const r = reader.reservation(RES);
      if (r === undefined) throw new Error('5JLTF1 missing');
      expect(bagsAfterAdding('silver', r, 3)).toEqual({ total_baggages: 4, nonfree_baggages: 0 });
      expect(bagsAfterAdding('silver', r, 4)).toEqual({ total_baggages: 5, nonfree_baggages: 1 });
      expect(bagsAfterAdding('regular', r, 1)).toEqual({ total_baggages: 2, nonfree_baggages: 0 });
      expect(bagsAfterAdding('regular', r, 2)).toEqual({ total_baggages: 3, nonfree_baggages: 1 });
      expect(flightChangeCost(reader, r, 'business', r.flights)).toBe(726);
      const newReturn = { flight_number: 'HAT044', origin: 'IAH', destination: 'ORD', date: '2024-05-29' };
      expect(flightChangeCost(reader, r, 'economy', [r.flights[0] as typeof newReturn, newReturn])).toBe(28);
      expect(refundAmount(r)).toBe(518);
      const statuses = ['available', 'available'];
      expect(cancellationAllowed(r, statuses, 'change_of_plan')).toBe(false);
      expect(cancellationAllowed(r, statuses, 'health')).toBe(false);
      expect(cancellationAllowed({ ...r, cabin: 'business' }, statuses, 'change_of_plan')).toBe(true);
      expect(cancellationAllowed({ ...r, insurance: 'yes' }, statuses, 'weather')).toBe(true);
      expect(cancellationAllowed(r, ['cancelled', 'available'], 'airline_cancelled')).toBe(true);
      expect(cancellationAllowed({ ...r, cabin: 'business' }, ['landed', 'available'], 'other')).toBe(false);
    });
  });

  it('direct IAH→ORD on May 29: cheapest, earliest and time of day', () => {
    withReader((reader) => {
      const place = (iata: string, city: string) => ({ iata, city });
      const base = {
        origin: place('IAH', 'Houston'),
        destination: place('ORD', 'Chicago'),
        date: '2024-05-29',
        stops: 0 as const,
        phrase: '',
      };
      const names = (hits: { flight_number: string }[][]) =>
        hits.map((h) => h.map((l) => l.flight_number).join('+'));
      expect(names(matchItineraries({ ...base, strategy: 'cheapest', cabin: 'economy' }, reader, 2))).toEqual(
        ['HAT138'],
      );
      expect(
        names(matchItineraries({ ...base, strategy: 'cheapest', cabin: 'business' }, reader, 6)),
      ).toEqual(['HAT138']);
      expect(names(matchItineraries({ ...base, strategy: 'cheapest', cabin: 'economy' }, reader, 6))).toEqual(
        ['HAT044'],
      );
      expect(names(matchItineraries({ ...base, strategy: 'earliest' }, reader, 1))).toEqual(['HAT078']);
      expect(
        names(matchItineraries({ ...base, strategy: 'time_of_day', part: 'evening' }, reader, 1)),
      ).toEqual(['HAT044']);
      expect(
        names(matchItineraries({ ...base, strategy: 'time_of_day', part: 'morning' }, reader, 1)).sort(),
      ).toEqual(['HAT116', 'HAT138']);
    });
  });
});
