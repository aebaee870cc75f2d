import { z } from 'zod';
import { formatIssuePath } from '../core/schema-helpers.js';
import type { DescriptiveGoal } from '../tasks/descriptive-block.js';

/**
 * Reading and deciding a rubric judge's reply (docs/descriptive-tasks.md). The reply must classify and check every
 * rubric item exactly once and list every tool error of the conversation; anything else is a reply error (the
 * judge is asked again). The decision is made here, in code, from the items — not taken from the model's own
 * `judgment`: a critical item not met rejects unless it is excused by a tool error that really is an error in
 * the conversation and that the judge says the agent handled; an unhandled tool error rejects; and a model
 * judgment of `invalid` rejects too (the stricter of the two wins).
 */

export const ITEM_CLASSES = ['critical', 'structural', 'non_critical', 'invalid'] as const;
export type ItemClass = (typeof ITEM_CLASSES)[number];

/** A reply that cannot be used; `field` is the JSON path of the problem in the reply. */
export class JudgeReplyError extends Error {
  override readonly name = 'JudgeReplyError';
}

/** One rubric item as judged. */
export interface JudgedItem {
  /** 1-based goal and item numbers, as shown to the judge. */
  readonly goal: number;
  readonly item: number;
  readonly text: string;
  readonly class: ItemClass;
  readonly met: boolean | null;
  /** The handled tool error the judge gave as the reason a critical item could not be met. */
  readonly excused_by?: string;
  /** True when the excuse was accepted (`excused_by` is an error result of the conversation, handled). */
  readonly excused: boolean;
  readonly reason: string;
}

/** One tool error as the judge saw it. */
export interface JudgedToolError {
  readonly call_id: string;
  readonly handled: boolean;
  readonly reason: string;
}

/** A reply read and decided. */
export interface RubricDecision {
  readonly passed: boolean;
  readonly items: readonly JudgedItem[];
  readonly tool_errors: readonly JudgedToolError[];
  /** The model's own judgment (the decision may be stricter). */
  readonly model_judgment: 'valid' | 'invalid';
  readonly reasoning: string;
  /** `goal g item i: <item>: <reason>` for each unexcused critical failure. */
  readonly critical_failures: readonly string[];
  /** `<call id>: <reason>` for each tool error the agent did not handle. */
  readonly unhandled_tool_errors: readonly string[];
  /** Items counted by class. */
  readonly classes: Readonly<Record<ItemClass, number>>;
  /** What the code overrode or ignored (an excuse not accepted, a disagreement with the model's judgment, …). */
  readonly notes: readonly string[];
}

/** Class names as models write them (`NonCritical`, `non-critical`, `InvalidRubric`, …), by their letters only. */
const CLASS_ALIASES: Readonly<Record<string, ItemClass>> = {
  critical: 'critical',
  structural: 'structural',
  noncritical: 'non_critical',
  invalid: 'invalid',
  invalidrubric: 'invalid',
};

const itemClass = z
  .string()
  .transform((s) => CLASS_ALIASES[s.toLowerCase().replace(/[^a-z]/g, '')] ?? s)
  .pipe(z.enum(ITEM_CLASSES, { message: `expected one of ${ITEM_CLASSES.join(', ')}` }));

const replySchema = z.object({
  items: z.array(
    z.object({
      goal: z.number().int().min(1),
      item: z.number().int().min(1),
      class: itemClass,
      met: z.boolean().nullable(),
      excused_by: z.string().nullish(),
      reason: z.string().default(''),
    }),
  ),
  tool_errors: z
    .array(z.object({ call_id: z.string(), handled: z.boolean(), reason: z.string().default('') }))
    .default([]),
  judgment: z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(['valid', 'invalid'])),
  reasoning: z.string().default(''),
});

/** The JSON object of a reply: bare, inside a ``` fence, or the outermost `{…}` of the text. */
function replyJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  try {
    return JSON.parse(body);
  } catch (e) {
    const start = body.indexOf('{');
    const end = body.lastIndexOf('}');
    if (start !== -1 && end > start) {
      try {
        return JSON.parse(body.slice(start, end + 1));
      } catch {
        // reported below with the first error
      }
    }
    throw new JudgeReplyError(`the reply is not a JSON object (${(e as Error).message})`);
  }
}

