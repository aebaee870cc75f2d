import { ConfigError } from '../core/errors.js';
import { toPyValue } from '../core/py-value.js';
import { deriveSeed, Rng } from '../core/rng.js';
import type { EntityRef } from '../env/change-tracking.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import { goldKey, rememberGoldState } from '../env/gold-state.js';
import type { Semantics } from '../env/tool.js';
import type { Constraint, GoldAction } from './constraint.js';
import type { CoveFuzz, CoveTask, Difficulty, TaskDbSource } from './cove-task.js';
import type { DomainSynthesis, FuzzLevel, TaskDraft } from './synthesis.js';

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
  readonly db: TaskDbSource;
  readonly coveVersion: string;
  /** Draws tried per task before giving up. @defaultValue 500 */
  readonly maxAttempts?: number;
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

/**
 * Synthesizes task `index`: depends only on (seed, index) and the options, so raising `--n` keeps the earlier
 * tasks. Draws until a draft is proven solvable (every gold action succeeds on a copy and every predicate holds
 * on the final state); failing draws are never emitted.
 * @throws {UnsatisfiableTaskError} when `maxAttempts` draws all fail (the DB cannot support the requested tasks).
 */
export function synthesizeTask(
  synthesis: DomainSynthesis,
  base: EnvironmentBase,
  options: SynthesisOptions,
  index: number,
): CoveTask {
  const rng = new Rng(deriveSeed(options.seed, 'task', index));
  const difficulty =
    options.difficulty === 'mixed' ? rng.pick(['easy', 'medium', 'hard'] as const) : options.difficulty;
  const k = options.k ?? constraintCount(rng, difficulty);
  const reasons = new Map<string, number>();
  for (let attempt = 0; attempt < (options.maxAttempts ?? 500); attempt++) {
    const draft = synthesis.draw(rng.child('attempt', attempt), base, {
      k,
      fuzzLevel: options.fuzz,
      semantics: options.semantics,
    });
    const proof = 'rejected' in draft ? draft : proveSolvable(synthesis, base, draft, options.semantics);
    if ('rejected' in proof || 'rejected' in draft) {
      const why = 'rejected' in proof ? proof.rejected : 'rejected';
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
      continue;
    }
    return toTask(draft, proof, options, index, difficultyOf(k));
  }
  const top = [...reasons]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([r, n]) => `${r} (${n}×)`);
  throw new UnsatisfiableTaskError(
    `task ${index}: no valid draw of ${k} constraint${k === 1 ? '' : 's'} in ${options.maxAttempts ?? 500} attempts ` +
      `(${top.join('; ')}); lower --k or --difficulty, or use a DB with more orders per user`,
  );
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
    user_scenario: { persona: null, instructions: draft.instructions },
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
      seed: options.seed,
      index,
      domain: options.domain,
      user_id: draft.userId,
      cove_version: options.coveVersion,
      references: { user: draft.userStrategy, constraints: draft.strategies },
    },
  };
}
