import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { requestStated, reservationGiven, segmentGiven } from '../../src/domains/airline/sim/mentions.js';
import { confirmationText, refusalText } from '../../src/domains/airline/sim/oracle-texts.js';
import { AirlineScriptedUser } from '../../src/domains/airline/sim/scripted-user.js';
import { stop } from '../../src/domains/airline/sim/user-replies.js';
import { statement } from '../../src/domains/airline/sim/user-texts.js';
import type {
  AirlineRefusal,
  AirlineRequest,
  SegmentRef,
} from '../../src/domains/airline/synthesis/requests.js';
import { requestSentence } from '../../src/domains/airline/synthesis/scenario.js';
import type { ReservationView, UserView } from '../../src/domains/airline/synthesis/views.js';

/**
 * Wording of the airline scripted roles on hand-built values: nouns agree with their counts and articles with
 * their cabins, and a request to drop every bag is not stated as "I only need no checked bags".
 */

const TRIP = {
  strategy: 'route_date',
  origin: { iata: 'EWR', city: 'Newark' },
  destination: { iata: 'ATL', city: 'Atlanta' },
  date: '2024-05-25',
  phrase: 'my Newark to Atlanta trip on May 25',
} as const;

function reservation(cabin: ReservationView['cabin'], bags: number): ReservationView {
  return {
    reservation_id: 'ABC123',
    user_id: 'pat_doe_1',
    origin: 'EWR',
    destination: 'ATL',
    flight_type: 'one_way',
    cabin,
    flights: [{ flight_number: 'HAT001', origin: 'EWR', destination: 'ATL', date: '2024-05-25', price: 100 }],
    passengers: [{ first_name: 'Pat', last_name: 'Doe', dob: '1980-01-01' }],
    payment_history: [{ payment_id: 'credit_card_1', amount: 100 }],
    created_at: '2024-05-01T10:00:00',
    total_baggages: bags,
    nonfree_baggages: 0,
    insurance: 'no',
    status: null,
  };
}

const USER: UserView = {
  user_id: 'pat_doe_1',
  name: { first_name: 'Pat', last_name: 'Doe' },
  dob: '1980-01-01',
  payment_methods: {},
  saved_passengers: [],
  membership: 'regular',
  reservations: ['ABC123'],
};

/** The texts of every seed in 0..29, so every template alternative shows up. */
function texts(make: (rng: Rng) => string): string[] {
  return Array.from({ length: 30 }, (_, seed) => make(new Rng(seed)));
}

