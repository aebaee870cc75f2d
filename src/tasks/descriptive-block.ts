import { z } from 'zod';

/**
 * The goals of a descriptive task as a run carries them (`RunTask.descriptive`; docs/descriptive-tasks.md): each a
 * self-contained statement of what the user wants, with a difficulty and the rubric items a judge checks. Such a
 * task has no `cove` block and no gold state.
 */

export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type DescriptiveDifficulty = (typeof DIFFICULTIES)[number];

/** One goal of a session: what the user wants, how hard it is, and the rubric items a judge checks. */
export const descriptiveGoalSchema = z.strictObject({
  /** The user's goal in the user's terms; facts the writer could not see are phrased as things to look up. */
  description: z.string().trim().min(1),
  difficulty: z.enum(DIFFICULTIES),
  /** Checkable statements about a successful conversation (outcome, expected tool use, checkpoints). */
  rubric: z.array(z.string().trim().min(1)).min(1).max(12),
});
export type DescriptiveGoal = z.output<typeof descriptiveGoalSchema>;

/** What a task carries into a run (`RunTask.descriptive`) and the judge reads. */
export const descriptiveBlockSchema = z.strictObject({
  /** The session's goals, in the order the user brings them up (several give a high-density trajectory). */
  goals: z.array(descriptiveGoalSchema).min(1).max(8),
  /** The hardest goal's difficulty. */
  difficulty: z.enum(DIFFICULTIES),
  /** Position of the task in its file. */
  index: z.number().int().min(0),
});
export type DescriptiveBlock = z.output<typeof descriptiveBlockSchema>;
