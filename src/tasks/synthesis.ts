import type { Rng } from '../core/rng.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import type { Semantics } from '../env/tool.js';
import type { Behaviour } from './behaviour.js';
import type { Constraint, ConstraintKind } from './constraint.js';
import type { Tau2Instructions } from './tau2-task.js';

/** Fuzz levels: 0 keeps ids, 1 fuzzifies some references, 2 all of them (docs/design.md §6). */
export type FuzzLevel = 0 | 1 | 2;

/** What a domain is asked to draw for one task. */
export interface DrawRequest {
  /** Number of constraints. */
  readonly k: number;
  readonly fuzzLevel: FuzzLevel;
  readonly semantics: Semantics;
  /** Relative weight of each constraint kind when a slot is filled (a task mix's); absent: the domain's own. */
  readonly kindWeights?: Readonly<Record<string, number>>;
  /**
   * A pinned customer: the task must be about this user (`TaskDraft.userId`), e.g. the customer a conversation
   * prefix already identified (`cove generate --from`). A draw that cannot make a task for them is rejected.
   * Absent: the domain picks the user.
   */
  readonly userId?: string;
}

/**
 * A preset task mix (`--mix`): how many constraints a task has and which kinds fill them. `kWeights[i]` is the
 * relative weight of `k = i + 1` (used when no `--k` and the difficulty is `mixed`); `kindWeights` replaces the
 * domain's default weights of its kinds (a kind left out is never drawn).
 */
export interface TaskMix {
  readonly description: string;
  readonly kWeights: readonly number[];
  readonly kindWeights: Readonly<Record<string, number>>;
}

/** One drawn task before the shared solvability proof: exact constraints plus their fuzzy rendering. */
export interface TaskDraft {
  readonly userId: string;
  /** Constraints in the order the user brings them up (and the gold actions run). */
  readonly constraints: readonly {
    readonly id: string;
    readonly kind: string;
    readonly args: Record<string, unknown>;
  }[];
  /** Domain-specific fuzzy descriptions (`cove.fuzz`), read back by the domain's user simulator and oracle. */
  readonly fuzz: Readonly<Record<string, unknown>>;
  readonly instructions: Tau2Instructions;
  /** Per constraint, `<reference>:<strategy>` of each of its references (quality report). */
  readonly strategies: readonly (readonly string[])[];
  /** How the user is identified, e.g. `user:email`. */
  readonly userStrategy: string;
  /** Ids replaced by descriptions: they must not appear in any text of the task. */
  readonly hiddenIds: readonly string[];
  /** Information values as τ²'s `communicate_info` strings. */
  readonly communicate: readonly string[];
  /** The user's behaviour (`cove.behaviour`), when the domain draws one. */
  readonly behaviour?: Behaviour;
  /** The persona text of the τ² scenario (`user_scenario.persona`), when the domain draws one. */
  readonly persona?: string;
}

/** A domain's task synthesis: its constraint kinds and a seeded draw (docs/design.md §3). */
export interface DomainSynthesis {
  readonly kinds: readonly ConstraintKind[];
  /** Preset task mixes by name, beside the default `uniform` one (docs/design.md §5). */
  readonly mixes?: Readonly<Record<string, TaskMix>>;
  /** Draws one candidate task; `{rejected}` when this draw cannot make a valid task (the sampler redraws). */
  draw(rng: Rng, base: EnvironmentBase, request: DrawRequest): TaskDraft | { readonly rejected: string };
  /** Re-resolves a task's fuzzy references against the DB; one line per reference that is not unique. */
  recheck(
    base: EnvironmentBase,
    constraints: readonly Constraint[],
    fuzz: Readonly<Record<string, unknown>>,
    semantics: Semantics,
  ): string[];
  /**
   * What a user can change when no draw of a task succeeds, ending the error message (e.g. Retail: a DB with more
   * orders per user). @defaultValue 'use a larger DB'
   */
  readonly scarcityHint?: string;
}
