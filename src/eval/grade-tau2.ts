import { isPyDict, type PyDict, type PyValue, pyEquals } from '../core/py-value.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import { replayCalls } from '../env/replay.js';
import { isCommunicated } from '../tasks/communicate.js';
import { explainDivergence } from './divergence-reason.js';
import { actionMatches } from './tau2-evaluator.js';
import { pyGet, type Tau2SimView } from './tau2-sim.js';

/**
 * Re-grading of τ² simulations without any model (the engine behind `cove grade`; docs/eval.md):
 * (a) every tool call replayed in order on a fresh episode and compared with the recorded tool message, the first
 * divergence explained by replaying against the known environment differences (`divergence-reason.ts`),
 * (b) the reward recomputed by τ²'s rules (τ²'s `evaluator/evaluator.py`, `EvaluationType.ALL`) from the messages,
 * NL assertions taken from the recorded verdicts, and compared with the recorded `reward_info`,
 * (c) simulations whose `reward_info` was computed for another task than their `task_id`.
 */

/** The first tool call whose replayed output or error flag differs from the recorded one. */
export interface Divergence {
  readonly simulation_id: string;
  readonly task_id: string;
  /** Position among the simulation's tool calls (0-based). */
  readonly call_index: number;
  readonly tool: string;
  readonly ours: { readonly content: string; readonly error: boolean };
  readonly theirs: { readonly content: string; readonly error: boolean };
  readonly reason: string;
}

/** A simulation whose reward or DB verdict differs from the recorded one, with the reason found. */
export interface Disagreement {
  readonly simulation_id: string;
  readonly task_id: string;
  readonly ours: number | null;
  readonly theirs: number | null;
  readonly reason: string;
}

/** A simulation graded with another task's criteria. */
export interface Mislabelled {
  readonly simulation_id: string;
  readonly task_id: string;
  readonly matches_task_id: string;
}

/** One simulation's re-grade. */
export interface SimulationGrade {
  readonly simulation_id: string;
  readonly task_id: string;
  readonly trial: number | null;
  readonly termination: string;
  readonly tool_calls: number;
  readonly tool_outputs_identical: number;
  readonly divergence: Divergence | null;
  /** Our reward (`null`: a basis component could not be evaluated, e.g. NL without recorded verdicts). */
  readonly reward: number | null;
  readonly recorded_reward: number | null;
  readonly db_match: boolean | null;
  readonly recorded_db_match: boolean | null;
  readonly agree_reward: boolean;
  readonly agree_db: boolean;
  readonly mislabelled: Mislabelled | null;
  readonly disagreement: Disagreement | null;
  /** Components that could not be evaluated. */
  readonly not_evaluated: readonly string[];
}

/** A task's evaluation criteria as read losslessly from a results or tasks file. */
export interface CriteriaTask {
  readonly id: string;
  readonly criteria: PyDict | null;
}

/** The tasks of a lossless task list (a results file's `tasks` or a tasks.json). */
export function criteriaTasks(list: PyValue | undefined): CriteriaTask[] {
  if (!Array.isArray(list)) return [];
  return list.map((t) => {
    const c = pyGet(t, 'evaluation_criteria');
    return { id: String(pyGet(t, 'id')), criteria: c !== undefined && isPyDict(c) ? c : null };
  });
}

const list = (v: PyValue | undefined): PyValue[] | null => (Array.isArray(v) ? v : null);

/** What the grader needs beside the simulation. */
export interface GradeContext {
  readonly base: EnvironmentBase;
  /** The tasks the file graded with (its own `tasks`), by id. */
  readonly tasks: ReadonlyMap<string, CriteriaTask>;
  /** Reference tasks (the τ² data directory's tasks.json) used to tell which task a `reward_info` belongs to. */
  readonly reference: readonly CriteriaTask[];
  /** The τ² commit that wrote the file (named in divergence reasons). */
  readonly gitCommit: string;
  /** NL verdicts from `--judge` by simulation id (reward 1/0, or null when the judge failed); else recorded ones. */
  readonly judged?: ReadonlyMap<string, { readonly reward: number | null; readonly error?: string }>;
  /** Gold end-state hashes by task id (filled as tasks are met). */
  readonly goldHashes: Map<string, string>;
}

function goldHash(ctx: GradeContext, task: CriteriaTask): string {
  const known = ctx.goldHashes.get(task.id);
  if (known !== undefined) return known;
  const actions = list(pyGet(task.criteria ?? undefined, 'actions')) ?? [];
  const { episode } = replayCalls(
    ctx.base,
    actions.map((a) => ({ name: String(pyGet(a, 'name')), arguments: pyGet(a, 'arguments') ?? new Map() })),
  );
  const hash = episode.hashes().db_hash;
  episode.close();
  ctx.goldHashes.set(task.id, hash);
  return hash;
}

