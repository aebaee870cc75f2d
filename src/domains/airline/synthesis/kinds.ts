import { isCommunicated } from '../../../tasks/communicate.js';
import type {
  Constraint,
  ConstraintKind,
  GoldAction,
  Grounding,
  PredicateContext,
  PredicateResult,
} from '../../../tasks/constraint.js';
import { TRANSFER_MESSAGE } from './rules.js';
import { AirlineReader, type PassengerView, type ReservationView, type UserView } from './views.js';

/**
 * The airline constraint kinds (docs/airline.md, "Constraint kinds"): seven writes (one tool call each), six
 * refusals and a transfer (no write; the verifier checks their grounding), and three information kinds (a value the
 * agent must tell). Predicates read the final state through the read tools, as an auditor would.
 */

type Args = Readonly<Record<string, unknown>>;
type Leg = { flight_number: string; date: string };
const str = (args: Args, key: string): string => args[key] as string;
const verdict = (satisfied: boolean, evidence: string): PredicateResult => ({ satisfied, evidence });

function reservationAt(context: PredicateContext, id: string): ReservationView | undefined {
  return new AirlineReader(context.final).reservation(id);
}

/** The user as the task began (a fork of the base, closed at once). */
function initialUser(context: PredicateContext, userId: string): UserView | undefined {
  const probe = context.final.base.fork();
  try {
    return new AirlineReader(probe).user(userId);
  } finally {
    probe.close();
  }
}

const sameLegs = (a: readonly Leg[], b: readonly Leg[]): boolean =>
  a.length === b.length &&
  a.every((f, i) => f.flight_number === b[i]?.flight_number && f.date === b[i]?.date);
const samePeople = (a: readonly PassengerView[], b: readonly PassengerView[]): boolean =>
  a.length === b.length &&
  a.every(
    (p, i) => p.first_name === b[i]?.first_name && p.last_name === b[i]?.last_name && p.dob === b[i]?.dob,
  );

function writeKind(
  name: string,
  tool: string,
  toolArgs: readonly string[],
  predicate: (c: Constraint, context: PredicateContext) => PredicateResult,
): ConstraintKind {
  return {
    name,
    category: 'write',
    writeTools: [tool],
    goldActions: (c): GoldAction[] => [
      { name: tool, arguments: Object.fromEntries(toolArgs.map((k) => [k, c.args[k]])) },
    ],
    predicate,
  };
}

