import type { PyValue } from '../../src/core/py-value.js';
import type { Rng } from '../../src/core/rng.js';
import type { SqlConnection } from '../../src/env/sql.js';

/**
 * Random airline tool calls for the dispatcher fuzz test: real and fake tool names; right, wrong, missing and extra
 * argument names; values of every JSON type, mostly built around real users, reservations and flight dates so that
 * the write tools also succeed.
 */

export const AIRLINE_TOOL_NAMES = [
  'book_reservation',
  'calculate',
  'cancel_reservation',
  'get_reservation_details',
  'get_user_details',
  'list_all_airports',
  'search_direct_flight',
  'search_onestop_flight',
  'send_certificate',
  'transfer_to_human_agents',
  'update_reservation_baggages',
  'update_reservation_flights',
  'update_reservation_passengers',
  'get_flight_status',
] as const;

export const AIRLINE_READ_TOOLS = new Set([
  'calculate',
  'get_reservation_details',
  'get_user_details',
  'list_all_airports',
  'search_direct_flight',
  'search_onestop_flight',
  'transfer_to_human_agents',
  'get_flight_status',
]);

const PARAMS: Record<string, readonly string[]> = {
  book_reservation: [
    'user_id',
    'origin',
    'destination',
    'flight_type',
    'cabin',
    'flights',
    'passengers',
    'payment_methods',
    'total_baggages',
    'nonfree_baggages',
    'insurance',
  ],
  calculate: ['expression'],
  cancel_reservation: ['reservation_id'],
  get_reservation_details: ['reservation_id'],
  get_user_details: ['user_id'],
  list_all_airports: [],
  search_direct_flight: ['origin', 'destination', 'date'],
  search_onestop_flight: ['origin', 'destination', 'date'],
  send_certificate: ['user_id', 'amount'],
  transfer_to_human_agents: ['summary'],
  update_reservation_baggages: ['reservation_id', 'total_baggages', 'nonfree_baggages', 'payment_id'],
  update_reservation_flights: ['reservation_id', 'cabin', 'flights', 'payment_id'],
  update_reservation_passengers: ['reservation_id', 'passengers'],
  get_flight_status: ['flight_number', 'date'],
};
const FAKE_TOOLS = ['nope', '', 'book', 'Get_User_Details', 'think', 'cancel_order', 'search_flights'];
const WRONG_NAMES = [
  'foo',
  'reservation',
  'user',
  'flight',
  'amount',
  'payment',
  '',
  'requestor',
  'self',
  'date',
];
const STRINGS = [
  '',
  ' ',
  'x',
  'None',
  '0',
  '2',
  '2.0',
  'economy',
  'first',
  'yes',
  'no',
  'one_way',
  'caf\u00e9',
  'A\nB',
];
const CABINS = ['economy', 'business', 'basic_economy'];

interface Pools {
  readonly users: readonly { id: string; methods: string[]; reservations: string[] }[];
  readonly reservations: readonly string[];
  readonly flights: readonly { number: string; origin: string; destination: string; dates: string[] }[];
  /** Bookable flight dates with their economy price. */
  readonly bookable: readonly {
    number: string;
    origin: string;
    destination: string;
    date: string;
    price: bigint;
  }[];
  readonly airports: readonly string[];
}