/**
 * Re-grades one simulation (see the module comment).
 * NL assertions come from the recorded `reward_info.nl_assertions` verdicts; when NL_ASSERTION is in the basis
 * with assertions and no verdict is recorded, the reward is `null` (listed in `not_evaluated`).
 */
export function gradeSimulation(sim: Tau2SimView, ctx: GradeContext): SimulationGrade {
  // (a) replay
  const { episode, calls } = replayCalls(ctx.base, sim.calls);
  let identical = 0;
  let divergence: Divergence | null = null;
  sim.calls.forEach((r, i) => {
    const got = calls[i];
    const ours = { content: got?.content ?? '', error: got?.error ?? false };
    if (ours.content === r.content && ours.error === r.error) identical++;
    else if (divergence === null) {
      divergence = {
        simulation_id: sim.id,
        task_id: sim.taskId,
        call_index: i,
        tool: r.name,
        ours,
        theirs: { content: r.content, error: r.error },
        reason: explainDivergence(ctx.base, sim.calls, calls, i, ctx.gitCommit),
      };
    }
  });
  const endHash = episode.hashes().db_hash;
  episode.close();

  // (c) which task the recorded reward_info was computed for
  const ri = sim.rewardInfo;
  const recordedActions = list(pyGet(ri ?? undefined, 'action_checks'))?.map((c) => pyGet(c, 'action'));
  const recordedInfos = list(pyGet(ri ?? undefined, 'communicate_checks'))?.map(
    (c) => pyGet(c, 'info') ?? null,
  );
  let mislabelled: Mislabelled | null = null;
  if (recordedActions !== undefined) {
    const fits = (t: CriteriaTask) => {
      const actions = list(pyGet(t.criteria ?? undefined, 'actions')) ?? [];
      if (actions.length !== recordedActions.length) return false;
      if (
        !actions.every(
          (a, k) =>
            pyGet(a, 'name') === pyGet(recordedActions[k], 'name') &&
            pyEquals(pyGet(a, 'arguments') ?? null, pyGet(recordedActions[k], 'arguments') ?? null),
        )
      )
        return false;
      if (recordedInfos === undefined) return true;
      const infos = list(pyGet(t.criteria ?? undefined, 'communicate_info')) ?? [];
      return pyEquals(infos, recordedInfos);
    };
    const own = ctx.reference.find((t) => t.id === sim.taskId);
    if (own !== undefined && !fits(own)) {
      const other = ctx.reference.find((t) => t.id !== sim.taskId && fits(t));
      if (other !== undefined)
        mislabelled = { simulation_id: sim.id, task_id: sim.taskId, matches_task_id: other.id };
    }
  }

  // (b) reward by τ²'s rules, with the file's own task
  const task = ctx.tasks.get(sim.taskId) ?? { id: sim.taskId, criteria: null };
  const notEvaluated: string[] = [];
  let reward: number | null;
  let dbMatch: boolean | null = null;
  const parts: string[] = [];
  if (sim.termination !== 'user_stop' && sim.termination !== 'agent_stop') reward = 0;
  else if (task.criteria === null) reward = 1;
  else {
    const c = task.criteria;
    const basis = (list(pyGet(c, 'reward_basis')) ?? ['DB', 'COMMUNICATE']).map(String);
    const actions = list(pyGet(c, 'actions'));
    const envAssertions = list(pyGet(c, 'env_assertions'));
    dbMatch = actions === null && envAssertions === null ? true : goldHash(ctx, task) === endHash;
    const values: (number | null)[] = [];
    for (const component of basis) {
      if (component === 'DB') values.push(dbMatch ? 1 : 0);
      else if (component === 'ENV_ASSERTION') {
        if ((envAssertions ?? []).length === 0) values.push(1);
        else {
          values.push(null);
          notEvaluated.push('ENV_ASSERTION (env assertions are not supported by cove yet)');
        }
      } else if (component === 'ACTION') {
        const ok = (actions ?? []).every((a) =>
          sim.calls.some((call) =>
            isPyDict(call.arguments)
              ? actionMatches(
                  {
                    name: String(pyGet(a, 'name')),
                    arguments: pyGet(a, 'arguments') ?? null,
                    compare_args: (list(pyGet(a, 'compare_args')) as string[] | null) ?? null,
                  },
                  call.name,
                  call.arguments,
                )
              : false,
          ),
        );
        values.push(ok ? 1 : 0);
      } else if (component === 'COMMUNICATE') {
        const infos = (list(pyGet(c, 'communicate_info')) ?? []).map(String);
        const met = infos.map((info) => isCommunicated(info, sim.agentTexts));
        const theirs = list(pyGet(ri ?? undefined, 'communicate_checks')) ?? [];
        infos.forEach((info, k) => {
          const rec = theirs.find((t) => pyGet(t, 'info') === info);
          if (rec !== undefined && pyGet(rec, 'met') !== met[k]) {
            parts.push(
              `communicate '${info}': ours ${met[k] ? 'met' : 'not met'}, theirs ${pyGet(rec, 'met') ? 'met' : 'not met'}`,
            );
          }
        });
        values.push(met.every(Boolean) ? 1 : 0);
      } else if (component === 'NL_ASSERTION') {
        const assertions = list(pyGet(c, 'nl_assertions')) ?? [];
        const verdicts = list(pyGet(ri ?? undefined, 'nl_assertions'));
        const judged = ctx.judged?.get(sim.id);
        if (assertions.length === 0) values.push(1);
        else if (judged !== undefined) {
          values.push(judged.reward);
          if (judged.reward === null)
            notEvaluated.push(`NL_ASSERTION (judge: ${judged.error ?? 'no verdict'})`);
          else {
            const theirs = verdicts === null ? null : verdicts.every((v) => pyGet(v, 'met') === true) ? 1 : 0;
            if (theirs !== judged.reward)
              parts.push(
                `NL assertions: our judge ${judged.reward ? 'met' : 'not met'}, recorded ${theirs === null ? 'none' : theirs ? 'met' : 'not met'}`,
              );
          }
        } else if (verdicts === null) {
          values.push(null);
          notEvaluated.push('NL_ASSERTION (no recorded verdicts and no --judge)');
        } else values.push(verdicts.every((v) => pyGet(v, 'met') === true) ? 1 : 0); // [] passes, as in τ²
      }
    }
    reward = values.some((v) => v === null) ? null : values.reduce<number>((a, v) => a * (v as number), 1);
  }

  const recReward = pyGet(ri ?? undefined, 'reward');
  // cove writes a reward it could not evaluate as 0 with info.reward_null (τ²'s reward must be a number)
  const recordedNull = pyGet(pyGet(ri ?? undefined, 'info'), 'reward_null') === true;
  const recordedReward =
    (typeof recReward === 'number' || typeof recReward === 'bigint') && !recordedNull
      ? Number(recReward)
      : null;
  const recDb = pyGet(pyGet(ri ?? undefined, 'db_check'), 'db_match');
  const recordedDb = typeof recDb === 'boolean' ? recDb : null;
  const agreeReward =
    reward !== null && recordedReward !== null
      ? Math.abs(reward - recordedReward) <= 1e-6
      : reward === recordedReward;
  const agreeDb =
    recordedDb === null || dbMatch === null
      ? recordedDb === dbMatch || recordedDb === null
      : recordedDb === dbMatch;
  let disagreement: Disagreement | null = null;
  if (!agreeReward || !agreeDb) {
    const reasons: string[] = [];
    if (mislabelled !== null) {
      reasons.push(
        `mislabelled: the recorded reward_info was computed with task ${mislabelled.matches_task_id}'s criteria, not task ${sim.taskId}'s`,
      );
    }
    if (dbMatch !== recordedDb && recordedDb !== null) {
      reasons.push(
        `db_check: ours ${String(dbMatch)}, theirs ${String(recordedDb)}${divergence === null ? '' : ' (a tool output diverged: see the replay)'}`,
      );
    }
    reasons.push(...parts);
    if (reward === null) reasons.push(`not evaluated: ${notEvaluated.join('; ')}`);
    if (reasons.length === 0) reasons.push('unexplained: every component agrees but the product differs');
    disagreement = {
      simulation_id: sim.id,
      task_id: sim.taskId,
      ours: reward,
      theirs: recordedReward,
      reason: reasons.join('; '),
    };
  }
  return {
    simulation_id: sim.id,
    task_id: sim.taskId,
    trial: sim.trial,
    termination: sim.termination,
    tool_calls: sim.calls.length,
    tool_outputs_identical: identical,
    divergence,
    reward,
    recorded_reward: recordedReward,
    db_match: dbMatch,
    recorded_db_match: recordedDb,
    agree_reward: agreeReward,
    agree_db: agreeDb,
    mislabelled,
    disagreement,
    not_evaluated: notEvaluated,
  };
}
