import type { EntityRef } from '../env/change-tracking.js';
import type { Episode } from '../env/episode.js';
import type { Semantics } from '../env/tool.js';

/** What a constraint asks for: a state change, a value the agent must tell, or a request it must refuse. */
export type ConstraintCategory = 'write' | 'information' | 'refusal';

/**
 * One deterministic goal grounded in DB ids (docs/design.md §2, §5), e.g.
 * `{id: 'c1', kind: 'cancel_pending_order', args: {order_id: '#W1234567', reason: 'no longer needed'}}`.
 * `args` is plain JSON (strings, numbers, lists, objects) and holds exact ids, never descriptions.
 */
export interface Constraint {
  readonly id: string;
  readonly kind: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Entities the gold replay of this constraint changes (empty for information and refusal). */
  readonly footprint: readonly EntityRef[];
}

/** A tool call of a constraint's gold solution. */
export interface GoldAction {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** What a predicate sees: the final episode, the run's semantics and the agent's text messages. */
export interface PredicateContext {
  readonly final: Episode;
  readonly semantics: Semantics;
  /** Text of every assistant message (tool-call messages included when they carry text), in order. */
  readonly agentTexts: readonly string[];
}

/** A predicate's verdict with a short human-readable reason. */
export interface PredicateResult {
  readonly satisfied: boolean;
  readonly evidence: string;
}

/**
 * A read that identifies the user the task is about: a successful call of `tool` whose result text
 * (`user: 'result'`, e.g. a lookup by email that returns the user id) or whose argument `user.argument` (e.g.
 * `get_user_details(user_id)` where the policy authenticates by user id) equals the task's `cove.user_id`.
 */
export interface IdentifyRead {
  readonly tool: string;
  readonly user: 'result' | { readonly argument: string };
}

/**
 * A read that looks up the entity a request concerns: a successful call of `tool` whose argument `argument`
 * equals (Python `==` on the parsed values) the constraint's `args[constraintArg]`.
 */
export interface LookupRead {
  readonly tool: string;
  readonly argument: string;
  readonly constraintArg: string;
}

/**
 * What a policy-abiding agent does before it says no (issue 23, docs/rewards.md): identify the user by one of
 * the `identify` reads, then look up the entity by one of the `lookup` reads, then tell the user (an agent text
 * after the lookup); no successful write may change the entity (`entity.collection`, keyed by
 * `args[entity.constraintArg]`) and the episode must end by a user or agent stop. The verifier checks this for
 * every kind that declares it, in every domain; a `refusal` kind that declares none never holds. An empty
 * `identify` list declares a policy that needs no identification (only the lookup is then required).
 */
export interface Grounding {
  readonly identify: readonly IdentifyRead[];
  readonly lookup: readonly LookupRead[];
  readonly entity: { readonly collection: string; readonly constraintArg: string };
}

/** The behaviour of one constraint kind (docs/design.md §5): gold actions and the final-state predicate. */
export interface ConstraintKind {
  readonly name: string;
  readonly category: ConstraintCategory;
  /** The reads a satisfied constraint requires of the trajectory (required for `refusal` kinds). */
  readonly grounding?: Grounding;
  /** The write tools whose successful calls serve this kind (empty for information and refusal kinds). */
  readonly writeTools: readonly string[];
  /** The tool calls that satisfy the constraint (empty for information and refusal). */
  goldActions(constraint: Constraint): GoldAction[];
  /** Whether the final state (and, for information, the agent's words) satisfies the constraint. */
  predicate(constraint: Constraint, context: PredicateContext): PredicateResult;
}