describe('airline role wording', () => {
  it('a refused bag removal names the bags it keeps with the noun agreeing', () => {
    const r: AirlineRefusal = {
      kind: 'refusal',
      action: 'remove_bags',
      reservation: TRIP,
      total_baggages: 0,
    };
    for (const t of texts((rng) => refusalText(rng, r, reservation('economy', 1), USER, ''))) {
      expect(t).toMatch(/keeps its 1 checked bag\.$/);
    }
    for (const t of texts((rng) => refusalText(rng, r, reservation('economy', 3), USER, ''))) {
      expect(t).toMatch(/keeps its 3 checked bags\.$/);
    }
  });

  it('a refused compensation puts the right article before the cabin', () => {
    const r: AirlineRefusal = {
      kind: 'refusal',
      action: 'compensation_ineligible',
      reservation: TRIP,
      flight: { flight_number: 'HAT001', date: '2024-05-25' } as never,
      issue: 'delayed',
    };
    const basic = texts((rng) => refusalText(rng, r, reservation('basic_economy', 0), USER, ''));
    expect(basic.every((t) => t.includes('a regular member with a basic economy ticket'))).toBe(true);
    const economy = texts((rng) => refusalText(rng, r, reservation('economy', 0), USER, ''));
    expect(economy.every((t) => t.includes('a regular member with an economy ticket'))).toBe(true);
  });

  it('asking to drop every bag says so plainly', () => {
    const r: AirlineRefusal = {
      kind: 'refusal',
      action: 'remove_bags',
      reservation: TRIP,
      total_baggages: 0,
    };
    const said = texts((rng) => statement(rng, r));
    expect(said.some((t) => /need no\b/.test(t))).toBe(false);
    expect(
      said.every((t) => t.includes('no checked bags') && t.includes('my Newark to Atlanta trip on May 25')),
    ).toBe(true);
    const two = texts((rng) => statement(rng, { ...r, total_baggages: 2 }));
    expect(two.every((t) => t.includes('2 checked bags'))).toBe(true);
  });
  it('a compensation proposal counts one passenger or several in plain words', () => {
    const request: AirlineRequest = {
      kind: 'compensation_certificate',
      reservation: TRIP,
      flight: { flight_number: 'HAT001', date: '2024-05-25' } as never,
      issue: 'cancelled',
    };
    const call = { name: 'send_certificate', arguments: { user_id: 'pat_doe_1', amount: 100 } };
    const one = texts((rng) => confirmationText(rng, call, request, reservation('economy', 0), USER, ''));
    for (const t of one) {
      expect(t).toMatch(
        /^I am sorry about the cancelled flight\. I can send you a travel certificate of \$100\.00 for the passenger on your one-way trip from Newark to Atlanta on May 25\. /,
      );
      expect(t).not.toContain('each of the 1');
    }
    const pair = reservation('economy', 0);
    pair.passengers.push({ first_name: 'Sam', last_name: 'Doe', dob: '1982-02-02' });
    const two = texts((rng) =>
      confirmationText(
        rng,
        { ...call, arguments: { user_id: 'pat_doe_1', amount: 200 } },
        request,
        pair,
        USER,
        '',
      ),
    );
    for (const t of two)
      expect(t).toContain(
        'a travel certificate of $200.00 ($100.00 for each of the 2 passengers) on your one-way trip',
      );
  });
  it('a booking proposal says "flight" for one flight and "no checked bags" for none', () => {
    const request = { kind: 'book_reservation' } as unknown as AirlineRequest;
    const args = {
      user_id: 'pat_doe_1',
      origin: 'EWR',
      destination: 'ATL',
      flight_type: 'one_way',
      cabin: 'economy',
      flights: [{ flight_number: 'HAT001', date: '2024-05-25' }],
      passengers: [{ first_name: 'Pat', last_name: 'Doe', dob: '1980-01-01' }],
      payment_methods: [{ payment_id: 'credit_card_1', amount: 100 }],
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: 'no',
    };
    const said = texts((rng) =>
      confirmationText(
        rng,
        { name: 'book_reservation', arguments: args, amount: 100 },
        request,
        undefined,
        USER,
        '',
      ),
    );
    expect(said.some((t) => t.startsWith('Here is the booking:'))).toBe(true);
    for (const t of said) {
      expect(t).not.toMatch(/flights HAT001|0 checked bags/);
      expect(t).toContain('no checked bags');
    }
    expect(
      said
        .filter((t) => t.startsWith('Here is the booking:'))
        .every((t) => t.includes(', flight HAT001 on May 25,')),
    ).toBe(true);
  });

  it('after a refused last request the closing remark accepts it instead of calling it sorted', () => {
    const done = texts((rng) => stop(rng, TRIP.phrase));
    // the plain close does say it is sorted or thank for handling it, so the check below can tell them apart
    expect(done.some((t) => /sorted|it's done|for sorting|for your help|for helping/.test(t))).toBe(true);
    for (const t of texts((rng) => stop(rng, TRIP.phrase, true))) {
      expect(t).not.toMatch(/sorted|it's done|for sorting|for your help|for helping/);
      expect(t).toMatch(/###STOP###$/);
    }
  });

  it('a flight named by its airports on a trip with the same route says the route once, and the agent reads it', () => {
    const flight: SegmentRef = {
      strategy: 'leg',
      origin: TRIP.origin,
      destination: TRIP.destination,
      phrase: 'my flight from Newark to Atlanta',
    };
    const asks: AirlineRequest[] = [
      { kind: 'compensation_certificate', reservation: TRIP, flight, issue: 'delayed' },
      { kind: 'information', topic: 'flight_status', reservation: TRIP, flight },
      { kind: 'refusal', action: 'compensation_ineligible', reservation: TRIP, flight, issue: 'delayed' },
    ];
    for (const r of asks) {
      for (const t of texts((rng) => statement(rng, r))) {
        expect(t).toContain('y Newark to Atlanta flight on May 25');
        expect(t.match(/Newark/g)?.length).toBe(1);
        const lower = t.toLowerCase();
        expect(reservationGiven(lower, TRIP, flight)).toBe(true);
        expect(segmentGiven(lower, flight, TRIP)).toBe(true);
        expect(requestStated(r, lower)).toBe(true);
      }
      const sentence = requestSentence(r);
      expect(sentence).toContain('our Newark to Atlanta flight on May 25');
      expect(sentence.match(/Newark/g)?.length).toBe(1);
    }
    // a flight on another leg of the trip keeps its own airports and the trip's phrase
    const back: SegmentRef = {
      ...flight,
      origin: TRIP.destination,
      destination: TRIP.origin,
      phrase: 'my flight from Atlanta to Newark',
    };
    const other: AirlineRequest = {
      kind: 'information',
      topic: 'flight_status',
      reservation: TRIP,
      flight: back,
    };
    for (const t of texts((rng) => statement(rng, other))) {
      expect(t).toContain('my flight from Atlanta to Newark on my Newark to Atlanta trip on May 25');
    }
  });

  it('a customer whose refused last request runs out of turns does not close by calling it sorted', async () => {
    const refusal: AirlineRefusal = { kind: 'refusal', action: 'add_insurance', reservation: TRIP };
    for (let seed = 0; seed < 10; seed++) {
      const user = new AirlineScriptedUser(
        {
          level: 2,
          user: { strategy: 'user_id', user_id: 'pat_doe_1' },
          requests: [refusal],
          strategies: [[]],
          hidden_ids: [],
        },
        new Rng(seed),
      );
      // an agent that never answers: the customer runs out of turns on the refused request
      let last = '';
      for (let turn = 0; turn < 40 && !last.includes('###STOP###'); turn++)
        last = (await user.respond([{ role: 'agent', content: 'Hmm, one moment please.' }])).content;
      expect(last).toMatch(/###STOP###$/);
      expect(last).not.toMatch(/sorted|it's done|for sorting|for your help|for helping/);
    }
  });
});
