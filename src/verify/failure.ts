import type { Evaluation } from '../eval/evaluator.js';
import { IDENTICAL_CALL_RUN_LIMIT } from '../sim/call-key.js';
import type { ChatMessage } from '../sim/messages.js';
import type { EpisodeOutcome } from '../sim/run-episode.js';
import type { ConstraintKind } from '../tasks/constraint.js';
import type { Verification } from './verification.js';

/** Why an episode did not yield an SFT trajectory (summary.json's failure attribution). */
export type FailureCause =
  | 'infrastructure'
  | 'agent_error'
  | 'user_error'
  | 'tools_error'
  | 'too_many_errors'
  | 'max_steps'
  | 'repeated_tool_call'
  | 'invalid_tool_arguments'
  | 'unknown_tool'
  | 'leak'
  | 'user_stopped_early'
  | 'agent_never_wrote'
  | 'wrong_write'
  | 'redundant_write'
  | 'information_not_given'
  | 'ungrounded_refusal'
  | 'identical_call_run'
  | 'state_mismatch'
  | 'not_evaluated'
  | 'invalid_tool_call'
  | 'not_judged'
  | 'judge_rejected';

const ASKING = /(\(yes\/no\)|proceed|confirm|shall i|should i)/i;

function lastAgentText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'assistant' && m.content !== null && (m.tool_calls ?? []).length === 0) return m.content;
  }
  return '';
}

/**
 * The part of {@link attributeFailure} that needs no verdict: how the episode ended (errors, limits,
 * infrastructure), then invalid arguments, unknown tools, leaks and a run of identical calls. `undefined` when the
 * episode ended normally and cleanly. The only cause an episode whose tool outputs a model played can have (its
 * verdict means nothing: the state never changed).
 */
export function processFailure(
  outcome: Pick<EpisodeOutcome, 'termination'>,
  extra: { leaks: number; invalidToolArguments: number; unknownToolCalls: number; identicalCallRun?: number },
): FailureCause | undefined {
  switch (outcome.termination) {
    case 'infrastructure_error':
      return 'infrastructure';
    case 'agent_error':
    case 'user_error':
    case 'tools_error':
    case 'too_many_errors':
    case 'max_steps':
    case 'repeated_tool_call':
      return outcome.termination;
    default:
      break;
  }
  if (extra.invalidToolArguments > 0) return 'invalid_tool_arguments';
  if (extra.unknownToolCalls > 0) return 'unknown_tool';
  if (extra.leaks > 0) return 'leak';
  if ((extra.identicalCallRun ?? 0) >= IDENTICAL_CALL_RUN_LIMIT) return 'identical_call_run';
  return undefined;
}

/**
 * The most specific cause of a failed episode, or `undefined` when it passed. In order: the termination (errors,
 * limits, infrastructure), then invalid arguments, unknown tools, leaks and a run of identical calls (≥ 5, by
 * name and canonical arguments, when the guard was off), then the verdict. For CoVe's
 * verification: a write by a write tool of an unsatisfied constraint's kind on another entity is a `wrong_write`
 * (the right action on the wrong order, …); other writes outside the constraints are `redundant_write`; unmet
 * information constraints alone are `information_not_given`, refusals (or other grounded kinds) said without the
 * reads the policy requires `ungrounded_refusal`; a user who stopped while the agent was asking for
 * a confirmation, or before the agent did anything past its greeting, `user_stopped_early`. For a τ² evaluation:
 * a reward that could not be computed is `not_evaluated`, a failed DB check `state_mismatch`, an unmet
 * communicate check `information_not_given`. For a descriptive task's evaluation (`rubric_judge`): a failed
 * deterministic check (a call with arguments its tool's schema refuses, or no stop) is `invalid_tool_call`, no
 * judge or no usable judge reply `not_judged`, a rejection `judge_rejected`.
 */
export function attributeFailure(
  outcome: Pick<EpisodeOutcome, 'termination' | 'messages' | 'toolCalls'>,
  verdict: Verification | Evaluation,
  kinds: readonly ConstraintKind[],
  writeTools: ReadonlySet<string>,
  extra: { leaks: number; invalidToolArguments: number; unknownToolCalls: number; identicalCallRun?: number },
): FailureCause | undefined {
  const process = processFailure(outcome, extra);
  if (process !== undefined) return process;
  if ('evaluator' in verdict) return evaluationFailure(outcome, verdict, writeTools);
  const verification = verdict;
  if (verification.score === 1) return verification.stateMatch ? undefined : 'state_mismatch';
  const kindOf = (name: string) => kinds.find((k) => k.name === name);
  const unsatisfied = verification.constraints.filter((c) => !c.satisfied);
  const missedTools = new Set(unsatisfied.flatMap((c) => kindOf(c.kind)?.writeTools ?? []));
  if (verification.redundant.some((r) => r.reason === 'outside_footprint' && missedTools.has(r.tool)))
    return 'wrong_write';
  if (verification.redundant.length > 0) return 'redundant_write';
  if (unsatisfied.length > 0 && unsatisfied.every((c) => kindOf(c.kind)?.category === 'information'))
    return 'information_not_given';
  if (unsatisfied.length > 0 && unsatisfied.every((c) => c.evidence.includes('not grounded:')))
    return 'ungrounded_refusal';
  return stoppedOrWrong(outcome, writeTools);
}

function stoppedOrWrong(
  outcome: Pick<EpisodeOutcome, 'termination' | 'messages' | 'toolCalls'>,
  writeTools: ReadonlySet<string>,
): FailureCause {
  if (ASKING.test(lastAgentText(outcome.messages))) return 'user_stopped_early';
  const agentTurns = outcome.messages.filter((m) => m.role === 'assistant').length;
  if (outcome.termination === 'user_stop' && outcome.toolCalls.length === 0 && agentTurns <= 1)
    return 'user_stopped_early';
  const wrote = outcome.toolCalls.some((c) => writeTools.has(c.name) && !c.error);
  return wrote ? 'wrong_write' : 'agent_never_wrote';
}

/** The cause of a failed τ² evaluation (see {@link attributeFailure}). */
function evaluationFailure(
  outcome: Pick<EpisodeOutcome, 'termination' | 'messages' | 'toolCalls'>,
  evaluation: Evaluation,
  writeTools: ReadonlySet<string>,
): FailureCause | undefined {
  if (evaluation.evaluator === 'rubric_judge') {
    // a descriptive task (docs/descriptive-tasks.md): the deterministic checks first, then the judge
    const report = evaluation.report as { passed?: boolean; checks?: { passed?: boolean } };
    if (report.checks?.passed === false) return 'invalid_tool_call';
    if (report.passed === true && evaluation.reward === 1) return undefined;
    return evaluation.reward === null ? 'not_judged' : 'judge_rejected';
  }
  if (evaluation.reward === 1) return undefined;
  if (evaluation.reward === null) return 'not_evaluated';
  const breakdown = (evaluation.report.reward_breakdown ?? {}) as Record<string, number | null>;
  if (breakdown.DB === 0) return 'state_mismatch';
  if (breakdown.COMMUNICATE === 0) return 'information_not_given';
  return stoppedOrWrong(outcome, writeTools);
}
