import type { PyValue } from '../core/py-value.js';
import { REWARD_BASIS } from './reward-basis.js';
import type { LoadedTask, Tau2Task } from './tau2-task.js';

/**
 * A τ² tasks file read without zod, for commands that must start fast (`cove replay`): for a value that
 * {@link parseTau2Tasks} accepts, the same tasks, field for field and in the same key order (the schema's fields in
 * its order, then unknown keys in file order); `undefined` for anything else, or anything unusual, so that the
 * caller runs `parseTau2Tasks` itself, whose error names the file, task and field. Checked against it in
 * `tau2-task-fast.test.ts`.
 */
export function readTau2TasksFast(value: PyValue): LoadedTask[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const seen = new Set<string>();
  const out: LoadedTask[] = [];
  for (let index = 0; index < value.length; index++) {
    const raw = value[index] as PyValue;
    const task = taskOf(raw);
    if (task === FAIL || seen.has(task.id)) return undefined;
    seen.add(task.id);
    out.push({ task, raw, index });
  }
  return out;
}

const FAIL = Symbol('fail');
type Fail = typeof FAIL;
type Field = (v: PyValue | undefined) => unknown;

const isString = (v: unknown): v is string => typeof v === 'string';
const string: Field = (v) => (isString(v) ? v : FAIL);
const unknownValue: Field = (v) => v;
const optional =
  (f: Field): Field =>
  (v) =>
    v === undefined ? undefined : f(v);
const nullable =
  (f: Field): Field =>
  (v) =>
    v === null ? null : f(v);
const optionalNullable = (f: Field): Field => optional(nullable(f));
const oneOf =
  (values: readonly string[]): Field =>
  (v) =>
    isString(v) && values.includes(v) ? v : FAIL;
const arrayOf =
  (f: Field): Field =>
  (v) => {
    if (!Array.isArray(v)) return FAIL;
    const out: unknown[] = [];
    for (const item of v) {
      const r = f(item);
      if (r === FAIL) return FAIL;
      out.push(r);
    }
    return out;
  };

/**
 * A dict validated as zod's `looseObject` after the Map-to-object step of `model()`: the shape's keys present in
 * the dict (a value that checks as `undefined` is kept only when the key is there), then the other keys.
 */
const looseObject =
  (shape: Readonly<Record<string, Field>>): Field =>
  (v) => {
    if (!(v instanceof Map)) return FAIL;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(shape)) {
      const has = v.has(key);
      const r = (shape[key] as Field)(v.get(key));
      if (r === FAIL) return FAIL;
      if (r !== undefined || has) out[key] = r;
    }
    for (const [key, item] of v) {
      if (typeof key !== 'string' || key === '__proto__') return FAIL;
      if (!Object.hasOwn(shape, key)) out[key] = item;
    }
    return out;
  };

const action = looseObject({
  action_id: string,
  requestor: optional(oneOf(['assistant', 'user'])),
  name: string,
  arguments: (v) => (v instanceof Map ? v : FAIL),
  info: optionalNullable(string),
  compare_args: optionalNullable(arrayOf(string)),
});

const instructions = looseObject({
  domain: string,
  reason_for_call: string,
  known_info: optionalNullable(string),
  unknown_info: optionalNullable(string),
  task_instructions: string,
});

const evaluationCriteria = looseObject({
  actions: optionalNullable(arrayOf(action)),
  env_assertions: optionalNullable(arrayOf(unknownValue)),
  communicate_info: optionalNullable(arrayOf(string)),
  nl_assertions: optionalNullable(arrayOf(string)),
  reward_basis: optional(arrayOf(oneOf(REWARD_BASIS))),
});

const task = looseObject({
  id: string,
  description: unknownValue,
  user_scenario: looseObject({
    persona: optionalNullable(string),
    instructions: (v) => (isString(v) ? v : instructions(v)),
  }),
  initial_state: unknownValue,
  evaluation_criteria: optionalNullable(evaluationCriteria),
});

function taskOf(raw: PyValue): Tau2Task | Fail {
  return task(raw) as Tau2Task | Fail;
}
