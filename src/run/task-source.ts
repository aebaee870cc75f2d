import type { LoadedDb } from '../domains/load-db.js';
import type { Semantics } from '../env/tool.js';
import type { RunTask } from '../tasks/task.js';
import type { PrefixStates } from './prefix-states.js';
import type { TaskCheckpoint } from './task-checkpoint.js';

/** Where a run's tasks come from: synthesized on demand from a DB, or read from a file. */
export interface TaskSource {
  readonly loaded: LoadedDb;
  readonly sandboxText?: string;
  /** Identifies the source for the resume check (`sandbox:<seed>`, `db:<hash>`, `tasks:<hash>`). */
  readonly sourceId: string;
  /**
   * Tasks 0..n-1 (synthesizing more when asked, if the source allows), yielding to the event loop now and then
   * so that Ctrl-C and progress output get through; stops early when `shouldStop` says so. A synthesizing source
   * starts from `checkpoint.existing` (tasks made by an earlier invocation of the same run, checked to be tasks
   * 0..m-1 of these settings) and saves each new task to it as soon as it is made.
   */
  tasks(
    n: number,
    onTask?: (done: number) => void,
    shouldStop?: () => boolean,
    checkpoint?: TaskCheckpoint,
  ): Promise<RunTask[]>;
  /** Whether more tasks can be made than the file holds (`--target-sft`). */
  readonly open: boolean;
  /** The semantics the tasks were made under (a tasks file decides it). */
  readonly semantics: Semantics;
  /** False for τ²'s own tasks (no `cove` block): graded by τ²'s evaluator, played by models only. */
  readonly cove: boolean;
  /** tasks.json text for a tasks file that is copied as it is (τ² tasks). */
  readonly tasksText?: string;
  /** `--from`: the conversation prefixes replayed on {@link loaded}'s base (tasks name theirs in `cove.prefix`). */
  readonly prefixes?: PrefixStates;
}