/**
 * Reads a judge reply against the goals it judged and the call ids whose results are errors, and decides.
 * @throws {JudgeReplyError} naming the field: not JSON, a wrong shape, an item missing, repeated or unknown, a
 *   `null` check on an item not classed invalid, or a tool error of the conversation left out.
 */
export function decideRubricReply(
  text: string,
  goals: readonly DescriptiveGoal[],
  errorCallIds: ReadonlySet<string>,
): RubricDecision {
  const value = replyJson(text);
  const parsed = replySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JudgeReplyError(`${formatIssuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
  }
  const reply = parsed.data;
  const notes: string[] = [];
  const seen = new Set<string>();
  reply.items.forEach((it, i) => {
    const goal = goals[it.goal - 1];
    if (goal === undefined || it.item > goal.rubric.length)
      throw new JudgeReplyError(`$.items[${i}]: there is no goal ${it.goal} item ${it.item}`);
    const key = `${it.goal}.${it.item}`;
    if (seen.has(key))
      throw new JudgeReplyError(`$.items[${i}]: goal ${it.goal} item ${it.item} is judged twice`);
    seen.add(key);
    if (it.met === null && it.class !== 'invalid')
      throw new JudgeReplyError(
        `$.items[${i}].met: null, but the item is classed ${it.class} (true or false expected)`,
      );
  });
  for (const [gi, g] of goals.entries()) {
    for (let ii = 0; ii < g.rubric.length; ii++) {
      if (!seen.has(`${gi + 1}.${ii + 1}`))
        throw new JudgeReplyError(`$.items: goal ${gi + 1} item ${ii + 1} is not judged`);
    }
  }

  const listed = new Map(reply.tool_errors.map((e) => [e.call_id, e]));
  for (const id of errorCallIds) {
    if (!listed.has(id))
      throw new JudgeReplyError(`$.tool_errors: the error result of call ${id} is not listed`);
  }
  for (const id of listed.keys()) {
    if (!errorCallIds.has(id)) notes.push(`tool_errors names ${id}, whose result is not an error: ignored`);
  }
  const toolErrors = reply.tool_errors.filter((e) => errorCallIds.has(e.call_id));
  const handled = new Set(toolErrors.filter((e) => e.handled).map((e) => e.call_id));
  const items: JudgedItem[] = reply.items
    .slice()
    .sort((a, b) => a.goal - b.goal || a.item - b.item)
    .map((it) => {
      const excusedBy = it.excused_by ?? undefined;
      const excused = excusedBy !== undefined && it.met === false && handled.has(excusedBy);
      if (excusedBy !== undefined && it.met === false && !excused) {
        notes.push(
          `goal ${it.goal} item ${it.item}: excuse ${excusedBy} not accepted (${errorCallIds.has(excusedBy) ? 'that error was not handled' : 'no error result has that call id'})`,
        );
      }
      return {
        goal: it.goal,
        item: it.item,
        text: goals[it.goal - 1]?.rubric[it.item - 1] ?? '',
        class: it.class,
        met: it.met,
        ...(excusedBy === undefined ? {} : { excused_by: excusedBy }),
        excused,
        reason: it.reason,
      };
    });
  const criticalFailures = items
    .filter((it) => it.class === 'critical' && it.met === false && !it.excused)
    .map((it) => `goal ${it.goal} item ${it.item}: ${it.text}: ${it.reason}`);
  const unhandled = toolErrors.filter((e) => !e.handled).map((e) => `${e.call_id}: ${e.reason}`);
  const byRule = criticalFailures.length === 0 && unhandled.length === 0;
  if (byRule && reply.judgment === 'invalid')
    notes.push(
      'the judge said invalid with no unmet critical item or unhandled error: rejected (the stricter verdict)',
    );
  if (!byRule && reply.judgment === 'valid')
    notes.push('the judge said valid, but an unmet critical item or an unhandled tool error rejects');
  const classes = Object.fromEntries(
    ITEM_CLASSES.map((c) => [c, items.filter((it) => it.class === c).length]),
  );
  return {
    passed: byRule && reply.judgment === 'valid',
    items,
    tool_errors: toolErrors,
    model_judgment: reply.judgment,
    reasoning: reply.reasoning,
    critical_failures: criticalFailures,
    unhandled_tool_errors: unhandled,
    classes: classes as Record<ItemClass, number>,
    notes,
  };
}
