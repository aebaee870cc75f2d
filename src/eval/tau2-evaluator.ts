import { JsonSyntaxError, parsePyJson } from '../core/py-json-parse.js';
import { type PyDict, type PyValue, pyEquals } from '../core/py-value.js';
import type { Episode } from '../env/episode.js';
import { goldKey, goldState, matchesGold } from '../env/gold-state.js';
import type { Semantics } from '../env/tool.js';
import type { ExecutedToolCall, TerminationReason } from '../sim/episode-session.js';
import { agentTexts, type ChatMessage } from '../sim/messages.js';
import { isCommunicated } from '../tasks/communicate.js';
import { goldCalls, type RewardBasis, type RunTask } from '../tasks/task.js';
import type { Evaluation, EvaluationInput, Evaluator } from './evaluator.js';

/** τ²'s default reward basis when a task gives none. */
export const DEFAULT_REWARD_BASIS: readonly RewardBasis[] = ['DB', 'COMMUNICATE'];

/** A basis component that could not be evaluated, and why (its presence makes the reward `null`). */
export interface NotEvaluated {
  readonly component: RewardBasis;
  readonly reason: string;
}

/** The τ² evaluator's report, named after τ²'s `RewardInfo` fields (τ²'s `evaluator/evaluator.py`). */
export interface Tau2Report {
  readonly reward: number | null;
  readonly reward_basis: readonly RewardBasis[] | null;
  readonly db_check: { readonly db_match: boolean; readonly db_reward: number } | null;
  readonly action_checks:
    | readonly { readonly action_id: string; readonly name: string; readonly action_match: boolean }[]
    | null;
  readonly communicate_checks: readonly { readonly info: string; readonly met: boolean }[] | null;
  readonly reward_breakdown: Readonly<Partial<Record<RewardBasis, number | null>>> | null;
  readonly not_evaluated: readonly NotEvaluated[];
  readonly note?: string;
}

/** What {@link tau2Reward} needs. */
export interface Tau2RewardInput {
  readonly task: RunTask;
  readonly messages: readonly ChatMessage[];
  readonly toolCalls: readonly ExecutedToolCall[];
  readonly termination: TerminationReason;
  /** The episode's final state (still open). */
  readonly env: Episode;
  /** Tool semantics of the gold replay. @defaultValue the episode's */
  readonly semantics?: Semantics;
  /** The DB check's verdict when the caller already knows it (the CoVe verifier's `stateMatch`). */
  readonly dbMatch?: boolean;
}

function parsedArguments(call: ExecutedToolCall): PyDict | undefined {
  if (!call.argumentsValid) return undefined;
  try {
    const value = parsePyJson(call.arguments);
    return value instanceof Map ? value : undefined;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return undefined;
    throw e;
  }
}

/**
 * τ²'s `Action.compare_with_tool_call` (τ²'s `ActionEvaluator`): same name, and the arguments equal (Python `==`)
 * on `compare_args`, or on the call's own argument keys when `compare_args` is null; no keys → a match.
 */
export function actionMatches(
  action: {
    readonly name: string;
    readonly arguments: PyValue;
    readonly compare_args?: readonly string[] | null;
  },
  name: string,
  args: PyDict,
): boolean {
  if (action.name !== name) return false;
  const keys = action.compare_args ?? [...args.keys()];
  if (keys.length === 0) return true;
  const gold = action.arguments instanceof Map ? action.arguments : new Map<string, PyValue>();
  const pick = (d: PyDict) => new Map([...d].filter(([k]) => keys.includes(k)));
  return pyEquals(pick(args), pick(gold));
}

/**
 * τ²'s reward for an episode (τ²'s `evaluator/evaluator.py`, `EvaluationType.ALL`): 0 unless the episode ended by a user or
 * agent stop; 1 when the task has no evaluation criteria; otherwise the product over the task's reward basis of
 * DB (gold actions replayed with errors left as τ² leaves them, compared with the final state), ENV_ASSERTION,
 * ACTION (`compare_with_tool_call`), COMMUNICATE (comma-stripped, case-insensitive substring) and NL_ASSERTION.
 * A component that cannot be evaluated here — NL assertions without a judge, env assertions, an `initial_state`
 * — makes the reward `null` and is listed in `not_evaluated`; it is never counted as a pass. Empty or null
 * `nl_assertions` give 1, as in τ².
 */
