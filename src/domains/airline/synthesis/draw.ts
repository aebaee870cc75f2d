import { toPyValue } from '../../../core/py-value.js';
import type { Rng } from '../../../core/rng.js';
import type { EnvironmentBase } from '../../../env/environment-base.js';
import type { Episode } from '../../../env/episode.js';
import { personaText } from '../../../tasks/behaviour.js';
import type { DrawRequest, TaskDraft } from '../../../tasks/synthesis.js';
import { drawAirlineBehaviour } from './behaviour.js';
import { buildRequest } from './build-request.js';
import { CANDIDATE_DRAWS, type Draft, type DrawScope } from './candidates.js';
import { FuzzContext } from './fuzzify.js';
import { AIRLINE_CONSTRAINT_KINDS } from './kinds.js';
import type { AirlineState } from './references.js';
import type { AirlineFuzz, AirlineRequest } from './requests.js';
import { segmentStatuses, TRANSFER_MESSAGE } from './rules.js';
import { scenarioInstructions } from './scenario.js';
import { AirlineReader } from './views.js';

/**
 * Relative weight of each constraint kind when a slot is filled (refusals and information are rarer). The
 * transfer is drawn only for the last slot: the conversation ends with it.
 */
export const AIRLINE_KIND_WEIGHTS: Readonly<Record<string, number>> = {
  book_reservation: 1,
  change_flights: 1,
  change_cabin: 1,
  add_bags: 1,
  change_passengers: 0.8,
  cancel_reservation: 1,
  compensation_certificate: 0.5,
  refuse_basic_economy_change: 0.3,
  refuse_cancel: 0.3,
  refuse_remove_bags: 0.2,
  refuse_add_insurance: 0.2,
  refuse_passenger_count: 0.2,
  refuse_compensation: 0.3,
  transfer_flown_cancel: 0.25,
  flight_status: 0.3,
  price_difference: 0.3,
  refund_amount: 0.3,
};

/** The agent's view of a user in a state (statuses read once per reservation). */
export function airlineState(episode: Episode, userId: string): AirlineState | undefined {
  const reader = new AirlineReader(episode);
  const user = reader.user(userId);
  if (user === undefined) return undefined;
  const statuses = new Map<string, readonly string[]>();
  return {
    user,
    reservations: reader.reservationsOf(user),
    reader,
    statuses(r) {
      let s = statuses.get(r.reservation_id);
      if (s === undefined) {
        s = segmentStatuses(reader, r);
        statuses.set(r.reservation_id, s);
      }
      return s;
    },
  };
}

const routeLists = new WeakMap<EnvironmentBase, (readonly [string, string])[]>();
const userLists = new WeakMap<EnvironmentBase, string[]>();

function routesOf(base: EnvironmentBase): (readonly [string, string])[] {
  let list = routeLists.get(base);
  if (list === undefined) {
    list = base.sql
      .all('SELECT DISTINCT origin, destination FROM flights ORDER BY origin, destination')
      .map((r) => [String(r.origin), String(r.destination)] as const);
    routeLists.set(base, list);
  }
  return list;
}

const userSets = new WeakMap<EnvironmentBase, Set<string>>();

/** The user ids of the base as a set (a mistyped user id must be none of them). */
function userSetOf(base: EnvironmentBase): Set<string> {
  let set = userSets.get(base);
  if (set === undefined) {
    set = new Set(usersOf(base));
    userSets.set(base, set);
  }
  return set;
}

function usersOf(base: EnvironmentBase): string[] {
  let list = userLists.get(base);
  if (list === undefined) {
    list = base.sql.all('SELECT user_id FROM users ORDER BY pos').map((r) => String(r.user_id));
    userLists.set(base, list);
  }
  return list;
}

/**
 * Kinds whose reservations few users have, with the SQL condition on a user's reservation (`r`) and its flights'
 * statuses (`d`) that such a user meets: a task whose first constraint is of one of them picks its user among
 * those, so that the rare kinds are drawn about as often as their weights say.
 */
const RARE_KINDS: Readonly<Record<string, string>> = {
  compensation_certificate:
    "d.status = 'cancelled' AND (u.membership != 'regular' OR r.insurance = 'yes' OR r.cabin = 'business')",
  refuse_compensation:
    "d.status IN ('cancelled', 'delayed') AND u.membership = 'regular' AND r.insurance = 'no' AND r.cabin != 'business'",
  transfer_flown_cancel: "d.status IN ('landed', 'flying')",
  refuse_basic_economy_change: "r.cabin = 'basic_economy' AND d.status = 'available'",
  flight_status: "d.status NOT IN ('available')",
};

const rareUsers = new WeakMap<EnvironmentBase, Map<string, string[]>>();

/** The users who may carry a rare kind (read once per base and kind). */
function usersForKind(base: EnvironmentBase, kind: string): string[] | undefined {
  const where = RARE_KINDS[kind];
  if (where === undefined) return undefined;
  let known = rareUsers.get(base);
  if (known === undefined) {
    known = new Map();
    rareUsers.set(base, known);
  }
  let list = known.get(kind);
  if (list === undefined) {
    list = base.sql
      .all(
        `SELECT DISTINCT u.user_id, u.pos FROM users u
         JOIN user_reservations ur ON ur.user_id = u.user_id
         JOIN reservations r ON r.reservation_id = ur.reservation_id
         JOIN reservation_flights f ON f.reservation_id = r.reservation_id
         JOIN flight_dates d ON d.flight_number = f.flight_number AND d.date = f.date
         WHERE r.status IS NULL AND ${where} ORDER BY u.pos`,
      )
      .map((r) => String(r.user_id));
    known.set(kind, list);
  }
  return list;
}

