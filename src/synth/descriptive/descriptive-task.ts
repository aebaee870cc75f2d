import { z } from 'zod';
import { InputFileError } from '../../core/errors.js';
import { readInputText } from '../../io/read-input.js';
import {
  type DescriptiveDifficulty,
  type DescriptiveGoal,
  DIFFICULTIES,
  descriptiveGoalSchema,
} from '../../tasks/descriptive-block.js';
import type { RunTask } from '../../tasks/task.js';
import { readRecords, StageRecordError } from '../records.js';

/**
 * Descriptive tasks (docs/descriptive-tasks.md): a self-contained statement of what the user wants, per goal, with a
 * difficulty and a rubric, written by a model from a domain's schema and a limited view of its rows (the second
 * seed paper's user-oriented tasks, §4). Unlike constraint-built tasks they have no gold state: an episode on one
 * is checked by deterministic rules (tool-call validity, termination) and by the rubric judge, never by CoVe's
 * verifier.
 */

/** One line of a descriptive tasks file (the `tasks` stage's output). */
export const descriptiveTaskRecordSchema = z.strictObject({
  /** Always `descriptive`: `cove generate --tasks` tells these records from constraint-built tasks by it. */
  kind: z.literal('descriptive'),
  /** Content id (`dtask-…`): a hash of the record's other fields. */
  id: z.string().min(1),
  index: z.number().int().min(0),
  /** The domain's name (a SQL spec's `name`). */
  domain: z.string().min(1),
  /** Canonical hash of the database the task was written against (`cove generate` checks it). */
  db_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  difficulty: z.enum(DIFFICULTIES),
  /** How the user comes across (one sentence), given to a model-played user. */
  persona: z.string().optional(),
  goals: z.array(descriptiveGoalSchema).min(1).max(8),
  /** The version of the writer's prompt (the model, settings and usage are in the stage's summary.json). */
  prompt: z.string().optional(),
});
export type DescriptiveTaskRecord = z.output<typeof descriptiveTaskRecordSchema>;

/** The hardest of the goals' difficulties. */
export function hardest(goals: readonly DescriptiveGoal[]): DescriptiveDifficulty {
  const rank = Math.max(...goals.map((g) => DIFFICULTIES.indexOf(g.difficulty)));
  return DIFFICULTIES[Math.max(rank, 0)] as DescriptiveDifficulty;
}

/**
 * The user's instructions for a model-played user: the goals in order, as the user's own aims (the rubric is
 * the judge's, never shown to the user).
 */
export function descriptiveInstructions(goals: readonly DescriptiveGoal[]): string {
  const lines =
    goals.length === 1
      ? [`You want this done: ${goals[0]?.description}`]
      : [
          'You want these things done, in this order (bring them up one at a time):',
          ...goals.map((g, i) => `${i + 1}. ${g.description}`),
        ];
  lines.push(
    'You know only what is written here. Anything else (ids, current values) is for the agent to look up.',
  );
  return lines.join('\n');
}

/** A descriptive record as a run's task: the model-played user gets the goals; no `cove` block, no gold. */
export function descriptiveRunTask(record: DescriptiveTaskRecord): RunTask {
  return {
    id: record.id,
    user_scenario: { persona: record.persona ?? null, instructions: descriptiveInstructions(record.goals) },
    descriptive: { goals: record.goals, difficulty: record.difficulty, index: record.index },
  };
}

/**
 * True when `file`'s first line is a descriptive task record (`"kind": "descriptive"`); false for anything else,
 * an unreadable file included (its reader then reports the problem).
 */
export function isDescriptiveTasksFile(file: string): boolean {
  let text: string;
  try {
    text = readInputText(file);
  } catch {
    return false;
  }
  return looksDescriptive(text);
}

/** True when the first line of `text` is a descriptive task record (`"kind": "descriptive"`). */
export function looksDescriptive(text: string): boolean {
  const first = text.split('\n', 1)[0]?.trim() ?? '';
  if (!first.startsWith('{')) return false;
  try {
    return (JSON.parse(first) as { kind?: unknown }).kind === 'descriptive';
  } catch {
    return false;
  }
}

/**
 * Reads a descriptive tasks file (JSON Lines, the `tasks` stage's output). @throws {StageRecordError} naming the
 * file, the line and the field of the first bad record or a repeated id; InputFileError for an empty file.
 */
export function readDescriptiveTasks(file: string): DescriptiveTaskRecord[] {
  const read = readRecords('tasks', file, descriptiveTaskRecordSchema);
  const ids = new Set<string>();
  for (const { line, value } of read) {
    if (ids.has(value.id))
      throw new StageRecordError('tasks', file, line, '$.id', `task id ${value.id} appears twice`);
    ids.add(value.id);
  }
  if (read.length === 0) throw new InputFileError(file, '$', 'no tasks');
  return read.map((r) => r.value);
}