export function loadAirlinePools(sql: SqlConnection): Pools {
  const users = sql.all('SELECT user_id FROM users ORDER BY pos LIMIT 60').map((u) => {
    const id = String(u.user_id);
    return {
      id,
      methods: sql
        .all('SELECT id FROM payment_methods WHERE user_id = ? ORDER BY pos', id)
        .map((m) => String(m.id)),
      reservations: sql
        .all('SELECT reservation_id FROM user_reservations WHERE user_id = ? ORDER BY pos', id)
        .map((r) => String(r.reservation_id)),
    };
  });
  const flights = sql.all('SELECT * FROM flights ORDER BY pos').map((f) => ({
    number: String(f.flight_number),
    origin: String(f.origin),
    destination: String(f.destination),
    dates: sql
      .all(
        'SELECT date FROM flight_dates WHERE flight_number = ? AND date >= ? ORDER BY pos',
        String(f.flight_number),
        '2024-05-13',
      )
      .map((d) => String(d.date)),
  }));
  const bookable = sql
    .all(
      `SELECT f.flight_number, f.origin, f.destination, d.date, d.prices FROM flight_dates d
       JOIN flights f ON f.flight_number = d.flight_number WHERE d.status = 'available' ORDER BY f.pos, d.pos LIMIT 400`,
    )
    .map((r) => ({
      number: String(r.flight_number),
      origin: String(r.origin),
      destination: String(r.destination),
      date: String(r.date),
      price: BigInt(JSON.parse(String(r.prices)).economy),
    }));
  return {
    bookable,
    users,
    reservations: users.flatMap((u) => u.reservations),
    flights,
    airports: [...new Set(flights.map((f) => f.origin))].sort(),
  };
}

function randomValue(rng: Rng, pools: Pools, depth = 2): PyValue {
  switch (rng.int(0, depth > 0 ? 10 : 8)) {
    case 0:
      return rng.pick(STRINGS);
    case 1:
      return rng.pick([
        rng.pick(pools.reservations),
        rng.pick(pools.users).id,
        rng.pick(pools.flights).number,
      ]);
    case 2:
      return BigInt(rng.pick([0, 1, -1, 2, 3, 50, 100, 1000]));
    case 3:
      return rng.pick([0.5, 1.0, 2.0, 1.01, -1.5, 100.0, 1e20]);
    case 4:
      return rng.chance(0.5);
    case 5:
      return null;
    case 6:
      return [];
    case 7:
      return new Map();
    case 8:
      return rng.pick(pools.airports);
    case 9:
      return Array.from({ length: rng.int(1, 2) }, () => randomValue(rng, pools, depth - 1));
    default:
      return new Map(
        Array.from({ length: rng.int(1, 2) }, () => [
          rng.pick(['flight_number', 'date', 'first_name', 'payment_id', 'amount', 'x']),
          randomValue(rng, pools, depth - 1),
        ]),
      );
  }
}

type User = Pools['users'][number];

function flightInfo(rng: Rng, pools: Pools): PyValue {
  const f = rng.pick(pools.flights);
  const info = new Map<string, PyValue>([
    ['flight_number', rng.chance(0.95) ? f.number : 'HAT999'],
    ['date', rng.chance(0.9) ? rng.pick(f.dates) : rng.pick(['2024-05-01', '2024-06-01', '2024-5-20'])],
  ]);
  if (rng.chance(0.05)) info.delete(rng.pick(['flight_number', 'date']));
  return info;
}

function passenger(rng: Rng): PyValue {
  const p = new Map<string, PyValue>([
    ['first_name', rng.pick(['Ana', 'Raj', 'Mei'])],
    ['last_name', rng.pick(['Lee', 'Khan'])],
    ['dob', rng.pick(['1990-01-01', '1985-12-31'])],
  ]);
  if (rng.chance(0.05)) p.set(rng.pick(['first_name', 'dob']), rng.pick<PyValue>([null, 5n, 1.5, [], '']));
  if (rng.chance(0.03)) p.delete('dob');
  return p;
}

