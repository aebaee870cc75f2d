import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';

/** The six files of a run folder (design.md §6). */
export const RUN_FILES = [
  'run.json',
  'db.json',
  'tasks.json',
  'trajectories.jsonl',
  'sft.jsonl',
  'summary.json',
] as const;

/** Parses a JSONL file strictly: it must end with a newline and every line must be JSON. */
export function readJsonl<T = unknown>(file: string): T[] {
  const text = readFileSync(file, 'utf8');
  if (text === '') return [];
  if (!text.endsWith('\n')) throw new Error(`${file} does not end with a newline (torn last line)`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line, i) => {
      try {
        return JSON.parse(line) as T;
      } catch (e) {
        throw new Error(`${file}:${i + 1} is not JSON (${(e as Error).message}): ${line.slice(0, 80)}…`);
      }
    });
}

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function readRecords(dir: string): TrajectoryRecord[] {
  return readJsonl<TrajectoryRecord>(join(dir, 'trajectories.jsonl'));
}

/** Records without the fields allowed to differ between identical runs, sorted by id. */
export function stableRecords(records: readonly TrajectoryRecord[]): unknown[] {
  return records
    .map((r) => {
      const { timing_ms: _t, usage, ...rest } = r;
      const { cost_usd: _c, ...stableUsage } = usage;
      return { ...rest, usage: stableUsage };
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Minimal view of an SFT row for shape checks. */
export interface SftRowView {
  readonly messages: readonly Record<string, unknown>[];
  readonly tools: readonly unknown[];
  readonly data_source: string;
}

/**
 * Problems with the OpenAI chat shape of a message list: roles, assistant `tool_calls[].function.arguments`
 * as JSON strings, and tool messages answering a call made earlier. Empty when all is well.
 */
export function openAiShapeProblems(messages: readonly Record<string, unknown>[]): string[] {
  const problems: string[] = [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  messages.forEach((m, i) => {
    const role = m.role;
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') {
      problems.push(`#${i}: unknown role ${String(role)}`);
      return;
    }
    if (role === 'assistant') {
      const toolCalls = m.tool_calls as unknown;
      if (toolCalls === undefined) {
        if (typeof m.content !== 'string') problems.push(`#${i}: assistant text without string content`);
        return;
      }
      if (!Array.isArray(toolCalls) || toolCalls.length === 0) {
        problems.push(`#${i}: tool_calls is not a non-empty array`);
        return;
      }
      for (const call of toolCalls as Record<string, unknown>[]) {
        const fn = call.function as Record<string, unknown> | undefined;
        if (typeof call.id !== 'string' || call.id === '') problems.push(`#${i}: tool call without id`);
        if (call.type !== 'function') problems.push(`#${i}: tool call type ${String(call.type)}`);
        if (typeof fn?.name !== 'string') problems.push(`#${i}: tool call without function.name`);
        if (typeof fn?.arguments !== 'string') {
          problems.push(`#${i}: function.arguments is not a string`);
        } else {
          try {
            const parsed: unknown = JSON.parse(fn.arguments);
            if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
              problems.push(`#${i}: function.arguments is not a JSON object`);
          } catch {
            problems.push(`#${i}: function.arguments does not parse as JSON`);
          }
        }
        if (typeof call.id === 'string') {
          if (calls.has(call.id)) problems.push(`#${i}: tool call id ${call.id} used twice`);
          calls.add(call.id);
        }
      }
      return;
    }
    if (typeof m.content !== 'string') problems.push(`#${i}: ${role} content is not a string`);
    if (role === 'tool') {
      const id = m.tool_call_id;
      if (typeof id !== 'string' || !calls.has(id))
        problems.push(`#${i}: tool message answers unknown call ${String(id)}`);
      else if (answered.has(id)) problems.push(`#${i}: call ${id} answered twice`);
      else answered.add(id);
    }
  });
  for (const id of calls) if (!answered.has(id)) problems.push(`call ${id} never answered`);
  return problems;
}
