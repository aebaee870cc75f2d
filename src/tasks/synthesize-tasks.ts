import type { EnvironmentBase } from '../env/environment-base.js';
import type { CoveTask } from './cove-task.js';
import { type QualityReport, qualityReport } from './quality-report.js';
import { type SynthesisOptions, synthesizeTask } from './sampler.js';
import type { DomainSynthesis } from './synthesis.js';
import { checkTaskSolvable, leakedIds } from './task-checks.js';

/** Tasks plus their quality report. */
export interface SynthesisResult {
  readonly tasks: CoveTask[];
  readonly report: QualityReport;
  /** Problems found by the re-checks (empty when the report shows 0 violations and 100 % solvability). */
  readonly problems: string[];
}

/**
 * Synthesizes tasks `0..n-1` and re-checks every one independently of how it was drawn: references re-resolved
 * (uniqueness), gold actions replayed and predicates evaluated (solvability), texts scanned for hidden ids.
 */
export function synthesizeTasks(
  synthesis: DomainSynthesis,
  base: EnvironmentBase,
  options: SynthesisOptions,
  n: number,
  onTask?: (done: number) => void,
): SynthesisResult {
  const tasks: CoveTask[] = [];
  const problems: string[] = [];
  let violations = 0;
  let solved = 0;
  for (let i = 0; i < n; i++) {
    const task = synthesizeTask(synthesis, base, options, i);
    tasks.push(task);
    const refs = synthesis.recheck(base, task.cove.constraints, task.cove.fuzz, task.cove.semantics);
    const hidden = task.cove.fuzz.hidden_ids;
    const leaks = leakedIds(task, hidden).map((id) => `text mentions hidden id ${id}`);
    violations += refs.length + leaks.length;
    const unsolved = checkTaskSolvable(synthesis, base, task);
    if (unsolved.length === 0) solved++;
    for (const p of [...refs, ...leaks, ...unsolved]) problems.push(`${task.id}: ${p}`);
    onTask?.(i + 1);
  }
  return { tasks, report: qualityReport(tasks, violations, solved), problems };
}