const book = writeKind(
  'book_reservation',
  'book_reservation',
  [
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
  (c, context) => {
    const a = c.args;
    const userId = str(a, 'user_id');
    const reader = new AirlineReader(context.final);
    const before = new Set(initialUser(context, userId)?.reservations ?? []);
    const fresh = (reader.user(userId)?.reservations ?? []).filter((id) => !before.has(id));
    const pays = a.payment_methods as { payment_id: string; amount: number }[];
    const hit = fresh.find((id) => {
      const r = reader.reservation(id);
      return (
        r !== undefined &&
        r.status === null &&
        r.origin === a.origin &&
        r.destination === a.destination &&
        r.flight_type === a.flight_type &&
        r.cabin === a.cabin &&
        sameLegs(r.flights, a.flights as Leg[]) &&
        samePeople(r.passengers, a.passengers as PassengerView[]) &&
        r.total_baggages === a.total_baggages &&
        r.nonfree_baggages === a.nonfree_baggages &&
        r.insurance === a.insurance &&
        r.payment_history.length === pays.length &&
        r.payment_history.every(
          (p, i) => p.payment_id === pays[i]?.payment_id && p.amount === pays[i]?.amount,
        )
      );
    });
    return verdict(
      hit !== undefined,
      hit === undefined
        ? `no new reservation of ${userId} matches (${fresh.length} new)`
        : `booked as ${hit}`,
    );
  },
);

const FLIGHT_ARGS = ['reservation_id', 'cabin', 'flights', 'payment_id'] as const;

/** Flights and cabin as asked; any payment the change recorded went to the chosen method. */
function flightsPredicate(c: Constraint, context: PredicateContext): PredicateResult {
  const id = str(c.args, 'reservation_id');
  const r = reservationAt(context, id);
  const probe = context.final.base.fork();
  const paidBefore = new AirlineReader(probe).reservation(id)?.payment_history.length ?? 0;
  probe.close();
  const ok =
    r !== undefined &&
    r.cabin === c.args.cabin &&
    sameLegs(r.flights, c.args.flights as Leg[]) &&
    r.payment_history.slice(paidBefore).every((p) => p.payment_id === c.args.payment_id);
  return verdict(
    ok,
    `reservation ${id} ${ok ? 'has the new flights and cabin' : `is ${r?.cabin} on other flights`}`,
  );
}

const changeFlights = writeKind(
  'change_flights',
  'update_reservation_flights',
  FLIGHT_ARGS,
  flightsPredicate,
);
const changeCabin = writeKind('change_cabin', 'update_reservation_flights', FLIGHT_ARGS, flightsPredicate);

const addBags = writeKind(
  'add_bags',
  'update_reservation_baggages',
  ['reservation_id', 'total_baggages', 'nonfree_baggages', 'payment_id'],
  (c, context) => {
    const id = str(c.args, 'reservation_id');
    const r = reservationAt(context, id);
    const ok =
      r !== undefined &&
      r.total_baggages === c.args.total_baggages &&
      r.nonfree_baggages === c.args.nonfree_baggages;
    return verdict(
      ok,
      `reservation ${id} has ${r?.total_baggages}/${r?.nonfree_baggages} bags (total/non-free)`,
    );
  },
);

const changePassengers = writeKind(
  'change_passengers',
  'update_reservation_passengers',
  ['reservation_id', 'passengers'],
  (c, context) => {
    const id = str(c.args, 'reservation_id');
    const r = reservationAt(context, id);
    const ok = r !== undefined && samePeople(r.passengers, c.args.passengers as PassengerView[]);
    return verdict(ok, `reservation ${id} passengers ${ok ? 'match' : 'differ'}`);
  },
);

const cancel = writeKind('cancel_reservation', 'cancel_reservation', ['reservation_id'], (c, context) => {
  const id = str(c.args, 'reservation_id');
  const r = reservationAt(context, id);
  return verdict(r?.status === 'cancelled', `reservation ${id} status=${r?.status ?? 'missing'}`);
});

/** Certificates of the user now that were not there at the start. */
function newCertificates(context: PredicateContext, userId: string): { id: string; amount: number }[] {
  const before = initialUser(context, userId)?.payment_methods ?? {};
  const now = new AirlineReader(context.final).user(userId)?.payment_methods ?? {};
  return Object.values(now)
    .filter((m) => m.source === 'certificate' && before[m.id] === undefined)
    .map((m) => ({ id: m.id, amount: m.amount ?? 0 }));
}

const compensation = writeKind(
  'compensation_certificate',
  'send_certificate',
  ['user_id', 'amount'],
  (c, context) => {
    const fresh = newCertificates(context, str(c.args, 'user_id'));
    const ok = fresh.some((m) => m.amount === c.args.amount);
    return verdict(ok, `new certificates: ${fresh.map((m) => `${m.id} ${m.amount}`).join(', ') || 'none'}`);
  },
);

/** Identify by `get_user_details(user_id)` (the policy's authentication), then read the reservation. */
function grounding(collection: 'reservations' | 'users'): Grounding {
  return {
    identify: [{ tool: 'get_user_details', user: { argument: 'user_id' } }],
    lookup: [
      { tool: 'get_reservation_details', argument: 'reservation_id', constraintArg: 'reservation_id' },
    ],
    entity:
      collection === 'reservations'
        ? { collection, constraintArg: 'reservation_id' }
        : { collection, constraintArg: 'user_id' },
  };
}

function unchanged(context: PredicateContext, id: string): PredicateResult {
  const same =
    context.final.chunk({ collection: 'reservations', key: id }) ===
    context.final.base.digest.chunk('tau2', 'reservations', id);
  return verdict(same, `reservation ${id} ${same ? 'unchanged' : 'was changed'}`);
}

function refusalKind(name: string): ConstraintKind {
  return {
    name,
    category: 'refusal',
    writeTools: [],
    grounding: grounding('reservations'),
    goldActions: () => [],
    predicate: (c, context) => unchanged(context, str(c.args, 'reservation_id')),
  };
}

const refuseCompensation: ConstraintKind = {
  name: 'refuse_compensation',
  category: 'refusal',
  writeTools: [],
  grounding: grounding('users'),
  goldActions: () => [],
  predicate: (c, context) => {
    const fresh = newCertificates(context, str(c.args, 'user_id'));
    return verdict(fresh.length === 0, `${fresh.length} new certificate(s)`);
  },
};

/** A cancellation with a flown segment: the reservation stays as it is and the agent says the hold message. */
const transfer: ConstraintKind = {
  name: 'transfer_flown_cancel',
  category: 'refusal',
  writeTools: [],
  grounding: grounding('reservations'),
  goldActions: () => [],
  predicate: (c, context) => {
    const same = unchanged(context, str(c.args, 'reservation_id'));
    const said = isCommunicated(TRANSFER_MESSAGE, context.agentTexts);
    return verdict(same.satisfied && said, `${same.evidence}; hold message ${said ? 'sent' : 'not sent'}`);
  },
};

function informationKind(name: string): ConstraintKind {
  return {
    name,
    category: 'information',
    writeTools: [],
    goldActions: () => [],
    predicate: (c, context) => {
      const text = str(c.args, 'value_text');
      const ok = isCommunicated(text, context.agentTexts);
      return verdict(ok, `value ${text} ${ok ? 'was' : 'was not'} told to the user`);
    },
  };
}

/** The refusal kinds and the refused action each stands for in a request. */
export const REFUSAL_ACTIONS = {
  refuse_basic_economy_change: 'change_basic_economy_flights',
  refuse_cancel: 'cancel_ineligible',
  refuse_remove_bags: 'remove_bags',
  refuse_add_insurance: 'add_insurance',
  refuse_passenger_count: 'change_passenger_count',
  refuse_compensation: 'compensation_ineligible',
} as const;

/** Every airline constraint kind. */
export const AIRLINE_CONSTRAINT_KINDS: readonly ConstraintKind[] = [
  book,
  changeFlights,
  changeCabin,
  addBags,
  changePassengers,
  cancel,
  compensation,
  ...(Object.keys(REFUSAL_ACTIONS) as (keyof typeof REFUSAL_ACTIONS)[])
    .filter((k) => k !== 'refuse_compensation')
    .map(refusalKind),
  refuseCompensation,
  transfer,
  informationKind('flight_status'),
  informationKind('price_difference'),
  informationKind('refund_amount'),
];
