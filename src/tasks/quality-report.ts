import type { CoveTask } from './cove-task.js';
import type { NullPolicy } from './null-policy.js';

/** The null-policy check of a synthesis run (issue 23): drafts a do-nothing or read-only policy passed were redrawn. */
export interface NullPolicyCounts {
  readonly policies: NullPolicy[];
  /** Tasks written, each of which both null policies score exactly 0 on. */
  tasks_checked: number;
  /** Proven drafts rejected because a null policy collected reward on them (then redrawn). */
  rejected_draws: number;
  /** The same drafts by policy (a draft both pass counts for both). */
  readonly rejected_by: Record<NullPolicy, number>;
}

/** The quality report of a synthesis run (`cove tasks`), written beside the tasks file. */
export interface QualityReport {
  readonly tasks: number;
  readonly by_kind: Record<string, number>;
  readonly by_k: Record<string, number>;
  readonly by_strategy: Record<string, number>;
  readonly by_difficulty: Record<string, number>;
  /** Fuzzy references that a re-check found ambiguous or wrong (must be 0). */
  readonly uniqueness_violations: number;
  /** Share of tasks whose gold actions all succeed and whose predicates all hold on a fresh replay (must be 1). */
  readonly solvability: number;
  /**
   * kind × k × strategy cells with at least one reference, out of all cells formed by each kind's strategies
   * (those seen with that kind anywhere in the run) and every k of the run.
   */
  readonly coverage: { readonly cells: number; readonly covered: number; readonly share: number };
  /** The null-policy check: tasks checked and drafts rejected (absent when the caller did not run it). */
  readonly null_policy?: NullPolicyCounts;
  readonly benchmark_data: boolean;
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * Builds the report from the tasks and two independent re-checks done by the caller: `violations` (references
 * that do not resolve uniquely) and `solved` (tasks proven solvable by a fresh replay).
 */
export function qualityReport(
  tasks: readonly CoveTask[],
  violations: number,
  solved: number,
  nullPolicy?: NullPolicyCounts,
): QualityReport {
  const byKind: Record<string, number> = {};
  const byK: Record<string, number> = {};
  const byStrategy: Record<string, number> = {};
  const byDifficulty: Record<string, number> = {};
  const cells = new Set<string>();
  const ks = new Set<number>();
  const strategiesByKind = new Map<string, Set<string>>();
  for (const task of tasks) {
    const { constraints, references, difficulty } = task.cove;
    const k = constraints.length;
    bump(byK, String(k));
    bump(byDifficulty, difficulty);
    bump(byStrategy, references.user);
    ks.add(k);
    constraints.forEach((c, i) => {
      bump(byKind, c.kind);
      const seen = strategiesByKind.get(c.kind) ?? new Set<string>();
      strategiesByKind.set(c.kind, seen);
      for (const s of references.constraints[i] ?? []) {
        bump(byStrategy, s);
        seen.add(s);
        cells.add(`${c.kind}|${k}|${s}`);
      }
    });
  }
  let total = 0;
  for (const seen of strategiesByKind.values()) total += seen.size * ks.size;
  return {
    tasks: tasks.length,
    by_kind: byKind,
    by_k: byK,
    by_strategy: byStrategy,
    by_difficulty: byDifficulty,
    uniqueness_violations: violations,
    solvability: tasks.length === 0 ? 1 : solved / tasks.length,
    coverage: { cells: total, covered: cells.size, share: total === 0 ? 0 : cells.size / total },
    ...(nullPolicy === undefined ? {} : { null_policy: nullPolicy }),
    benchmark_data: tasks.some((t) => 'benchmark' in t.cove.db && t.cove.db.benchmark),
  };
}
