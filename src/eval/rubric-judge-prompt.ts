import type { OpenAiTool } from '../env/openai-tools.js';
import type { ChatMessage } from '../sim/messages.js';
import type { DescriptiveGoal } from '../tasks/descriptive-block.js';

/**
 * The rubric judge's prompt (docs/descriptive-tasks.md), in cove's own words after the structure the second seed
 * paper describes (its validation prompt, §1.6 of our notes): substance over the letter of the rubric, grounded
 * claims only, a classification of every rubric item (critical / structural / non-critical / invalid) before the
 * checks, error-aware handling of tool errors, and a decision rule (any unmet critical item rejects).
 */

/** The prompt's version, recorded with every judgment. */
export const RUBRIC_JUDGE_PROMPT = 'cove-rubric-judge-1';

export const RUBRIC_JUDGE_SYSTEM = `You review a conversation in which an agent with tools serves a user, and decide whether the agent achieved the user's goals. You get the goals, each with a numbered rubric, the tools the agent had, and the whole conversation with every tool call and every tool result.

How to judge
- Judge substance. The rubric guides you; it is not a script. A different tool or a different order of calls that reaches the same result is fine, and a call need not be repeated when what it would return is already in the conversation.
- Ignore tone, style and wording.
- Whatever the agent tells the user must come from a tool result or from what the user said. A fact found in neither is made up, and a made-up fact fails every item it touches.
- A change the user did not ask for, or a change made before the user agreed to it when the user had to agree, fails the goal it concerns.

Step 1: classify every rubric item
- critical: the goal is not achieved without it (the right record was changed in the right way, the right fact was told, nothing else was changed).
- structural: it is about how the work was done (which tools, in which order) rather than about what was achieved.
- non_critical: good to have (a confirmation, a summary, a polite close).
- invalid: it cannot be checked from the conversation, or it is wrong (it contradicts the tool results, names a tool the agent did not have, or asks for something the goal does not).

Step 2: check every item
Set "met" to true or false; for an invalid item set it to null.

Tool errors
A tool result that is an error is not a failure by itself. The error is handled when the call was a sensible one, the agent told the user what went wrong in line with the error, and it proposed or took a sensible next step. A critical item that could not be met only because of a handled error is excused: give that call's id in "excused_by". An error the agent ignored, hid or papered over (claiming success anyway) is not handled. List every tool result that is an error in "tool_errors".

Decision
"invalid" when a critical item is not met and not excused, or a tool error was not handled; otherwise "valid".

Answer with one JSON object and nothing else:
{"items": [{"goal": <goal number>, "item": <item number>, "class": "critical" | "structural" | "non_critical" | "invalid", "met": true | false | null, "excused_by": "<tool call id, only when excused>", "reason": "<one sentence>"}],
 "tool_errors": [{"call_id": "<tool call id>", "handled": true | false, "reason": "<one sentence>"}],
 "judgment": "valid" | "invalid",
 "reasoning": "<two or three sentences>"}
Give exactly one entry per rubric item, numbered as listed.`;

/** A tool result that is an error: τ²'s convention (`Error: …`), which cove's dispatcher follows. */
export function isToolError(content: string): boolean {
  return /^\s*Error\b/.test(content);
}

/** The conversation as the judge reads it: one numbered line per message, tool calls with their ids. */
export function judgeConversation(messages: readonly ChatMessage[]): string {
  const lines: string[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'system') return;
    if (m.role === 'tool') {
      const error = isToolError(m.content) ? ' (error)' : '';
      lines.push(`[${i}] tool result of ${m.tool_call_id} ${m.name}${error}: ${m.content}`);
      return;
    }
    if (m.role === 'assistant') {
      if (m.content !== null && m.content !== '') lines.push(`[${i}] agent: ${m.content}`);
      for (const c of m.tool_calls ?? [])
        lines.push(`[${i}] agent calls ${c.function.name} ${c.function.arguments} (call id ${c.id})`);
      return;
    }
    lines.push(`[${i}] user: ${m.content}`);
  });
  return lines.join('\n');
}

/** The user message of a judge request: goals with numbered rubric items, the tools, the conversation. */
export function rubricJudgeRequest(input: {
  readonly goals: readonly DescriptiveGoal[];
  readonly tools: readonly OpenAiTool[];
  readonly messages: readonly ChatMessage[];
}): string {
  const goals = input.goals.map((g, i) =>
    [
      `Goal ${i + 1} (${g.difficulty}): ${g.description}`,
      ...g.rubric.map((item, j) => `  ${j + 1}. ${item}`),
    ].join('\n'),
  );
  const tools = input.tools.map((t) => `- ${t.function.name}: ${t.function.description.split('\n')[0]}`);
  return [
    'Goals and their rubrics:',
    goals.join('\n'),
    '',
    'Tools the agent had:',
    tools.join('\n'),
    '',
    'Conversation:',
    judgeConversation(input.messages),
    '',
    'Classify and check every rubric item, then decide.',
  ].join('\n');
}
