import { ConfigError } from '../core/errors.js';
import type { Domain } from '../domains/domain.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import type { CoveTask } from './cove-task.js';
import { NULL_POLICIES } from './null-policy.js';
import { type NullPolicyCounts, type QualityReport, qualityReport } from './quality-report.js';
import { type SynthesisOptions, synthesizeVettedTask } from './sampler.js';
import { checkTaskSolvable, leakedIds } from './task-checks.js';

/** Tasks plus their quality report. */
export interface SynthesisResult {
  readonly tasks: CoveTask[];
  readonly report: QualityReport;
  /** Problems found by the re-checks (empty when the report shows 0 violations and 100 % solvability). */
  readonly problems: string[];
}

/**
 * Synthesizes tasks `0..n-1` (each vetted by the null-policy check: draws a do-nothing or read-only policy
 * collects reward on are redrawn and counted) and re-checks every one independently of how it was drawn:
 * references re-resolved (uniqueness), gold actions replayed and predicates evaluated (solvability), texts
 * scanned for hidden ids.
 * @throws {ConfigError} for a domain without synthesis; {@link UnsatisfiableTaskError} as the sampler.
 */
export async function synthesizeTasks(
  domain: Domain,
  base: EnvironmentBase,
  options: SynthesisOptions,
  n: number,
  onTask?: (done: number) => void,
): Promise<SynthesisResult> {
  const synthesis = domain.synthesis;
  if (synthesis === undefined) throw new ConfigError(`domain ${domain.name} cannot synthesize tasks`);
  const tasks: CoveTask[] = [];
  const problems: string[] = [];
  let violations = 0;
  let solved = 0;
  const nullPolicy: NullPolicyCounts = {
    policies: [...NULL_POLICIES],
    tasks_checked: 0,
    rejected_draws: 0,
    rejected_by: { do_nothing: 0, read_only: 0 },
  };
  for (let i = 0; i < n; i++) {
    const vetted = await synthesizeVettedTask(domain, base, options, i);
    const task = vetted.task;
    tasks.push(task);
    nullPolicy.tasks_checked++;
    nullPolicy.rejected_draws += vetted.rejectedDraws;
    for (const p of NULL_POLICIES) nullPolicy.rejected_by[p] += vetted.nullPolicyRejections[p];
    const refs = synthesis.recheck(base, task.cove.constraints, task.cove.fuzz, task.cove.semantics);
    const hidden = task.cove.fuzz.hidden_ids;
    const leaks = leakedIds(task, hidden).map((id) => `text mentions hidden id ${id}`);
    violations += refs.length + leaks.length;
    const unsolved = checkTaskSolvable(synthesis, base, task);
    if (unsolved.length === 0) solved++;
    for (const p of [...refs, ...leaks, ...unsolved]) problems.push(`${task.id}: ${p}`);
    onTask?.(i + 1);
  }
  return { tasks, report: qualityReport(tasks, violations, solved, nullPolicy), problems };
}
