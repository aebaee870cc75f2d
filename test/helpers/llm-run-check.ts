import { join } from 'node:path';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import type { ChatMessage } from '../../src/sim/messages.js';
import { readJsonl, type SftRowView } from './run-files.js';

/** A message without the fields SFT rows drop (reasoning, the tool name), as a comparable string. */
function messageKey(m: Record<string, unknown>): string {
  return JSON.stringify([m.role, m.content ?? null, m.tool_calls ?? null, m.tool_call_id ?? null]);
}

/** The conversation of a trajectory as it would appear in an SFT row (after the system message). */
export function conversationKey(
  messages: readonly ChatMessage[] | readonly Record<string, unknown>[],
): string {
  return (messages as readonly Record<string, unknown>[]).map(messageKey).join('\n');
}

/** The conversations of a run's sft.jsonl (system message dropped), for membership checks. */
export function sftConversations(dir: string): Set<string> {
  const rows = readJsonl<SftRowView>(join(dir, 'sft.jsonl'));
  return new Set(rows.map((r) => conversationKey(r.messages.slice(1))));
}

/** Counts of a string field over records (`failure`, `termination_reason`). */
export function countBy(records: readonly TrajectoryRecord[], key: 'failure' | 'termination_reason') {
  const out: Record<string, number> = {};
  for (const r of records) {
    const v = r[key];
    if (v !== undefined) out[v] = (out[v] ?? 0) + 1;
  }
  return out;
}

/** Fuzzified ids of a task found in user messages, counted as the run's leak scan counts them. */
export function leaksIn(record: TrajectoryRecord, hiddenIds: readonly string[]): number {
  let n = 0;
  for (const m of record.messages) {
    if (m.role !== 'user') continue;
    for (const id of hiddenIds) if (m.content.includes(id)) n++;
  }
  return n;
}
