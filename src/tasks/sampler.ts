import { ConfigError } from '../core/errors.js';
import { toPyValue } from '../core/py-value.js';
import { deriveSeed, Rng } from '../core/rng.js';
import type { Domain } from '../domains/domain.js';
import type { EntityRef } from '../env/change-tracking.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import { goldKey, rememberGoldState } from '../env/gold-state.js';
import type { Semantics } from '../env/tool.js';
import type { Constraint, GoldAction } from './constraint.js';
import type { CoveFuzz, CoveTask, Difficulty, TaskDbSource } from './cove-task.js';
import { type NullPolicy, nullPoliciesPassing } from './null-policy.js';
import type { DomainSynthesis, FuzzLevel, TaskDraft, TaskMix } from './synthesis.js';

/** Options of task synthesis (`cove tasks`, `cove generate`). */
export interface SynthesisOptions {
  readonly domain: string;
  readonly seed: number;
  /** A fixed difficulty, or `mixed` (each task draws one). @defaultValue 'mixed' */
  readonly difficulty: Difficulty | 'mixed';
  /** @defaultValue 2 */
  readonly fuzz: FuzzLevel;
  /** @defaultValue 'parity' */
  readonly semantics: Semantics;
  /** An explicit number of constraints, overriding the difficulty's range. */
  readonly k?: number;
  /**
   * `--goals`: the number of goals of each session (one constraint each, so it also sets `k`), recorded in each
   * task's `cove.goals`. Absent: tasks are made and recorded as before.
   */
  readonly goals?: number;
  readonly db: TaskDbSource;
  readonly coveVersion: string;
  /**
   * The task mix: `uniform` (difficulty drawn uniformly, the domain's kind weights) or one of the domain's
   * `mixes`. @defaultValue 'uniform'
   */
  readonly mix?: string;
  /** Draws tried per task before giving up. @defaultValue 500 */
  readonly maxAttempts?: number;
  /** A pinned customer (`DrawRequest.userId`): every draw of the task is about this user. */
  readonly userId?: string;
}

/** Number of constraints for a difficulty: easy 1, medium 2–3, hard 4–6. */
export function constraintCount(rng: Rng, difficulty: Difficulty): number {
  return difficulty === 'easy' ? 1 : difficulty === 'medium' ? rng.int(2, 3) : rng.int(4, 6);
}

function difficultyOf(k: number): Difficulty {
  return k <= 1 ? 'easy' : k <= 3 ? 'medium' : 'hard';
}

/** Why a draft is not a valid task, or `undefined` when it is (the shared proof of solvability). */
export function proveSolvable(
  synthesis: DomainSynthesis,
  base: EnvironmentBase,
  draft: TaskDraft,
  semantics: Semantics,
): { constraints: Constraint[]; actions: GoldAction[] } | { rejected: string } {
  const episode = base.fork({ semantics });
  try {
    const constraints: Constraint[] = [];
    const actions: GoldAction[] = [];
    for (const c of draft.constraints) {
      const kind = synthesis.kinds.find((k) => k.name === c.kind);
      if (kind === undefined) return { rejected: `unknown constraint kind ${c.kind}` };
      const footprint = new Map<string, EntityRef>();
      for (const action of kind.goldActions({ ...c, footprint: [] })) {
        const call = episode.call(action.name, toPyValue(action.arguments));
        if (call.error) return { rejected: `gold action ${action.name} of ${c.id} failed: ${call.content}` };
        actions.push(action);
        for (const ref of call.changed) footprint.set(`${ref.collection}\u0000${ref.key}`, ref);
      }
      constraints.push({ ...c, footprint: [...footprint.values()] });
    }
    for (const c of constraints) {
      const kind = synthesis.kinds.find((k) => k.name === c.kind);
      const result = kind?.predicate(c, { final: episode, semantics, agentTexts: draft.communicate });
      if (result === undefined || !result.satisfied)
        return { rejected: `predicate of ${c.id} fails: ${result?.evidence}` };
    }
    rememberGoldState(base, goldKey(actions, semantics), episode);
    const text = JSON.stringify(draft.instructions);
    const leaked = draft.hiddenIds.find((id) => text.includes(id));
    if (leaked !== undefined) return { rejected: `task text mentions hidden id ${leaked}` };
    return { constraints, actions };
  } finally {
    episode.close();
  }
}

