import type { Domain } from '../domains/domain.js';
import type { Evaluation, EvaluationInput, Evaluator } from '../eval/evaluator.js';
import type { CoveTask } from '../tasks/cove-task.js';
import { type Verification, verifyTrajectory } from './verification.js';

/** The CoVe evaluator's verdict: the evaluation plus the full {@link Verification} (kept on the record as is). */
export interface CoveEvaluation extends Evaluation {
  readonly evaluator: 'cove';
  readonly verification: Verification;
}

/** An {@link Evaluator} whose verdicts carry the full verification. */
export interface CoveEvaluator extends Evaluator {
  evaluate(input: EvaluationInput): CoveEvaluation;
}

/**
 * CoVe's deterministic verifier as an {@link Evaluator} (docs/design.md §5): reward = `verification.score`; the
 * report is a compact summary (the per-constraint evidence lives in the record's `verification`). Applies only
 * to tasks with a `cove` block.
 * @throws {Error} for a domain without synthesis (it has no constraint kinds), or a task without a `cove` block.
 */
export function coveEvaluator(domain: Domain, options: { gamma?: number } = {}): CoveEvaluator {
  const synthesis = domain.synthesis;
  if (synthesis === undefined)
    throw new Error(`domain ${domain.name} has no constraint kinds to verify with`);
  return {
    name: 'cove',
    evaluate(input: EvaluationInput): CoveEvaluation {
      if (input.task.cove === undefined) throw new Error(`task ${input.task.id} has no cove block`);
      const verification = verifyTrajectory({
        synthesis,
        tools: domain.tools,
        task: input.task as CoveTask,
        final: input.env,
        messages: input.outcome.messages,
        toolCalls: input.outcome.toolCalls,
        termination: input.outcome.termination,
        ...(options.gamma === undefined ? {} : { gamma: options.gamma }),
      });
      return {
        evaluator: 'cove',
        reward: verification.score,
        report: {
          satisfied: verification.constraints.filter((c) => c.satisfied).length,
          constraints: verification.constraints.length,
          redundant: verification.redundant.length,
          state_match: verification.stateMatch,
          termination_ok: verification.terminationOk,
          tau2_reward: verification.tau2Reward,
        },
        verification,
      };
    },
  };
}
