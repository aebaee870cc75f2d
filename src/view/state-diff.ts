import { loadCoveTasks } from '../cli/tasks-input.js';
import { JsonSyntaxError, parsePyJson } from '../core/py-json-parse.js';
import { type PyValue, toPyValue } from '../core/py-value.js';
import { getDomain } from '../domains/registry.js';
import type { EntityRef } from '../env/change-tracking.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import { type GoldState, goldKey, goldState } from '../env/gold-state.js';
import type { Semantics } from '../env/tool.js';
import type { CoveTask } from '../tasks/cove-task.js';
import { taskGoldState } from '../verify/verification.js';
import type { EntityStateDiff, StateDiffResult } from './source.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A call of the episode to replay: its id, tool, arguments (raw JSON text or a parsed value) and recorded output. */
export interface RecordedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string | unknown;
  readonly output: string | undefined;
}

/**
 * Replays an episode's tool calls on a fresh fork of `base` and compares every entity the episode or the gold
 * actions changed: its text in the base, after the episode and after the gold actions (τ²-hash style, so `2` and
 * `2.0` differ as they do for τ²). Calls whose arguments are not valid JSON are skipped (the episode got a tool
 * error for them); a replayed output that differs from the recorded one is reported as a divergence.
 */
export function diffAgainstGold(
  base: EnvironmentBase,
  semantics: Semantics,
  gold: GoldState,
  calls: readonly RecordedCall[],
): StateDiffResult {
  const episode = base.fork({ semantics });
  try {
    const changedBy = new Map<string, string[]>();
    const divergences: { call_id: string; tool: string }[] = [];
    for (const call of calls) {
      let args: PyValue;
      if (typeof call.arguments === 'string') {
        try {
          args = parsePyJson(call.arguments);
        } catch (e) {
          if (e instanceof JsonSyntaxError) continue;
          throw e;
        }
      } else args = toPyValue(call.arguments);
      const done = episode.call(call.name, args);
      if (call.output !== undefined && done.content !== call.output)
        divergences.push({ call_id: call.id, tool: call.name });
      for (const ref of done.changed) {
        const key = `${ref.collection}\u0000${ref.key}`;
        const ids = changedBy.get(key) ?? [];
        if (!ids.includes(call.id)) ids.push(call.id);
        changedBy.set(key, ids);
      }
    }
    const refs = new Map<string, EntityRef>();
    for (const ref of episode.changedEntities()) refs.set(`${ref.collection}\u0000${ref.key}`, ref);
    for (const [key, { ref }] of gold.changed) refs.set(key, ref);
    const entities: EntityStateDiff[] = [];
    for (const [key, ref] of refs) {
      const baseText = base.digest.has(ref.collection, ref.key)
        ? base.digest.chunk('tau2', ref.collection, ref.key)
        : null;
      const final = episode.chunk(ref);
      const goldText = gold.changed.has(key) ? (gold.changed.get(key)?.chunk ?? null) : baseText;
      if (final === baseText && goldText === baseText) continue; // changed and changed back on both sides
      entities.push({
        collection: ref.collection,
        key: ref.key,
        base: baseText,
        final,
        gold: goldText,
        match: final === goldText,
        changedBy: changedBy.get(key) ?? [],
      });
    }
    entities.sort((a, b) => Number(a.match) - Number(b.match) || a.collection.localeCompare(b.collection));
    const notes =
      divergences.length > 0
        ? [
            `${divergences.length} replayed call(s) gave another output than the recorded one: the diff may not be the episode's`,
          ]
        : [];
    return { available: true, notes, entities, divergences };
  } finally {
    episode.close();
  }
}

/** The tool calls of OpenAI-shaped messages with the recorded output of each (by `tool_call_id`). */
export function recordedCalls(messages: unknown): RecordedCall[] {
  const outputs = new Map<string, string>();
  const msgs = list(messages).map(obj);
  for (const m of msgs) {
    if (m.role === 'tool' && typeof m.tool_call_id === 'string' && typeof m.content === 'string')
      outputs.set(m.tool_call_id, m.content);
    if (m.role === 'tool' && typeof m.id === 'string' && typeof m.content === 'string')
      outputs.set(m.id, m.content);
  }
  const calls: RecordedCall[] = [];
  for (const m of msgs) {
    if (m.role !== 'assistant') continue;
    for (const c of list(m.tool_calls).map(obj)) {
      const fn = obj(c.function);
      const id = String(c.id ?? '');
      calls.push({
        id,
        name: String(fn.name ?? c.name ?? ''),
        arguments: fn.arguments ?? c.arguments ?? '{}',
        output: outputs.get(id),
      });
    }
  }
  return calls;
}

/** What the state diff of a cove run needs, loaded on first use and kept: the bases of the run's tasks file. */
export interface StateDiffContext {
  readonly tasksFile: string;
  readonly domains: Map<string, EnvironmentBase>;
}

/**
 * The state diff of a cove trajectory record: the run's DB (the tasks' recorded sandbox or db.json, checked
 * against the recorded hash by `loadCoveTasks`), the task's gold actions replayed, the episode's calls replayed
 * under the record's semantics.
 */
export function coveStateDiff(context: StateDiffContext, record: Obj, task: unknown): StateDiffResult {
  const cove = obj(obj(task).cove);
  const domainName = typeof cove.domain === 'string' ? cove.domain : String(record.domain ?? '');
  let base = context.domains.get(domainName);
  try {
    if (base === undefined) {
      base = loadCoveTasks(getDomain(domainName), context.tasksFile).loaded.base;
      context.domains.set(domainName, base);
    }
  } catch (e) {
    return {
      available: false,
      notes: [`cannot load the run's DB: ${(e as Error).message}`],
      entities: [],
      divergences: [],
    };
  }
  const settings = obj(record.settings);
  const semantics: Semantics =
    settings.semantics === 'fixed' || cove.semantics === 'fixed' ? 'fixed' : 'parity';
  const gold = taskGoldState(base, task as CoveTask);
  return diffAgainstGold(base, semantics, gold, recordedCalls(record.messages));
}

/** The gold state of a τ² task: all its gold actions replayed (τ²'s rule), under parity semantics. */
export function tau2GoldState(base: EnvironmentBase, task: unknown): GoldState {
  const actions = list(obj(obj(task).evaluation_criteria).actions).map(obj);
  const calls = actions.map((a) => ({ name: String(a.name ?? ''), arguments: toPyValue(a.arguments ?? {}) }));
  return goldState(
    base,
    goldKey(
      actions.map((a) => ({ name: String(a.name ?? ''), arguments: a.arguments })),
      'parity',
    ),
    calls,
    'parity',
  );
}
