import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { airlineDomain } from '../../src/domains/airline/index.js';
import type { AirlineFuzz, AirlineRequest } from '../../src/domains/airline/synthesis/requests.js';
import type { ChatMessage } from '../../src/sim/messages.js';
import { runEpisode } from '../../src/sim/run-episode.js';
import type { Behaviour } from '../../src/tasks/behaviour.js';
import type { CoveBlock } from '../../src/tasks/cove-task.js';
import { tau2AirlineBase } from '../helpers/airline-base.js';

/**
 * The airline scripted roles on hand-built requests over τ²'s airline DB (user mia_li_3668). Expected write calls
 * and amounts are worked out by hand from τ²'s db.json: NO6JO3 JFK→DFW 2024-05-16 business, 1 passenger, paid
 * 2504 with credit_card_1955700; HKEG34 DEN→LAS 2024-05-27 business at 1395, HAT290's economy price that day is
 * 142; AIXC49 LAX→BOS basic economy; the user is gold with Visa cards ending 7447 (credit_card_4421486) and 1907
 * (credit_card_1955700); HAT268 (JFK→ATL, 07:00) + HAT004 (ATL→DFW, 14:00) on 2024-05-20 cost 101 + 105 in economy.
 */

const JFK = { iata: 'JFK', city: 'New York' };
const DFW = { iata: 'DFW', city: 'Dallas' };
const LAX = { iata: 'LAX', city: 'Los Angeles' };
const BOS = { iata: 'BOS', city: 'Boston' };
const DEN = { iata: 'DEN', city: 'Denver' };
const LAS = { iata: 'LAS', city: 'Las Vegas' };
const NYC_TRIP = {
  strategy: 'route_date',
  origin: JFK,
  destination: DFW,
  date: '2024-05-16',
  phrase: 'my New York to Dallas trip on May 16',
} as const;
const LA_TRIP = {
  strategy: 'route_date',
  origin: LAX,
  destination: BOS,
  date: '2024-05-20',
  phrase: 'my Los Angeles to Boston trip on May 20',
} as const;
const AMELIA_TRIP = {
  strategy: 'passenger',
  first_name: 'Amelia',
  last_name: 'Ahmed',
  origin: DEN,
  destination: LAS,
  phrase: 'the Denver to Las Vegas trip I booked for Amelia Ahmed',
} as const;
const CARD_7447 = {
  strategy: 'last_four',
  last_four: '7447',
  phrase: 'my credit card ending in 7447',
} as const;
const CARD_1907 = { strategy: 'last_four', last_four: '1907', phrase: 'my card ending in 1907' } as const;

const PLAIN: Behaviour = { persona: 'friendly', knowledge: [], events: [] };

async function play(requests: AirlineRequest[], seed: number, behaviour: Behaviour = PLAIN) {
  const fuzz: AirlineFuzz = {
    level: 2,
    user: { strategy: 'user_id', user_id: 'mia_li_3668' },
    requests,
    strategies: [],
    hidden_ids: [],
  };
  const block = { fuzz, behaviour } as unknown as CoveBlock;
  const sim = airlineDomain.simulation;
  if (sim === undefined) throw new Error('airline has no scripted roles');
  const agent = sim.createOracleAgent(block, new Rng(seed));
  const user = sim.createScriptedUser(block, new Rng(seed + 1000));
  const episode = tau2AirlineBase().base.fork();
  try {
    return await runEpisode(episode, agent, user, {});
  } finally {
    episode.close();
  }
}

function calls(messages: readonly ChatMessage[]): { name: string; args: Record<string, unknown> }[] {
  return messages.flatMap((m) =>
    m.role === 'assistant' && m.tool_calls !== undefined
      ? m.tool_calls.map((c) => ({
          name: c.function.name,
          args: JSON.parse(c.function.arguments) as Record<string, unknown>,
        }))
      : [],
  );
}

const WRITES = new Set(airlineDomain.tools.filter((t) => t.kind === 'write').map((t) => t.name));

function writes(messages: readonly ChatMessage[]) {
  return calls(messages).filter((c) => WRITES.has(c.name));
}

function agentText(messages: readonly ChatMessage[]): string {
  return messages
    .filter((m) => m.role === 'assistant')
    .map((m) => m.content ?? '')
    .join('\n');
}

