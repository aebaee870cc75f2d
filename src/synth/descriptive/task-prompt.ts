import { z } from 'zod';
import { formatIssuePath } from '../../core/schema-helpers.js';
import type { OpenAiTool } from '../../env/openai-tools.js';
import {
  type DescriptiveDifficulty,
  type DescriptiveGoal,
  descriptiveGoalSchema,
} from '../../tasks/descriptive-block.js';

/**
 * The task writer's prompt and the reading of its reply (docs/descriptive-tasks.md), in cove's own words: one
 * session of the user, as goals stated in the user's terms, each with a difficulty and a rubric; what the writer
 * could not see in the data view is phrased as something the agent must look up.
 */

/** The prompt's version, part of every task's content id. */
export const TASK_PROMPT = 'cove-descriptive-tasks-1';

export const TASK_WRITER_SYSTEM = `You write tasks for training a support agent that serves users of a database through tools. A task is what one user wants from one conversation: one or more goals, each a self-contained statement of what the user wants, in the user's own terms, with a difficulty and a rubric.

You see the database's tables with a few of their rows, the agent's policy and the agent's tools. You do not see the rest of the data, so:
- Use only names and values that appear in the rows shown. Anything else the user's goal depends on (an id, a current value, a count, whether something exists) is phrased as something the agent has to look up or confirm with the tools ("find out which album the track is on"), never stated as a fact.
- Every goal must be something the listed tools can do, within the policy.
- The user knows what a person would know: names, titles, emails, dates; not internal ids, unless a person would plausibly have one (an invoice number).
- The goals of one task belong together: a later goal may build on what an earlier one finds out, or be another request of the same user.

Difficulty: easy is one look-up or one change; medium is two or three steps where one depends on another; hard is several dependent steps, a change made only after checking a condition, or results combined across tables.

Rubric: two to six items per goal, each a statement a reviewer can check from the conversation alone: the outcome (what was changed, what the user was told), the expected tool use, with <placeholders> for values found on the way ("update_track_name is called with the <track_id> found by search_track_by_name"), and checkpoints (the agent confirms a change before making it).

Answer with one JSON object and nothing else:
{"persona": "<one sentence on how the user comes across>", "goals": [{"description": "<the goal>", "difficulty": "easy" | "medium" | "hard", "rubric": ["<item>", "<item>"]}]}`;

/** The user message of one request. */
export function taskWriterRequest(input: {
  readonly domain: string;
  readonly policy: string;
  readonly view: string;
  readonly tools: readonly OpenAiTool[];
  readonly goals: number;
  readonly difficulty: DescriptiveDifficulty;
}): string {
  const tools = input.tools.map((t) => {
    const params = Object.keys((t.function.parameters.properties ?? {}) as object).join(', ');
    return `- ${t.function.name}(${params}): ${t.function.description.split('\n')[0]}`;
  });
  return [
    `Domain: ${input.domain}`,
    '',
    'Policy of the agent:',
    input.policy,
    '',
    'Tables, with a few rows of each:',
    input.view,
    '',
    'Tools of the agent:',
    tools.join('\n'),
    '',
    `Write one task with ${input.goals} goal${input.goals === 1 ? '' : 's'}; its hardest goal is ${input.difficulty}.`,
  ].join('\n');
}

/** A reply that cannot be used (the writer is asked again with the reason). */
export class TaskReplyError extends Error {
  override readonly name = 'TaskReplyError';
}

const replySchema = z.object({
  persona: z.string().trim().min(1).optional(),
  goals: z.array(descriptiveGoalSchema).min(1),
});

/**
 * Reads a writer's reply. @throws {TaskReplyError} naming the field: not JSON, a wrong shape, or not `goals`
 * goals.
 */
export function readTaskReply(text: string, goals: number): { persona?: string; goals: DescriptiveGoal[] } {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    const start = body.indexOf('{');
    const end = body.lastIndexOf('}');
    try {
      if (start === -1 || end <= start) throw e;
      value = JSON.parse(body.slice(start, end + 1));
    } catch {
      throw new TaskReplyError(`the reply is not a JSON object (${(e as Error).message})`);
    }
  }
  const parsed = replySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TaskReplyError(`${formatIssuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
  }
  if (parsed.data.goals.length !== goals)
    throw new TaskReplyError(`$.goals: ${parsed.data.goals.length} goals, ${goals} asked for`);
  return {
    ...(parsed.data.persona === undefined ? {} : { persona: parsed.data.persona }),
    goals: parsed.data.goals,
  };
}
