import { toPyValue } from '../../../core/py-value.js';
import type { Rng } from '../../../core/rng.js';
import type { EnvironmentBase } from '../../../env/environment-base.js';
import type { Episode } from '../../../env/episode.js';
import { personaText } from '../../../tasks/behaviour.js';
import { moneyText } from '../../../tasks/communicate.js';
import type { DrawRequest, TaskDraft } from '../../../tasks/synthesis.js';
import { drawRetailBehaviour } from './behaviour.js';
import { buildRequest } from './build-request.js';
import { CANDIDATE_DRAWS, type Draft, type DrawScope } from './candidates.js';
import { describeUser, FuzzContext, type UserState } from './fuzzify.js';
import { RETAIL_CONSTRAINT_KINDS } from './kinds.js';
import type { RetailFuzz, RetailRequest } from './requests.js';
import { scenarioInstructions } from './scenario.js';
import { type ProductView, type UserView, ViewReader } from './views.js';

/**
 * Relative weight of each draw when a slot is filled (information and refusals are rarer). The keys are the
 * draws of `CANDIDATE_DRAWS`: one per constraint kind, plus two that make `refusal` constraints of their own —
 * `second_item_change` (drawable only after an item change in the same task, hence its higher weight) and
 * `other_users_order`.
 */
const KIND_WEIGHTS: Record<string, number> = {
  cancel_pending_order: 1,
  modify_pending_order_address: 1,
  modify_pending_order_payment: 1,
  modify_pending_order_items: 1,
  modify_user_address: 0.25,
  return_delivered_order_items: 1,
  exchange_delivered_order_items: 1,
  information: 0.35,
  refusal: 0.6,
  second_item_change: 1,
  other_users_order: 0.15,
};

/** The user's view of a state, with products read on demand and remembered. */
export function userState(episode: Episode, userId: string): UserState | undefined {
  const reader = new ViewReader(episode);
  const user = reader.user(userId);
  if (user === undefined) return undefined;
  const products = new Map<string, ProductView | undefined>();
  return {
    user,
    orders: reader.ordersOf(user),
    product(productId) {
      if (!products.has(productId)) products.set(productId, reader.product(productId));
      return products.get(productId);
    },
  };
}

const userLists = new WeakMap<EnvironmentBase, { id: string; orders: number }[]>();

/**
 * Users who can carry `k` constraints: those with at least `k - 2` orders (two kinds need no order of their
 * own), or every user with an order when none has that many.
 */
function usersFor(base: EnvironmentBase, k: number): string[] {
  let list = userLists.get(base);
  if (list === undefined) {
    list = base.sql
      .all(
        'SELECT user_id, (SELECT COUNT(*) FROM user_orders x WHERE x.user_id = u.user_id) AS n FROM users u ORDER BY pos',
      )
      .map((r) => ({ id: String(r.user_id), orders: Number(r.n) }))
      .filter((u) => u.orders > 0);
    userLists.set(base, list);
  }
  const enough = list.filter((u) => u.orders >= k - 2);
  return (enough.length > 0 ? enough : list).map((u) => u.id);
}

/** Whether `userId` has an order (a pinned user may have fewer than {@link usersFor} asks of a drawn one). */
function hasOrders(base: EnvironmentBase, userId: string): boolean {
  return base.sql.all('SELECT 1 FROM user_orders WHERE user_id = ? LIMIT 1', userId).length > 0;
}

const orderOwners = new WeakMap<EnvironmentBase, { id: string; user: string }[]>();

/** Every order with its owner, in the DB's order (read once per base). */
function ordersWithOwners(base: EnvironmentBase): { id: string; user: string }[] {
  let list = orderOwners.get(base);
  if (list === undefined) {
    list = base.sql
      .all('SELECT order_id, user_id FROM orders ORDER BY pos')
      .map((r) => ({ id: String(r.order_id), user: String(r.user_id) }));
    orderOwners.set(base, list);
  }
  return list;
}

/** Draws made only when a slot picks them first, never as the stand-in for a kind that found nothing. */
const FIRST_CHOICE_ONLY = new Set(['other_users_order']);

function drawConstraints(
  rng: Rng,
  base: EnvironmentBase,
  state: UserState,
  k: number,
  weights: Readonly<Record<string, number>>,
): Draft[] | undefined {
  const used = new Set<string>();
  const drafts: Draft[] = [];
  const scope: DrawScope = {
    drafts,
    otherUsersOrders: () =>
      ordersWithOwners(base)
        .filter((o) => o.user !== state.user.user_id)
        .map((o) => o.id),
  };
  for (let slot = 0; slot < k; slot++) {
    const kinds = Object.keys(weights).filter((x) => (weights[x] ?? 0) > 0);
    let draft: Draft | undefined;
    let remaining = [...kinds];
    while (draft === undefined && remaining.length > 0) {
      const kind = rng.weighted(
        remaining,
        remaining.map((x) => weights[x] ?? 1),
      );
      remaining.splice(remaining.indexOf(kind), 1);
      draft = CANDIDATE_DRAWS[kind]?.(rng, state, used, scope);
      // a draw that always finds something would otherwise stand in for every kind the user cannot carry
      remaining = remaining.filter((x) => !FIRST_CHOICE_ONLY.has(x));
    }
    if (draft === undefined) return undefined;
    if (draft.orderId !== undefined) used.add(draft.orderId);
    if (draft.kind === 'modify_user_address') used.add('user-address');
    if (draft.kind === 'information' && draft.args.topic === 'gift_card_balance') used.add('info-gift-card');
    if (draft.args.action === 'other_users_order') used.add('other-users-order');
    drafts.push(draft);
  }
  return drafts;
}