/** No consistent, solvable set of `k` constraints could be drawn for a task: the request exceeds what the DB holds. */
export class UnsatisfiableTaskError extends ConfigError {}

/** What a task index draws before its attempts: its Rng, difficulty and number of constraints. */
function taskPlan(
  synthesis: DomainSynthesis,
  options: SynthesisOptions,
  index: number,
): { rng: Rng; k: number; mix: TaskMix | undefined } {
  const rng = new Rng(deriveSeed(options.seed, 'task', index));
  const mix = taskMix(synthesis, options.mix);
  if (
    mix !== undefined &&
    options.k === undefined &&
    options.goals === undefined &&
    options.difficulty === 'mixed'
  ) {
    const ks = mix.kWeights.map((_, i) => i + 1);
    return { rng, k: rng.weighted(ks, mix.kWeights), mix };
  }
  const difficulty =
    options.difficulty === 'mixed' ? rng.pick(['easy', 'medium', 'hard'] as const) : options.difficulty;
  return { rng, k: options.goals ?? options.k ?? constraintCount(rng, difficulty), mix };
}

/**
 * The domain's task mix called `name` (`undefined` for `uniform` or no name).
 * @throws {ConfigError} when the domain has no such mix (the message lists those it has).
 */
export function taskMix(synthesis: DomainSynthesis, name: string | undefined): TaskMix | undefined {
  if (name === undefined || name === 'uniform') return undefined;
  const mix = synthesis.mixes?.[name];
  if (mix === undefined)
    throw new ConfigError(
      `--mix ${name}: this domain has the mixes ${['uniform', ...Object.keys(synthesis.mixes ?? {})].join(', ')}`,
    );
  return mix;
}

/** One draw of task `index`: the proven task, or why the draw was rejected. */
function attemptTask(
  synthesis: DomainSynthesis,
  base: EnvironmentBase,
  options: SynthesisOptions,
  index: number,
  plan: { rng: Rng; k: number; mix: TaskMix | undefined },
  attempt: number,
): CoveTask | { rejected: string } {
  const draft = synthesis.draw(plan.rng.child('attempt', attempt), base, {
    k: plan.k,
    fuzzLevel: options.fuzz,
    semantics: options.semantics,
    ...(plan.mix === undefined ? {} : { kindWeights: plan.mix.kindWeights }),
    ...(options.userId === undefined ? {} : { userId: options.userId }),
  });
  if ('rejected' in draft) return draft;
  const proof = proveSolvable(synthesis, base, draft, options.semantics);
  if ('rejected' in proof) return proof;
  return toTask(draft, proof, options, index, difficultyOf(plan.k));
}

function unsatisfiable(
  synthesis: DomainSynthesis,
  options: SynthesisOptions,
  index: number,
  k: number,
  reasons: Map<string, number>,
): UnsatisfiableTaskError {
  const top = [...reasons]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([r, n]) => `${r} (${n}×)`);
  const about = options.userId === undefined ? '' : ` about user ${options.userId}`;
  const more =
    options.userId === undefined
      ? (synthesis.scarcityHint ?? 'use a larger DB')
      : 'continue a conversation with a customer who has more to ask about';
  return new UnsatisfiableTaskError(
    `task ${index}: no valid draw of ${k} constraint${k === 1 ? '' : 's'}${about} in ${options.maxAttempts ?? 500} attempts ` +
      `(${top.join('; ')}); lower --k, --goals or --difficulty, or ${more}`,
  );
}

/**
 * Synthesizes task `index`: depends only on (seed, index) and the options, so raising `--n` keeps the earlier
 * tasks. Draws until a draft is proven solvable (every gold action succeeds on a copy and every predicate holds
 * on the final state); failing draws are never emitted. This is the draw without the null-policy check: `cove
 * tasks` and `cove generate` use {@link synthesizeVettedTask}, which returns the same task unless a null policy
 * collects reward on it.
 * @throws {UnsatisfiableTaskError} when `maxAttempts` draws all fail (the DB cannot support the requested tasks).
 */