export function tau2Reward(input: Tau2RewardInput): Tau2Report {
  const { task } = input;
  if (input.termination !== 'user_stop' && input.termination !== 'agent_stop') {
    return {
      reward: 0,
      reward_basis: null,
      db_check: null,
      action_checks: null,
      communicate_checks: null,
      reward_breakdown: null,
      not_evaluated: [],
      note: `the episode ended with ${input.termination}, not a user or agent stop: reward 0 without checks`,
    };
  }
  const criteria = task.evaluation_criteria;
  if (criteria === undefined || criteria === null) {
    return {
      reward: 1,
      reward_basis: null,
      db_check: null,
      action_checks: null,
      communicate_checks: null,
      reward_breakdown: null,
      not_evaluated: [],
      note: 'no evaluation criteria',
    };
  }
  const basis = criteria.reward_basis ?? DEFAULT_REWARD_BASIS;
  const notEvaluated: NotEvaluated[] = [];
  const hasInitialState = task.initial_state !== undefined && task.initial_state !== null;

  // DB
  let dbMatch: boolean | undefined;
  if ((criteria.actions ?? null) === null && (criteria.env_assertions ?? null) === null) dbMatch = true;
  else if (input.dbMatch !== undefined) dbMatch = input.dbMatch;
  else if (!hasInitialState) {
    const semantics = input.semantics ?? input.env.semantics;
    const calls = goldCalls(task);
    dbMatch = matchesGold(input.env, goldState(input.env.base, goldKey(calls, semantics), calls, semantics));
  }
  if (dbMatch === undefined && basis.includes('DB')) {
    notEvaluated.push({ component: 'DB', reason: 'tasks with an initial_state are not supported yet' });
  }

  // ACTION (diagnostic unless in the basis)
  const calls = input.toolCalls.map((c) => ({ name: c.name, args: parsedArguments(c) }));
  const gold = goldCalls(task);
  const actionChecks = (criteria.actions ?? []).map((a, i) => {
    const action = {
      name: a.name,
      arguments: gold[i]?.arguments ?? null,
      compare_args: a.compare_args ?? null,
    };
    const match = calls.some((c) => c.args !== undefined && actionMatches(action, c.name, c.args));
    return { action_id: a.action_id, name: a.name, action_match: match };
  });

  // COMMUNICATE
  const texts = agentTexts(input.messages.filter((m) => m.cove_prefix !== true)); // not a `--from` prefix
  const communicateChecks = (criteria.communicate_info ?? []).map((info) => ({
    info,
    met: isCommunicated(info, texts),
  }));

  const breakdown: Partial<Record<RewardBasis, number | null>> = {};
  for (const component of basis) {
    switch (component) {
      case 'DB':
        breakdown.DB = dbMatch === undefined ? null : dbMatch ? 1 : 0;
        break;
      case 'ENV_ASSERTION':
        if ((criteria.env_assertions ?? []).length === 0) breakdown.ENV_ASSERTION = 1;
        else {
          breakdown.ENV_ASSERTION = null;
          notEvaluated.push({ component, reason: 'env assertions are not supported by cove yet' });
        }
        break;
      case 'ACTION':
        breakdown.ACTION = actionChecks.every((c) => c.action_match) ? 1 : 0;
        break;
      case 'COMMUNICATE':
        breakdown.COMMUNICATE = communicateChecks.every((c) => c.met) ? 1 : 0;
        break;
      case 'NL_ASSERTION':
        if ((criteria.nl_assertions ?? []).length === 0) breakdown.NL_ASSERTION = 1;
        else {
          breakdown.NL_ASSERTION = null;
          notEvaluated.push({ component, reason: 'NL assertions need a judge model, and none was given' });
        }
        break;
    }
  }
  const values = Object.values(breakdown);
  const reward = values.some((v) => v === null)
    ? null
    : values.reduce<number>((a, v) => a * (v as number), 1);
  return {
    reward,
    reward_basis: basis,
    db_check: dbMatch === undefined ? null : { db_match: dbMatch, db_reward: dbMatch ? 1 : 0 },
    action_checks: actionChecks,
    communicate_checks: communicateChecks,
    reward_breakdown: breakdown,
    not_evaluated: notEvaluated,
  };
}

/** τ²'s evaluator as an {@link Evaluator}: the reward is {@link tau2Reward}'s, the report its `RewardInfo`-like fields. */
export const tau2Evaluator: Evaluator = {
  name: 'tau2',
  evaluate(input: EvaluationInput): Evaluation {
    const report = tau2Reward({
      task: input.task,
      messages: input.outcome.messages,
      toolCalls: input.outcome.toolCalls,
      termination: input.outcome.termination,
      env: input.env,
    });
    return { evaluator: 'tau2', reward: report.reward, report: { ...report } };
  },
};
