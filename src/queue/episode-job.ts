import type { OpenAiTool } from '../env/openai-tools.js';
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
 * A trajectory record as it travels back through the queue: `tools` (the agent's tool schemas, the same on every
 * record of a run and about half of a record's bytes) is left out as `null`, in its place, and put back by the
 * coordinator from the run's agent context (docs/distributed.md, "Jobs").
 */
export type ReturnedRecord = Omit<TrajectoryRecord, 'tools'> & { readonly tools: null };

/**
 * What a worker returns for a job: the trajectory record itself ({@link ReturnedRecord}) when the run has no store,
 * or only its id when the record went to PostgreSQL (the coordinator reads it from there).
 */
export type EpisodeJobResult =
  | { readonly stored: false; readonly record: ReturnedRecord }
  | { readonly stored: true; readonly id: string };

/** The record a worker returns: `tools` blanked in place (the key keeps its position, so the bytes come back). */
export function returnedRecord(record: TrajectoryRecord): ReturnedRecord {
  return { ...record, tools: null };
}

/**
 * The whole record from a returned one: `tools` put back in its place from the run's agent context. A record that
 * still carries its tools is kept as it is.
 */
export function restoredRecord(
  returned: ReturnedRecord | TrajectoryRecord,
  tools: readonly OpenAiTool[],
): TrajectoryRecord {
  return returned.tools === null ? { ...returned, tools } : returned;
}

/** The job name used for episodes. */
export const EPISODE_JOB = 'episode';

/** Tries per job (a worker failing on infrastructure: store down, a crash) before it is recorded as failed. */
export const JOB_TRIES = 5;
