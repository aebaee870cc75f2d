import type { Episode } from '../env/episode.js';
import type { EpisodeOutcome } from '../sim/episode-session.js';
import type { RunTask } from '../tasks/task.js';

/**
 * An evaluator's verdict on one episode, recorded on every trajectory as `evaluation` (docs/design.md §10):
 * `reward` is in [0, 1], or `null` when a component the task asks for could not be evaluated (never counted as a
 * pass); `report` holds the evaluator's evidence.
 */
export interface Evaluation {
  /** `cove` (CoVe's constraint verifier) or `tau2` (τ²'s reward rules). */
  readonly evaluator: string;
  readonly reward: number | null;
  readonly report: Readonly<Record<string, unknown>>;
}

/** What an evaluator looks at: the task, what the episode produced, and its final state (still open). */
export interface EvaluationInput {
  readonly task: RunTask;
  readonly outcome: Pick<EpisodeOutcome, 'messages' | 'toolCalls' | 'termination'>;
  readonly env: Episode;
}

/** Grades episodes of the tasks it applies to; chosen per task (see `run/evaluators.ts`). */
export interface Evaluator {
  readonly name: string;
  /** May be asynchronous (a judge model); synchronous evaluators return the value directly. */
  evaluate(input: EvaluationInput): Evaluation | Promise<Evaluation>;
}