export function synthesizeTask(
  synthesis: DomainSynthesis,
  base: EnvironmentBase,
  options: SynthesisOptions,
  index: number,
): CoveTask {
  const plan = taskPlan(synthesis, options, index);
  const reasons = new Map<string, number>();
  for (let attempt = 0; attempt < (options.maxAttempts ?? 500); attempt++) {
    const task = attemptTask(synthesis, base, options, index, plan, attempt);
    if (!('rejected' in task)) return task;
    reasons.set(task.rejected, (reasons.get(task.rejected) ?? 0) + 1);
  }
  throw unsatisfiable(synthesis, options, index, plan.k, reasons);
}

/** A task that passed the null-policy check, and the draws of its index rejected because a null policy collected reward. */
export interface VettedTask {
  readonly task: CoveTask;
  /** Rejected draws per null policy that collected reward on them (a draw both pass counts for both). */
  readonly nullPolicyRejections: Readonly<Record<NullPolicy, number>>;
  /** Draws rejected by the null-policy check (each counted once). */
  readonly rejectedDraws: number;
}

/**
 * {@link synthesizeTask} with the null-policy check of issue 23: each proven draft is also run against the
 * do-nothing and the read-only policy (`null-policy.ts`, real EpisodeSession, the task's evaluator); a draft on
 * which either collects any reward is rejected and the next attempt is drawn, exactly as a draft that fails its
 * proof. Same (seed, index) and options, same task.
 * @throws {UnsatisfiableTaskError} when `maxAttempts` draws all fail.
 */
export async function synthesizeVettedTask(
  domain: Domain,
  base: EnvironmentBase,
  options: SynthesisOptions,
  index: number,
): Promise<VettedTask> {
  const synthesis = domain.synthesis;
  if (synthesis === undefined) throw new ConfigError(`domain ${domain.name} cannot synthesize tasks`);
  const plan = taskPlan(synthesis, options, index);
  const reasons = new Map<string, number>();
  const byPolicy: Record<NullPolicy, number> = { do_nothing: 0, read_only: 0 };
  let rejectedDraws = 0;
  for (let attempt = 0; attempt < (options.maxAttempts ?? 500); attempt++) {
    const task = attemptTask(synthesis, base, options, index, plan, attempt);
    let why = 'rejected' in task ? task.rejected : undefined;
    if (!('rejected' in task)) {
      const passing = await nullPoliciesPassing(domain, base, task);
      if (passing.length === 0) return { task, nullPolicyRejections: byPolicy, rejectedDraws };
      rejectedDraws++;
      for (const p of passing) byPolicy[p.policy]++;
      why = `a null policy collects reward (${passing.map((p) => `${p.policy} ${p.reward}`).join(', ')})`;
    }
    reasons.set(why as string, (reasons.get(why as string) ?? 0) + 1);
  }
  throw unsatisfiable(synthesis, options, index, plan.k, reasons);
}

function toTask(
  draft: TaskDraft,
  proof: { constraints: Constraint[]; actions: GoldAction[] },
  options: SynthesisOptions,
  index: number,
  difficulty: Difficulty,
): CoveTask {
  const id = `${options.domain}-s${options.seed}-${index}`;
  const { constraints } = proof;
  return {
    id,
    description: {
      purpose: `cove-generated ${options.domain} task with ${constraints.length} constraint(s)`,
      relevant_policies: null,
      notes: `constraints: ${constraints.map((c) => c.kind).join(', ')}`,
    },
    user_scenario: { persona: draft.persona ?? null, instructions: draft.instructions },
    initial_state: null,
    evaluation_criteria: {
      actions: proof.actions.map((a, i) => ({
        action_id: `${id}_${i}`,
        requestor: 'assistant',
        name: a.name,
        arguments: { ...a.arguments },
        info: null,
        compare_args: null,
      })),
      env_assertions: null,
      communicate_info: [...draft.communicate],
      nl_assertions: null,
      reward_basis: ['DB', 'COMMUNICATE'],
    },
    cove: {
      constraints,
      fuzz:
        'hidden_ids' in draft.fuzz
          ? (draft.fuzz as CoveFuzz)
          : { ...draft.fuzz, hidden_ids: [...draft.hiddenIds] },
      db: options.db,
      semantics: options.semantics,
      difficulty,
      ...(options.goals === undefined ? {} : { goals: options.goals }),
      seed: options.seed,
      index,
      domain: options.domain,
      user_id: draft.userId,
      cove_version: options.coveVersion,
      references: { user: draft.userStrategy, constraints: draft.strategies },
      ...(draft.behaviour === undefined ? {} : { behaviour: draft.behaviour }),
    },
  };
}
