import { fromPyValue, type PyValue, toPyValue } from '../core/py-value.js';
import type { ReplayCall } from '../env/replay.js';
import type { CoveBlock } from './cove-task.js';
import type { DescriptiveBlock } from './descriptive-block.js';
import type { LoadedTask, REWARD_BASIS, Tau2Instructions } from './tau2-task.js';

/** One of τ²'s reward-basis components (τ²'s `data_model/tasks.py` and evaluator). */
export type RewardBasis = (typeof REWARD_BASIS)[number];

/** A gold action of a task (τ²'s `Action`). */
export interface TaskAction {
  readonly action_id: string;
  readonly requestor?: 'assistant' | 'user';
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly info?: string | null;
  readonly compare_args?: readonly string[] | null;
}

/** τ²'s `EvaluationCriteria`: what the evaluator checks and which components make the reward. */
export interface EvaluationCriteria {
  readonly actions?: readonly TaskAction[] | null;
  readonly env_assertions?: readonly unknown[] | null;
  readonly communicate_info?: readonly string[] | null;
  readonly nl_assertions?: readonly string[] | null;
  /** @defaultValue `['DB', 'COMMUNICATE']` (τ²'s default when absent) */
  readonly reward_basis?: readonly RewardBasis[];
}

/**
 * A task as a run sees it: τ²'s task fields (loadable by τ²), and, for tasks made by cove, the `cove` block with
 * the constraints. τ² benchmark tasks have no `cove` block: they are graded by τ²'s evaluator and need a
 * model-played agent and user.
 */
export interface RunTask {
  readonly id: string;
  readonly user_scenario: {
    readonly persona?: string | null;
    readonly instructions: Tau2Instructions | string;
  };
  readonly initial_state?: unknown;
  readonly evaluation_criteria?: EvaluationCriteria | null;
  readonly cove?: CoveBlock;
  /** For descriptive tasks (no `cove` block): the goals and rubrics; judged, never CoVe-scored. */
  readonly descriptive?: DescriptiveBlock;
}

/** Lossless gold calls of tasks read from τ² files (ints and floats kept apart, as Python sees them). */
const losslessGold = new WeakMap<RunTask, readonly ReplayCall[]>();

/** A τ² task read from a file as a {@link RunTask}; its gold actions keep their exact argument values. */
export function runTaskFromTau2(loaded: LoadedTask): RunTask {
  const task = fromPyValue(loaded.raw) as RunTask;
  const actions = loaded.task.evaluation_criteria?.actions ?? [];
  losslessGold.set(
    task,
    actions.map((a) => ({ name: a.name, arguments: a.arguments as PyValue })),
  );
  return task;
}

/** The task's gold actions as replayable calls, in order (empty when it has none). */
export function goldCalls(task: RunTask): readonly ReplayCall[] {
  const known = losslessGold.get(task);
  if (known !== undefined) return known;
  return (task.evaluation_criteria?.actions ?? []).map((a) => ({
    name: a.name,
    arguments: toPyValue(a.arguments),
  }));
}

/** The task's position in its run: its `cove.index` when made by cove, else its position in the task list. */
export function taskIndex(task: RunTask, position: number): number {
  return task.cove?.index ?? position;
}
