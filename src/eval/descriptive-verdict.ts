import type { TrajectoryChecks } from '../verify/trajectory-checks.js';
import type { Evaluation } from './evaluator.js';
import type { RubricJudgment } from './rubric-judge.js';

/**
 * The verdict on an episode of a descriptive task (docs/descriptive-tasks.md): the deterministic checks AND the
 * rubric judge. Reward 1 only when the checks passed and a judge ran and passed; 0 when the checks failed (whatever
 * the judge said) or the judge rejected; `null` when the checks passed but no judge ran or the judge gave no
 * usable reply. There is no CoVe score: such a record has no `verification`.
 */

/** The evaluator name of descriptive tasks' evaluations. */
export const RUBRIC_EVALUATOR = 'rubric_judge';

/** `evaluation.report` of a descriptive episode. */
export interface DescriptiveReport {
  readonly descriptive: true;
  readonly checks: TrajectoryChecks;
  /** The judge's judgment; `null` when no judge was set (`--judge`). */
  readonly judge: RubricJudgment | null;
  readonly passed: boolean;
  /** Why it did not pass (or `passed`). */
  readonly reason: string;
}

/** Combines the checks and the judgment; a deterministic failure is never turned into a pass. */
export function descriptiveEvaluation(
  checks: TrajectoryChecks,
  judgment: RubricJudgment | null,
): Evaluation & { readonly report: DescriptiveReport } {
  let reward: number | null;
  let reason: string;
  if (!checks.passed) {
    reward = 0;
    reason = `deterministic check failed: ${checks.failures[0]}`;
  } else if (judgment === null) {
    reward = null;
    reason = 'not judged (no --judge)';
  } else if (judgment.passed === null) {
    reward = null;
    reason = `the judge gave no verdict: ${judgment.error ?? 'no usable reply'}`;
  } else if (!judgment.passed) {
    reward = 0;
    reason = `rejected by the judge: ${judgment.critical_failures?.[0] ?? judgment.unhandled_tool_errors?.[0] ?? `the judge said ${judgment.model_judgment}`}`;
  } else {
    reward = 1;
    reason = 'passed';
  }
  // the AND is restated so that no branch above can let a failed check through
  const passed = reward === 1 && checks.passed && judgment?.passed === true;
  return {
    evaluator: RUBRIC_EVALUATOR,
    reward: passed ? 1 : reward === null ? null : 0,
    report: { descriptive: true, checks, judge: judgment, passed, reason },
  };
}

/** True when an evaluation is a descriptive one that passed both the checks and the judge. */
export function descriptivePassed(evaluation: Evaluation | undefined): boolean {
  if (evaluation?.evaluator !== RUBRIC_EVALUATOR) return false;
  const report = evaluation.report as Partial<DescriptiveReport>;
  return (
    evaluation.reward === 1 &&
    report.passed === true &&
    report.checks?.passed === true &&
    report.judge?.passed === true
  );
}