function goodValue(rng: Rng, pools: Pools, param: string, user: User): PyValue {
  const reservation =
    user.reservations.length > 0 && rng.chance(0.9)
      ? rng.pick(user.reservations)
      : rng.pick(pools.reservations);
  switch (param) {
    case 'user_id':
      return rng.chance(0.9) ? user.id : rng.pick(['nobody_1', user.id.toUpperCase()]);
    case 'reservation_id':
      return rng.chance(0.9) ? reservation : rng.pick(['ZZZZZZ', 'HATHAT', reservation.toLowerCase()]);
    case 'payment_id':
      return rng.chance(0.85) ? rng.pick(user.methods) : rng.pick(['gift_card_0', 'certificate_3221322', '']);
    case 'origin':
    case 'destination':
      return rng.pick(pools.airports);
    case 'date':
      return rng.pick(rng.pick(pools.flights).dates);
    case 'flight_number':
      return rng.pick(pools.flights).number;
    case 'flight_type':
      return rng.pick(['one_way', 'round_trip', 'one_way', 'oneway']);
    case 'cabin':
      return rng.chance(0.9) ? rng.pick(CABINS) : rng.pick(['first', 'Economy']);
    case 'insurance':
      return rng.pick(['yes', 'no', 'no', 'maybe']);
    case 'flights':
      return Array.from({ length: rng.int(0, 3) }, () => flightInfo(rng, pools));
    case 'passengers':
      return Array.from({ length: rng.int(1, 3) }, () => passenger(rng));
    case 'payment_methods':
      return Array.from(
        { length: rng.int(1, 2) },
        () =>
          new Map<string, PyValue>([
            ['payment_id', rng.pick(user.methods)],
            ['amount', rng.chance(0.9) ? BigInt(rng.int(0, 1500)) : rng.pick<PyValue>([100.0, 10.5, '200'])],
          ]),
      );
    case 'total_baggages':
    case 'nonfree_baggages':
      return rng.chance(0.85) ? BigInt(rng.int(0, 3)) : rng.pick<PyValue>([1.0, 2.0, 0.5, '1', true]);
    case 'amount':
      return rng.chance(0.85) ? BigInt(rng.pick([50, 100, 150])) : rng.pick<PyValue>([100.0, '150', 'abc']);
    case 'expression':
      return rng.pick(['2+2', '1/0', '(1+2', '10/3', 'abc', '3 * (4 - 1.5)']);
    default:
      return rng.pick(['Customer wants a refund', '']);
  }
}

/** One random tool call: a name and an argument dict. */
export function randomAirlineCall(rng: Rng, pools: Pools): [string, PyValue] {
  if (rng.chance(0.01)) return [rng.pick(AIRLINE_TOOL_NAMES), rng.pick<PyValue>([null, [], 'x', 5n])];
  if (rng.chance(0.04)) return [rng.pick(FAKE_TOOLS), new Map()];
  const name = rng.pick(AIRLINE_TOOL_NAMES);
  const user = rng.pick(pools.users);
  if (name === 'book_reservation' && rng.chance(0.5)) return [name, consistentBooking(rng, pools, user)];
  const args = new Map<string, PyValue>();
  for (const param of PARAMS[name] ?? []) {
    if (rng.chance(0.02)) continue;
    args.set(
      rng.chance(0.01) ? `${param}s` : param,
      rng.chance(0.9) ? goodValue(rng, pools, param, user) : randomValue(rng, pools),
    );
  }
  if (rng.chance(0.04)) args.set(rng.pick(WRONG_NAMES), randomValue(rng, pools));
  return [name, args];
}

/** A booking whose payment adds up: one economy passenger on one bookable flight, paid by one saved method. */
function consistentBooking(rng: Rng, pools: Pools, user: User): PyValue {
  const f = rng.pick(pools.bookable);
  const bags = BigInt(rng.int(0, 1));
  return new Map<string, PyValue>([
    ['user_id', user.id],
    ['origin', f.origin],
    ['destination', f.destination],
    ['flight_type', 'one_way'],
    ['cabin', 'economy'],
    [
      'flights',
      [
        new Map<string, PyValue>([
          ['flight_number', f.number],
          ['date', f.date],
        ]),
      ],
    ],
    ['passengers', [passenger(rng)]],
    [
      'payment_methods',
      [
        new Map<string, PyValue>([
          ['payment_id', rng.pick(user.methods)],
          ['amount', f.price + 50n * bags],
        ]),
      ],
    ],
    ['total_baggages', bags],
    ['nonfree_baggages', bags],
    ['insurance', 'no'],
  ]);
}
