import type { Domain } from '../domains/domain.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import type { Semantics } from '../env/tool.js';
import { nullPolicyEvaluation } from '../tasks/null-policy.js';
import type { RunTask } from '../tasks/task.js';

/**
 * What a do-nothing agent (no tool call, one refusal, then the user stops) would get on a run's tasks
 * (`summary.json` → `baseline`, issue 23): computed by running that policy once per task through the real
 * episode loop and the task's own evaluator, not sampled. The target for generated tasks is 0 (synthesis rejects
 * any draft a null policy collects reward on); τ² tasks keep τ²'s grading, so the ones it passes are listed.
 */
export interface DoNothingBaseline {
  readonly policy: 'do_nothing';
  /** Tasks the baseline covers (the run's tasks that have at least one episode). */
  readonly tasks: number;
  /** Mean reward over the tasks whose reward could be computed. */
  readonly mean_reward: number;
  /** The same, per evaluator (`cove`: generated tasks, target 0; `tau2`: τ² tasks). */
  readonly by_evaluator: Record<string, { tasks: number; mean_reward: number }>;
  /** Tasks on which it gets a reward above 0. */
  readonly tasks_with_reward: number;
  /** Ids of the tasks it passes (reward exactly 1), flagged, never hidden. */
  readonly passed_task_ids: readonly string[];
  /** Tasks whose reward could not be computed (e.g. τ² NL assertions without a judge). */
  readonly not_evaluated: number;
}

const memo = new WeakMap<RunTask, Map<Semantics, Promise<number | null>>>();

/**
 * The do-nothing reward of one task under `semantics` (remembered per task object): CoVe's score for a task with
 * a `cove` block, τ²'s reward otherwise (`null` when a component cannot be evaluated).
 */
export function doNothingReward(
  domain: Domain,
  base: EnvironmentBase,
  task: RunTask,
  semantics: Semantics,
): Promise<number | null> {
  let bySemantics = memo.get(task);
  if (bySemantics === undefined) {
    bySemantics = new Map();
    memo.set(task, bySemantics);
  }
  let reward = bySemantics.get(semantics);
  if (reward === undefined) {
    reward = nullPolicyEvaluation(domain, base, task, 'do_nothing', semantics).then((e) => e.reward);
    bySemantics.set(semantics, reward);
  }
  return reward;
}

/** The {@link DoNothingBaseline} of `tasks` (in order; ids as given); `base` may differ per task (`--from`). */
export async function doNothingBaseline(
  domain: Domain,
  base: EnvironmentBase | ((task: RunTask) => EnvironmentBase),
  tasks: readonly RunTask[],
  semantics: Semantics,
): Promise<DoNothingBaseline> {
  const rewards: number[] = [];
  const byEvaluator: Record<string, { tasks: number; sum: number }> = {};
  const passed: string[] = [];
  let withReward = 0;
  let notEvaluated = 0;
  for (const task of tasks) {
    const reward = await doNothingReward(
      domain,
      typeof base === 'function' ? base(task) : base,
      task,
      semantics,
    );
    if (reward === null) {
      notEvaluated++;
      continue;
    }
    rewards.push(reward);
    const name = task.cove === undefined ? 'tau2' : 'cove';
    const g = byEvaluator[name] ?? { tasks: 0, sum: 0 };
    g.tasks++;
    g.sum += reward;
    byEvaluator[name] = g;
    if (reward > 0) withReward++;
    if (reward === 1) passed.push(task.id);
  }
  const mean = (sum: number, n: number) => (n === 0 ? 0 : Number((sum / n).toFixed(4)));
  return {
    policy: 'do_nothing',
    tasks: tasks.length,
    mean_reward: mean(
      rewards.reduce((a, b) => a + b, 0),
      rewards.length,
    ),
    by_evaluator: Object.fromEntries(
      Object.entries(byEvaluator).map(([k, g]) => [k, { tasks: g.tasks, mean_reward: mean(g.sum, g.tasks) }]),
    ),
    tasks_with_reward: withReward,
    passed_task_ids: passed,
    not_evaluated: notEvaluated,
  };
}
