import type { SqlGoal } from '../sql-synthesis.js';

/** Words the oracle puts before a write it proposes; the scripted user confirms what follows them. */
export const CONFIRM = 'Shall I make this change';

/**
 * A goal as the user asks for it, in the first person: `You want to know X.` → `Could you tell me X?`,
 * `You want X.` → `I would like X.`; descriptions and values are kept exactly.
 */
export function askOf(goal: SqlGoal): string {
  const text = goal.text.trim();
  if (text.startsWith('You want to know ')) return `Could you tell me ${text.slice(17).replace(/\.$/, '')}?`;
  return text.replace(/^You want /, 'I would like ');
}

/** The part of an ask that any styling keeps (its core after the first word), lower-cased: how the oracle spots it. */
export function askCore(goal: SqlGoal): string {
  const ask = askOf(goal).toLowerCase();
  return ask.slice(ask.indexOf(' ') + 1).replace(/[.?]$/, '');
}

/**
 * A write goal as the agent proposes it (after {@link CONFIRM}): the ask without "I would like" (or "I would like
 * to", for an action such as `cancel the visit whose …`) and the period.
 */
export function proposalOf(goal: SqlGoal): string {
  return askOf(goal)
    .replace(/^I would like (to )?/, '')
    .replace(/\.$/, '');
}
