import type { TrajectoryRecord } from '../run/trajectory.js';
import type { RunTask } from '../tasks/task.js';

/** The data of one episode's job: the task itself travels with it (so `--target-sft` can add tasks at any time). */
export interface EpisodeJobData {
  readonly task: RunTask;
  /** The task's index in the run (its `cove.index`, or its position). */
  readonly index: number;
  readonly trial: number;
  readonly attempt: number;
}

/**
 * What a worker returns for a job: the trajectory record itself when the run has no store, or only its id when
 * the record went to PostgreSQL (the coordinator reads it from there).
 */
export type EpisodeJobResult =
  | { readonly stored: false; readonly record: TrajectoryRecord }
  | { readonly stored: true; readonly id: string };

/** The job name used for episodes. */
export const EPISODE_JOB = 'episode';

/** Tries per job (a worker failing on infrastructure: store down, a crash) before it is recorded as failed. */
export const JOB_TRIES = 5;
