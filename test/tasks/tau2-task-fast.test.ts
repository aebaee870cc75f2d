import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import type { PyValue } from '../../src/core/py-value.js';
import { readJsonInput } from '../../src/io/read-input.js';
import { parseTau2Tasks } from '../../src/tasks/tau2-task.js';
import { readTau2TasksFast } from '../../src/tasks/tau2-task-fast.js';
import { RETAIL_LEGACY_TASKS, RETAIL_TASKS, TAU2 } from '../helpers/paths.js';

/** A value with everything that tells two parses apart spelled out: types, key order, ints against floats. */
function shape(v: unknown): unknown {
  if (v instanceof Map) return ['Map', [...v].map(([k, x]) => [k, shape(x)])];
  if (Array.isArray(v)) return ['Array', v.map(shape)];
  if (v === null) return ['null'];
  if (typeof v === 'object') return ['Object', Object.entries(v).map(([k, x]) => [k, shape(x)])];
  if (typeof v === 'bigint') return ['int', String(v)];
  return [typeof v, v];
}

/** The zod parse (the reference) and the fast read, or the zod error when the value is refused. */
function both(value: PyValue): { zod: unknown; fast: unknown } {
  let zod: unknown;
  try {
    zod = shape(parseTau2Tasks(value, 'tasks.json'));
  } catch (e) {
    zod = `error: ${(e as Error).message}`;
  }
  const fast = readTau2TasksFast(value);
  return { zod, fast: fast === undefined ? undefined : shape(fast) };
}

const task = (text: string): PyValue => parsePyJson(`[${text}]`);

describe('readTau2TasksFast', () => {
  it('reads τ²’s task files exactly as the zod schema does', () => {
    const files = [
      RETAIL_TASKS,
      join(TAU2, 'airline', 'tasks.json'),
      RETAIL_LEGACY_TASKS,
      join(TAU2, 'legacy_v0.1.0', 'airline', 'tasks.json'),
      join(TAU2, 'telecom', 'tasks_small.json'),
    ];
    for (const file of files) {
      const value = readJsonInput(file);
      const { zod, fast } = both(value);
      expect(fast, file).toBeDefined();
      expect(fast, file).toEqual(zod);
    }
  });

  it('keeps the schema’s fields in its order, then unknown keys in file order, at every level', () => {
    const value = task(`{"zz": 1, "evaluation_criteria": {"reward_basis": ["DB"], "extra": [1.0],
      "actions": [{"info": null, "arguments": {"b": 1, "a": 2.0}, "name": "f", "requestor": "user",
      "compare_args": ["a"], "action_id": "x", "more": true}], "nl_assertions": null},
      "user_scenario": {"instructions": {"task_instructions": "t", "reason_for_call": "r", "domain": "d",
      "unknown_info": null, "other": 2}, "persona": null}, "id": "7", "initial_state": null}`);
    const { zod, fast } = both(value);
    expect(fast).toEqual(zod);
    const tasks = readTau2TasksFast(value);
    expect(Object.keys(tasks?.[0]?.task ?? {})).toEqual([
      'id',
      'user_scenario',
      'initial_state',
      'evaluation_criteria',
      'zz',
    ]);
    expect(Object.keys(tasks?.[0]?.task.evaluation_criteria?.actions?.[0] ?? {})).toEqual([
      'action_id',
      'requestor',
      'name',
      'arguments',
      'info',
      'compare_args',
      'more',
    ]);
  });

  it('reads instructions given as a string and missing or null criteria as zod does', () => {
    for (const text of [
      '{"id": "a", "user_scenario": {"instructions": "just do it"}}',
      '{"id": "a", "user_scenario": {"instructions": "x"}, "evaluation_criteria": null}',
      '{"id": "a", "user_scenario": {"instructions": "x"}, "evaluation_criteria": {"actions": null}}',
      '{"id": "a", "user_scenario": {"instructions": "x"}, "evaluation_criteria": {}}',
    ]) {
      const { zod, fast } = both(task(text));
      expect(fast, text).toBeDefined();
      expect(fast, text).toEqual(zod);
    }
  });

  it('leaves every value the schema refuses to the zod parse, which names the problem', () => {
    const bad = [
      '{"user_scenario": {"instructions": "x"}}',
      '{"id": 3, "user_scenario": {"instructions": "x"}}',
      '{"id": "a"}',
      '{"id": "a", "user_scenario": {"instructions": 1}}',
      '{"id": "a", "user_scenario": {"instructions": {"domain": "d"}}}',
      '{"id": "a", "user_scenario": {"instructions": "x", "persona": 2}}',
      '{"id": "a", "user_scenario": {"instructions": "x"}, "evaluation_criteria": {"reward_basis": null}}',
      '{"id": "a", "user_scenario": {"instructions": "x"}, "evaluation_criteria": {"reward_basis": ["X"]}}',
      '{"id": "a", "user_scenario": {"instructions": "x"}, "evaluation_criteria": {"actions": [{"action_id": "1", "name": "f", "arguments": []}]}}',
      '{"id": "a", "user_scenario": {"instructions": "x"}, "evaluation_criteria": {"actions": [{"action_id": "1", "name": "f", "arguments": {}, "requestor": "bot"}]}}',
      '{"id": "a", "user_scenario": {"instructions": "x"}, "evaluation_criteria": {"communicate_info": [1]}}',
      '{"id": "a", "user_scenario": {"instructions": "x"}}, {"id": "a", "user_scenario": {"instructions": "y"}}',
      '"not a task"',
    ];
    for (const text of bad) {
      const { zod, fast } = both(task(text));
      expect(fast, text).toBeUndefined();
      expect(zod, text).toMatch(/^error: tasks\.json/);
    }
    expect(readTau2TasksFast(parsePyJson('{"id": "a"}'))).toBeUndefined();
  });
});
