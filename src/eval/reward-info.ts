import type { TrajectoryRecord } from '../run/trajectory.js';
import type { RunTask } from '../tasks/task.js';
import type { Tau2RewardInfo } from '../tau2/results-file.js';

/**
 * τ²'s `RewardInfo` (docs/tau2-notes.md; τ²'s `data_model/simulation.py`) for a record graded by τ²'s rules in
 * cove (`tau2Reward`, plus the judge's verdicts): `action_checks` carry the task's full gold actions, as τ²
 * writes them. τ²'s `reward` must be a number: a `null` reward (a component not evaluated) is written as 0 with
 * `info.reward_null = true` and the reasons in `info.not_evaluated`, so τ²'s tooling never counts it as a pass
 * and cove reads it back as `null`.
 */
export function tau2RewardInfo(record: TrajectoryRecord, task: RunTask): Tau2RewardInfo {
  const report = (record.evaluation?.report ?? {}) as Record<string, unknown>;
  const reward = record.evaluation?.reward ?? null;
  const checks = (report.action_checks ?? []) as { action_id: string; action_match: boolean }[];
  const actions = task.evaluation_criteria?.actions ?? [];
  const breakdown = Object.fromEntries(
    Object.entries((report.reward_breakdown ?? {}) as Record<string, number | null>).filter(
      ([, v]) => v !== null,
    ),
  );
  return {
    reward: reward ?? 0,
    db_check: (report.db_check ?? null) as Tau2RewardInfo['db_check'],
    env_assertions: [],
    action_checks:
      report.reward_basis === null || report.reward_basis === undefined
        ? null
        : actions.map((a, i) => ({
            action: { ...a, requestor: a.requestor ?? 'assistant' } as never,
            action_match: checks[i]?.action_match ?? false,
            action_reward: checks[i]?.action_match === true ? 1 : 0,
            tool_type: null,
          })),
    nl_assertions: (report.nl_assertions ?? null) as Tau2RewardInfo['nl_assertions'],
    communicate_checks:
      ((report.communicate_checks ?? null) as { info: string; met: boolean }[] | null)?.map((c) => ({
        ...c,
        justification: null,
      })) ?? null,
    reward_basis: (report.reward_basis ?? null) as Tau2RewardInfo['reward_basis'],
    reward_breakdown: report.reward_basis === null ? null : breakdown,
    info: {
      ...(reward === null ? { reward_null: true } : {}),
      not_evaluated: report.not_evaluated ?? [],
      ...(report.note === undefined ? {} : { note: report.note }),
      ...(report.task_set === undefined ? {} : { task_set: report.task_set }),
      ...(report.judge === undefined ? {} : { judge: report.judge }),
    },
  };
}