describe('airline oracle agent and scripted user (hand-built requests, τ² DB)', () => {
  it('cancels a business reservation found by route and date, after a yes', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const out = await play(
        [{ kind: 'cancel_reservation', reservation: NYC_TRIP, reason: 'change_of_plan' }],
        seed,
      );
      expect(out.termination).toBe('user_stop');
      expect(writes(out.messages)).toEqual([
        { name: 'cancel_reservation', args: { reservation_id: 'NO6JO3' } },
      ]);
      expect(agentText(out.messages)).toContain('$2504');
    }
  });

  it('changes the cabin of a reservation found by passenger and says the refund', async () => {
    const out = await play(
      [{ kind: 'change_cabin', reservation: AMELIA_TRIP, cabin: 'economy', payment: CARD_7447 }],
      5,
    );
    expect(writes(out.messages)).toEqual([
      {
        name: 'update_reservation_flights',
        args: {
          reservation_id: 'HKEG34',
          cabin: 'economy',
          flights: [{ flight_number: 'HAT290', date: '2024-05-27' }],
          payment_id: 'credit_card_4421486',
        },
      },
    ]);
    // 142 − 1395 for one passenger
    expect(agentText(out.messages)).toContain('$1253');
  });

  it('adds bags within the gold business allowance for free', async () => {
    const out = await play([{ kind: 'add_bags', reservation: NYC_TRIP, add: 2, payment: CARD_7447 }], 6);
    // gold business: 4 free bags per passenger; 2 + 2 = 4 stay free
    expect(writes(out.messages)).toEqual([
      {
        name: 'update_reservation_baggages',
        args: {
          reservation_id: 'NO6JO3',
          total_baggages: 4,
          nonfree_baggages: 0,
          payment_id: 'credit_card_4421486',
        },
      },
    ]);
  });

  it('refuses to change basic-economy flights, holds the refusal on push-back, then transfers when asked', async () => {
    const out = await play(
      [
        {
          kind: 'refusal',
          action: 'change_basic_economy_flights',
          reservation: LA_TRIP,
          legs: [
            {
              leg: 'outbound',
              to: {
                strategy: 'earliest',
                origin: LAX,
                destination: BOS,
                date: '2024-05-21',
                stops: 1,
                phrase: 'the earliest connecting flight on May 21',
              },
            },
          ],
        },
      ],
      7,
      { persona: 'formal', knowledge: [], events: [{ kind: 'push_back' }, { kind: 'transfer' }] },
    );
    expect(writes(out.messages)).toEqual([]);
    const names = calls(out.messages).map((c) => c.name);
    expect(names).toContain('get_reservation_details');
    expect(names[names.length - 1]).toBe('transfer_to_human_agents');
    const texts = out.messages.filter((m) => m.role === 'assistant' && m.content !== null);
    expect(texts[texts.length - 1]?.content).toBe(
      'YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.',
    );
    expect(agentText(out.messages)).toMatch(/basic economy/);
    expect(out.messages[out.messages.length - 1]?.content).toContain('###TRANSFER###');
  });

  it('tells a refund amount, then changes a passenger by name', async () => {
    const out = await play(
      [
        { kind: 'information', topic: 'refund_amount', reservation: NYC_TRIP },
        {
          kind: 'change_passengers',
          reservation: AMELIA_TRIP,
          edits: [
            {
              passenger: {
                strategy: 'name',
                first_name: 'Amelia',
                last_name: 'Ahmed',
                phrase: 'Amelia Ahmed',
              },
              to: {
                strategy: 'details',
                first_name: 'Amelia',
                last_name: 'Khan',
                dob: '1957-03-21',
                phrase: 'Amelia Khan, born 1957-03-21',
              },
            },
          ],
        },
      ],
      8,
    );
    expect(agentText(out.messages)).toContain('$2504');
    expect(writes(out.messages)).toEqual([
      {
        name: 'update_reservation_passengers',
        args: {
          reservation_id: 'HKEG34',
          passengers: [{ first_name: 'Amelia', last_name: 'Khan', dob: '1957-03-21' }],
        },
      },
    ]);
  });

  it('books the cheapest one-stop itinerary for two passengers with insurance and a split payment', async () => {
    const out = await play(
      [
        {
          kind: 'book_reservation',
          flight_type: 'one_way',
          origin: JFK,
          destination: DFW,
          outbound: {
            strategy: 'cheapest',
            origin: JFK,
            destination: DFW,
            date: '2024-05-20',
            stops: 1,
            cabin: 'economy',
            phrase: 'the cheapest connecting flight on May 20',
          },
          cabin: 'economy',
          passengers: [
            { strategy: 'relation', relation: 'self', phrase: 'myself' },
            { strategy: 'name', first_name: 'Amelia', last_name: 'Ahmed', phrase: 'Amelia Ahmed' },
          ],
          total_baggages: 3,
          insurance: true,
          payments: [
            { payment: CARD_1907, amount: 100 },
            { payment: CARD_7447, amount: 'rest' },
          ],
        },
      ],
      9,
      { persona: 'terse', knowledge: [], events: [{ kind: 'partial_info', request: 0 }] },
    );
    // (101 + 105) × 2 + 30 × 2 insurance; gold economy allows 3 free bags each, so 3 bags are free
    expect(writes(out.messages)).toEqual([
      {
        name: 'book_reservation',
        args: {
          user_id: 'mia_li_3668',
          origin: 'JFK',
          destination: 'DFW',
          flight_type: 'one_way',
          cabin: 'economy',
          flights: [
            { flight_number: 'HAT268', date: '2024-05-20' },
            { flight_number: 'HAT004', date: '2024-05-20' },
          ],
          passengers: [
            { first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' },
            { first_name: 'Amelia', last_name: 'Ahmed', dob: '1957-03-21' },
          ],
          payment_methods: [
            { payment_id: 'credit_card_1955700', amount: 100 },
            { payment_id: 'credit_card_4421486', amount: 372 },
          ],
          total_baggages: 3,
          nonfree_baggages: 0,
          insurance: 'yes',
        },
      },
    ]);
  });
  it('asks to check a user id that is not found, then reads the corrected one', async () => {
    const out = await play([{ kind: 'information', topic: 'refund_amount', reservation: NYC_TRIP }], 10, {
      persona: 'anxious',
      knowledge: [{ kind: 'wrong_detail', field: 'user_id', value: 'mia_li_3686' }],
      events: [],
    });
    const lookups = calls(out.messages).filter((c) => c.name === 'get_user_details');
    expect(lookups.map((c) => c.args.user_id)).toEqual(['mia_li_3686', 'mia_li_3668']);
    expect(agentText(out.messages)).toMatch(
      /find a profile with the user id mia_li_3686|no profile with the user id/,
    );
    expect(agentText(out.messages)).toContain('$2504');
    expect(out.termination).toBe('user_stop');
  });
});
