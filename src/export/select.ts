import { RUBRIC_EVALUATOR } from '../eval/descriptive-verdict.js';
import { keptForSft, type TrajectoryRecord } from '../run/trajectory.js';

/**
 * A trajectory record as export reads it: `trajectories.jsonl`'s record, whose `evaluation` block is
 * `{evaluator, reward, report}` (for τ² tasks `report` holds τ²'s reward components, and `verification` is absent).
 */
export type ExportRecord = TrajectoryRecord;

/** What selects trajectories (`--min-score`, `--state-match`, `--domain`). */
export interface SelectOptions {
  /** Lowest CoVe score (or τ² reward, for τ²-evaluated records and τ² simulations) kept. @defaultValue 1 */
  readonly minScore: number;
  /** Require `stateMatch` of CoVe-verified records. @defaultValue true */
  readonly stateMatch: boolean;
  /** Keep only these domains (all when undefined). */
  readonly domains?: readonly string[] | undefined;
}

/** Why a trajectory was left out (counted in the dataset card). */
export type DropReason =
  | 'domain'
  | 'infrastructure_error'
  | 'score_below_min'
  | 'no_state_match'
  | 'tau2_reward_below_min'
  | 'invalid_tool_arguments'
  | 'unknown_tool_calls'
  | 'leak'
  | 'not_passed_by_judge'
  /** A model played the tool outputs (`--tool-outputs model`): nothing was verified. */
  | 'simulated_tools';

/** True when the record was graded by τ²'s evaluator (its `evaluation.evaluator` names τ²). */
export function tau2Evaluated(r: ExportRecord): boolean {
  return (
    r.verification === undefined || (r.evaluation !== undefined && /tau2|τ²/i.test(r.evaluation.evaluator))
  );
}

/**
 * Whether a record is exported, and why not. With the defaults this is exactly what `sft.jsonl` keeps
 * (`keptForSft`: CoVe score 1, `stateMatch`, no invalid or unknown tool call, no leak), except that a record graded
 * by τ²'s evaluator is kept on τ²'s reward (= 1) instead of CoVe's score and state match. Episodes lost to the
 * infrastructure are never kept; invalid or unknown tool calls and leaks never either, whatever the thresholds;
 * nor are records whose tool outputs a model played (`tool_outputs: model`: their verification means nothing).
 * A descriptive task's record (docs/descriptive-tasks.md) is kept exactly when `sft.jsonl` keeps it.
 */
export function dropReason(r: ExportRecord, o: SelectOptions): DropReason | undefined {
  if (o.domains !== undefined && !o.domains.includes(r.domain)) return 'domain';
  if (r.termination_reason === 'infrastructure_error') return 'infrastructure_error';
  if (r.invalid_tool_arguments > 0) return 'invalid_tool_arguments';
  if ((r.unknown_tool_calls ?? 0) > 0) return 'unknown_tool_calls';
  if (r.leaks > 0) return 'leak';
  if (r.tool_outputs === 'model') return 'simulated_tools';
  // a descriptive task's episode: exactly sft.jsonl's rule (a judge passed it, its deterministic checks pass)
  if (r.evaluation?.evaluator === RUBRIC_EVALUATOR) return keptForSft(r) ? undefined : 'not_passed_by_judge';
  if (tau2Evaluated(r))
    return (r.evaluation?.reward ?? 0) >= o.minScore ? undefined : 'tau2_reward_below_min';
  const v = r.verification as NonNullable<ExportRecord['verification']>;
  if (v.score < o.minScore) return 'score_below_min';
  if (o.stateMatch && !v.stateMatch) return 'no_state_match';
  return undefined;
}

/** The reward a kept record was selected on. */
export function selectedReward(r: ExportRecord): number {
  return tau2Evaluated(r) ? (r.evaluation?.reward ?? 0) : (r.verification?.score ?? 0);
}