/** The value an information constraint must be told, as τ²'s communicate check looks for it. */
function valueText(draft: Draft): string {
  const v = draft.args.value;
  return typeof v === 'number' ? String(Math.abs(v)) : String(v);
}

/** Draws the next constraint on the current state: weighted kinds, falling back to the others in turn. */
function drawOne(
  rng: Rng,
  state: AirlineState,
  used: ReadonlySet<string>,
  scope: DrawScope,
  weights: Readonly<Record<string, number>>,
  last: boolean,
): Draft | undefined {
  let remaining = Object.keys(weights).filter(
    (x) => (weights[x] ?? 0) > 0 && (last || x !== 'transfer_flown_cancel'),
  );
  while (remaining.length > 0) {
    const kind = rng.weighted(
      remaining,
      remaining.map((x) => weights[x] ?? 1),
    );
    remaining = remaining.filter((x) => x !== kind);
    const draft = CANDIDATE_DRAWS[kind]?.(rng, state, used, scope);
    if (draft !== undefined) return draft;
  }
  return undefined;
}

/**
 * Draws one airline task: a user and `k` constraints, each drawn on the state the earlier gold actions leave
 * (so they stay jointly consistent), described in that state and the initial one, then applied. Rejects when a
 * slot finds no entity, a description cannot be made unique, or a gold action fails.
 */
export function drawAirlineTask(
  rng: Rng,
  base: EnvironmentBase,
  request: DrawRequest,
): TaskDraft | { rejected: string } {
  const weights = request.kindWeights ?? AIRLINE_KIND_WEIGHTS;
  const kinds = Object.keys(weights).filter(
    (x) => (weights[x] ?? 0) > 0 && (request.k === 1 || x !== 'transfer_flown_cancel'),
  );
  if (kinds.length === 0) return { rejected: 'no constraint kind has a weight' };
  const first = rng.weighted(
    kinds,
    kinds.map((x) => weights[x] ?? 0),
  );
  const rare = usersForKind(base, first);
  const users = rare !== undefined && rare.length > 0 ? rare : usersOf(base);
  if (users.length === 0) return { rejected: 'the DB has no users' };
  // a pinned user (the customer a conversation prefix identified) carries whatever kinds they can
  const userId = request.userId ?? rng.pick(users);
  const episode = base.fork({ semantics: request.semantics });
  try {
    const initial = airlineState(episode, userId);
    if (initial === undefined)
      return { rejected: request.userId === undefined ? 'user not readable' : `user ${userId} not found` };
    const own = new Set(initial.user.reservations);
    const context = new FuzzContext(rng.child('fuzz'), request.fuzzLevel);
    const drafts: Draft[] = [];
    const requests: AirlineRequest[] = [];
    const perRequest: string[][] = [];
    const used = new Set<string>();
    const scope: DrawScope = { drafts, routes: () => routesOf(base) };
    const picker = rng.child('constraints');
    for (let slot = 0; slot < request.k; slot++) {
      const current = slot === 0 ? initial : airlineState(episode, userId);
      if (current === undefined) return { rejected: 'user vanished' };
      for (const id of current.user.reservations) if (!own.has(id)) used.add(id);
      const draft = drawOne(
        picker,
        current,
        used,
        scope,
        request.kindWeights ?? AIRLINE_KIND_WEIGHTS,
        slot === request.k - 1,
      );
      if (draft === undefined) return { rejected: `user has too few eligible entities for k=${request.k}` };
      context.states = slot === 0 ? [initial] : [initial, current];
      const before = context.strategies.length;
      const req = buildRequest(context, draft);
      perRequest.push(context.strategies.slice(before));
      if (req === undefined) return { rejected: `no unique description for ${draft.kind}` };
      drafts.push(draft);
      requests.push(req);
      if (draft.reservationId !== undefined) used.add(draft.reservationId);
      const kind = AIRLINE_CONSTRAINT_KINDS.find((k) => k.name === draft.kind);
      for (const action of kind?.goldActions({ id: '', kind: draft.kind, args: draft.args, footprint: [] }) ??
        []) {
        const call = episode.call(action.name, toPyValue(action.arguments));
        if (call.error) return { rejected: `gold ${action.name} failed: ${call.content}` };
      }
    }
    const constraints = drafts.map((d, i) => {
      const args = { ...d.args };
      if (kindOf(d.kind)?.category === 'information') args.value_text = valueText(d);
      return { id: `c${i + 1}`, kind: d.kind, args };
    });
    const communicate = [
      ...constraints
        .filter((c) => kindOf(c.kind)?.category === 'information')
        .map((c) => c.args.value_text as string),
      ...(drafts.some((d) => d.kind === 'transfer_flown_cancel') ? [TRANSFER_MESSAGE] : []),
    ];
    const hidden = context.hiddenIds();
    const user = { strategy: 'user_id', user_id: userId } as const;
    const fuzz: AirlineFuzz = {
      level: request.fuzzLevel,
      user,
      requests,
      strategies: perRequest,
      hidden_ids: hidden,
    };
    const behaviour = drawAirlineBehaviour(rng.child('behaviour'), {
      userId,
      requests,
      isUser: (id) => userSetOf(base).has(id),
    });
    return {
      userId,
      constraints,
      behaviour,
      persona: personaText(behaviour.persona),
      fuzz: fuzz as unknown as Record<string, unknown>,
      instructions: scenarioInstructions(rng.child('text'), user, requests, behaviour),
      strategies: perRequest,
      userStrategy: 'user:user_id',
      hiddenIds: hidden,
      communicate,
    };
  } finally {
    episode.close();
  }
}

function kindOf(name: string) {
  return AIRLINE_CONSTRAINT_KINDS.find((k) => k.name === name);
}
