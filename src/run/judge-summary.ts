import { type DescriptiveReport, RUBRIC_EVALUATOR } from '../eval/descriptive-verdict.js';
import type { TrajectoryRecord } from './trajectory.js';

/**
 * `summary.json` → `judge`: the verdicts on a run's descriptive tasks (docs/descriptive-tasks.md), present only
 * when the run has some. `passed` needs both the deterministic checks and the judge; `judge_passed_checks_failed`
 * counts the episodes a judge passed that a deterministic check kept out of sft.jsonl.
 */
export interface JudgeSummary {
  readonly episodes: number;
  readonly passed: number;
  readonly rejected_by_judge: number;
  readonly not_judged: number;
  readonly deterministic_failures: number;
  readonly judge_passed_checks_failed: number;
  /** Judge replies sent back as unusable (one per retry). */
  readonly retried_replies: number;
  /** Rubric items by the judge's class, over every decided judgment. */
  readonly item_classes: Record<string, number>;
  /** Tokens and cost of the judge's calls alone (also counted in the run's `usage`). */
  readonly usage: {
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly cost_usd: number;
  };
}

/** The judge section of `records` (graded episodes), or undefined when none is descriptive. */
export function judgeSummary(records: readonly TrajectoryRecord[]): JudgeSummary | undefined {
  const reports = records.flatMap((r) =>
    r.evaluation?.evaluator === RUBRIC_EVALUATOR ? [r.evaluation.report as unknown as DescriptiveReport] : [],
  );
  if (reports.length === 0) return undefined;
  const classes: Record<string, number> = {};
  const usage = { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 };
  let retried = 0;
  for (const r of reports) {
    for (const [k, v] of Object.entries(r.judge?.classes ?? {})) classes[k] = (classes[k] ?? 0) + v;
    usage.prompt_tokens += r.judge?.usage.prompt_tokens ?? 0;
    usage.completion_tokens += r.judge?.usage.completion_tokens ?? 0;
    usage.cost_usd += r.judge?.usage.cost_usd ?? 0;
    retried += r.judge?.retried_because?.length ?? 0;
  }
  return {
    episodes: reports.length,
    passed: reports.filter((r) => r.passed).length,
    rejected_by_judge: reports.filter((r) => r.judge?.passed === false).length,
    not_judged: reports.filter((r) => r.judge === null || r.judge.passed === null).length,
    deterministic_failures: reports.filter((r) => !r.checks.passed).length,
    judge_passed_checks_failed: reports.filter((r) => !r.checks.passed && r.judge?.passed === true).length,
    retried_replies: retried,
    item_classes: classes,
    usage: { ...usage, cost_usd: Number(usage.cost_usd.toFixed(6)) },
  };
}