const userViews = new WeakMap<EnvironmentBase, readonly UserView[]>();

/** Users as the email / name+zip lookups see them (for the uniqueness of the user reference); read once per base. */
function allUserViews(base: EnvironmentBase): readonly UserView[] {
  let views = userViews.get(base);
  if (views === undefined) {
    views = readUserViews(base);
    userViews.set(base, views);
  }
  return views;
}

function readUserViews(base: EnvironmentBase): UserView[] {
  return base.sql.all('SELECT user_id, first_name, last_name, zip, email FROM users').map((r) => ({
    user_id: String(r.user_id),
    name: { first_name: String(r.first_name), last_name: String(r.last_name) },
    address: { address1: '', address2: '', city: '', country: '', state: '', zip: String(r.zip) },
    email: String(r.email),
    payment_methods: {},
    orders: [],
  }));
}

/**
 * Draws one retail task: a user, `k` mutually consistent constraints on that user's entities, and their fuzzy
 * requests, described state by state while the gold actions are replayed (so every description is unique where
 * the agent will resolve it). Rejects when the user lacks entities, a description cannot be made unique, a gold
 * action fails, or an information value would change during the task.
 */
export function drawRetailTask(
  rng: Rng,
  base: EnvironmentBase,
  request: DrawRequest,
): TaskDraft | { rejected: string } {
  const users = usersFor(base, request.k);
  if (users.length === 0) return { rejected: 'no user has orders' };
  const pinned = request.userId;
  if (pinned !== undefined && !users.includes(pinned) && !hasOrders(base, pinned))
    return { rejected: `user ${pinned} has no orders` };
  const userId = pinned ?? rng.pick(users);
  const episode = base.fork({ semantics: request.semantics });
  try {
    const initial = userState(episode, userId);
    if (initial === undefined) return { rejected: 'user not readable' };
    const drafts = drawConstraints(
      rng.child('constraints'),
      base,
      initial,
      request.k,
      request.kindWeights ?? KIND_WEIGHTS,
    );
    if (drafts === undefined) return { rejected: `user has too few eligible entities for k=${request.k}` };
    const context = new FuzzContext(rng.child('fuzz'), request.fuzzLevel);
    context.states = [initial];
    const everyone = allUserViews(base);
    const userRef = describeUser(context, initial.user, everyone);
    if (userRef === undefined) return { rejected: 'user cannot be identified uniquely' };
    const requests: RetailRequest[] = [];
    const states: UserState[] = [];
    const perRequest: string[][] = [];
    const constraints = drafts.map((d, i) => ({ id: `c${i + 1}`, kind: d.kind, args: d.args }));
    for (const [i, draft] of drafts.entries()) {
      const current = i === 0 ? initial : userState(episode, userId);
      if (current === undefined) return { rejected: 'user vanished' };
      context.states = i === 0 ? [initial] : [initial, current];
      states.push(current);
      const before = context.strategies.length;
      const req = buildRequest(context, draft, current);
      perRequest.push(context.strategies.slice(before));
      if (req === undefined) return { rejected: `no unique description for ${draft.kind}` };
      requests.push(req);
      const kind = RETAIL_CONSTRAINT_KINDS.find((k) => k.name === draft.kind);
      for (const action of kind?.goldActions({
        ...(constraints[i] as (typeof constraints)[number]),
        footprint: [],
      }) ?? []) {
        if (episode.call(action.name, toPyValue(action.arguments)).error)
          return { rejected: `gold ${action.name} failed` };
      }
    }
    const final = userState(episode, userId);
    for (const d of drafts) {
      if (d.kind !== 'information') continue;
      const now =
        d.args.topic === 'order_total'
          ? final?.orders.find((o) => o.order_id === d.args.order_id)?.payment_history[0]?.amount
          : final?.user.payment_methods[d.args.payment_method_id as string]?.balance;
      if (now !== d.args.value) return { rejected: 'information value changes during the task' };
    }
    const communicate = drafts
      .filter((d) => d.kind === 'information')
      .map((d) => moneyText(d.args.value as number));
    for (const [i, d] of drafts.entries()) {
      if (d.kind === 'information')
        (constraints[i] as { args: Record<string, unknown> }).args.value_text = moneyText(
          d.args.value as number,
        );
    }
    const fuzz: RetailFuzz = {
      level: request.fuzzLevel,
      user: userRef,
      requests,
      strategies: perRequest,
      hidden_ids: [...context.hidden],
    };
    const behaviour = drawRetailBehaviour(rng.child('behaviour'), {
      user: userRef,
      requests,
      states,
      allUsers: everyone,
    });
    return {
      userId,
      constraints,
      fuzz: fuzz as unknown as Record<string, unknown>,
      instructions: scenarioInstructions(rng.child('text'), userRef, requests, behaviour),
      behaviour,
      persona: personaText(behaviour.persona),
      strategies: perRequest,
      userStrategy: `user:${userRef.strategy}`,
      hiddenIds: [...context.hidden],
      communicate,
    };
  } finally {
    episode.close();
  }
}
