import { z } from 'zod';
import type { OpenAiTool } from '../../env/openai-tools.js';
import { descriptiveEvaluation } from '../../eval/descriptive-verdict.js';
import { judgeWith } from '../../eval/rubric-judge.js';
import type { ChatMessage } from '../../sim/messages.js';
import type { TerminationReason } from '../../sim/run-episode.js';
import { type DescriptiveGoal, descriptiveGoalSchema } from '../../tasks/descriptive-block.js';
import { attributeFailure } from '../../verify/failure.js';
import { checkTrajectory } from '../../verify/trajectory-checks.js';
import { readDescriptiveTasks } from '../descriptive/descriptive-task.js';
import type { Stage } from '../stage.js';

/**
 * The `judge` stage (docs/descriptive-tasks.md): the rubric judge over saved trajectories (lines of a run's
 * `trajectories.jsonl`, or any records with `messages`, `tools` and `termination_reason`). The goals come from the
 * record's own `goals`, else from the descriptive task of its `task_id` in `--tasks`. Each output record is the
 * input record with `evaluation` replaced by the verdict (deterministic checks AND the judge, raw replies kept)
 * and `failure` attributed again; its id is the trajectory's.
 */

const settingsSchema = z.object({
  /** Descriptive tasks file (`cove synth tasks`) whose goals the records' `task_id`s name. */
  tasks: z.string().min(1).optional(),
  /** Unusable judge replies sent back for another try. */
  json_retries: z.coerce.number().int().min(0).max(10).default(2),
});
type JudgeSettings = z.output<typeof settingsSchema>;

const trajectorySchema = z.looseObject({
  id: z.string().min(1),
  task_id: z.string().min(1).optional(),
  goals: z.array(descriptiveGoalSchema).min(1).optional(),
  messages: z.array(z.looseObject({ role: z.enum(['system', 'user', 'assistant', 'tool']) })),
  tools: z.array(
    z.looseObject({
      type: z.literal('function'),
      function: z.looseObject({
        name: z.string(),
        description: z.string().default(''),
        parameters: z.record(z.string(), z.unknown()),
      }),
    }),
  ),
  termination_reason: z.string().min(1),
});
type TrajectoryInput = z.output<typeof trajectorySchema>;

const judgedSchema = z.looseObject({
  id: z.string().min(1),
  evaluation: z.looseObject({ evaluator: z.string(), reward: z.number().nullable() }),
});
type JudgedRecord = z.output<typeof judgedSchema>;

const goalsByTask = new Map<string, Map<string, readonly DescriptiveGoal[]>>();
function taskGoals(file: string): Map<string, readonly DescriptiveGoal[]> {
  let goals = goalsByTask.get(file);
  if (goals === undefined) {
    goals = new Map(readDescriptiveTasks(file).map((t) => [t.id, t.goals]));
    goalsByTask.set(file, goals);
  }
  return goals;
}

export const judgeStage: Stage<TrajectoryInput, JudgedRecord> = {
  name: 'judge',
  description: 'judge saved trajectories of descriptive tasks by their rubrics (critical failures reject)',
  role: 'judge',
  pathSettings: ['tasks'],
  flags: [
    {
      flag: '--tasks <tasks.jsonl>',
      setting: 'tasks',
      description: 'descriptive tasks whose goals the records’ task_id name (when records carry no goals)',
    },
  ],
  input: trajectorySchema,
  output: judgedSchema,
  settings: settingsSchema as unknown as z.ZodType<Record<string, unknown>>,
  units: (records) => records.map((r) => ({ key: r.id, label: r.task_id ?? r.id, records: [r] })),
  async run(unit, ctx) {
    const settings = ctx.settings as JudgeSettings;
    const record = unit.records[0] as TrajectoryInput;
    const goals =
      record.goals ??
      (settings.tasks === undefined || record.task_id === undefined
        ? undefined
        : taskGoals(settings.tasks).get(record.task_id));
    if (goals === undefined) {
      throw new Error(
        `record ${record.id}: no goals to judge by: the record has no "goals" and ${settings.tasks === undefined ? 'no --tasks was given' : `task ${record.task_id ?? '(no task_id)'} is not in ${settings.tasks}`}`,
      );
    }
    const messages = record.messages as unknown as ChatMessage[];
    const tools = record.tools as unknown as OpenAiTool[];
    const checks = checkTrajectory({ messages, tools, termination: record.termination_reason });
    const judgment = await judgeWith(
      (m) => ctx.chat(m),
      undefined,
      { taskId: unit.label, goals, tools, messages },
      { retries: settings.json_retries, throwCallErrors: true },
    );
    ctx.count(judgment.passed === null ? 'not_judged' : judgment.passed ? 'judge_passed' : 'judge_rejected');
    if (judgment.attempts > 1) ctx.count('json_retries', judgment.attempts - 1);
    const evaluation = descriptiveEvaluation(checks, judgment);
    if (!checks.passed) ctx.count('deterministic_failures');
    if (evaluation.reward === 1) ctx.count('passed');
    const r = record as Record<string, unknown>;
    const failure = attributeFailure(
      { termination: record.termination_reason as TerminationReason, messages, toolCalls: [] },
      evaluation,
      [],
      new Set(),
      {
        leaks: Number(r.leaks ?? 0),
        invalidToolArguments: Number(r.invalid_tool_arguments ?? 0),
        unknownToolCalls: Number(r.unknown_tool_calls ?? 0),
        identicalCallRun: Number(r.identical_call_run ?? 0),
      },
    );
    const { failure: _old, ...rest } = r;
    const judged = { ...rest, id: record.id, evaluation, ...(failure === undefined ? {} : { failure }) };
    return [judged as unknown as JudgedRecord];
  },
};
