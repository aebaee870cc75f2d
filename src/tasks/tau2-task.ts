import { z } from 'zod';
import { InputFileError } from '../core/errors.js';
import type { PyDict, PyValue } from '../core/py-value.js';
import { describeIssue, formatIssuePath, model } from '../core/schema-helpers.js';
import { REWARD_BASIS } from './reward-basis.js';

/**
 * τ²'s task shape (`src/tau2/data_model/tasks.py`; τ²'s `data_model/tasks.py`), validated from a lossless JSON value.
 * Tool-call arguments stay Python dicts (ints and floats kept apart). Unknown keys are kept.
 */

const pyDictSchema = z.custom<PyDict>((v) => v instanceof Map, { message: 'expected an object' });

export const actionSchema = model(
  z.looseObject({
    action_id: z.string(),
    requestor: z.enum(['assistant', 'user']).optional(),
    name: z.string(),
    arguments: pyDictSchema,
    info: z.string().nullable().optional(),
    compare_args: z.array(z.string()).nullable().optional(),
  }),
);
export type Tau2Action = z.output<typeof actionSchema>;

export { REWARD_BASIS };

export const instructionsSchema = model(
  z.looseObject({
    domain: z.string(),
    reason_for_call: z.string(),
    known_info: z.string().nullable().optional(),
    unknown_info: z.string().nullable().optional(),
    task_instructions: z.string(),
  }),
);
export type Tau2Instructions = z.output<typeof instructionsSchema>;

export const evaluationCriteriaSchema = model(
  z.looseObject({
    actions: z.array(actionSchema).nullable().optional(),
    env_assertions: z.array(z.unknown()).nullable().optional(),
    communicate_info: z.array(z.string()).nullable().optional(),
    nl_assertions: z.array(z.string()).nullable().optional(),
    reward_basis: z.array(z.enum(REWARD_BASIS)).optional(),
  }),
);

export const tau2TaskSchema = model(
  z.looseObject({
    id: z.string(),
    description: z.unknown().optional(),
    user_scenario: model(
      z.looseObject({
        persona: z.string().nullable().optional(),
        instructions: z.union([z.string(), instructionsSchema]),
      }),
    ),
    initial_state: z.unknown().optional(),
    evaluation_criteria: evaluationCriteriaSchema.nullable().optional(),
  }),
);
export type Tau2Task = z.output<typeof tau2TaskSchema>;

/** A task as read from a file: validated fields plus the exact value read. */
export interface LoadedTask {
  readonly task: Tau2Task;
  readonly raw: PyValue;
  /** Index in the file's list. */
  readonly index: number;
}

/**
 * Validates a tasks file's value: a JSON list of τ² tasks with unique ids.
 * @throws {InputFileError} naming the file, the task (`$[3]`) and the field.
 */
export function parseTau2Tasks(value: PyValue, file: string): LoadedTask[] {
  if (!Array.isArray(value)) throw new InputFileError(file, '$', 'expected a JSON list of tasks');
  const seen = new Set<string>();
  return value.map((raw, index) => {
    const result = tau2TaskSchema.safeParse(raw);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new InputFileError(
        file,
        formatIssuePath([index, ...(issue?.path ?? [])]),
        issue === undefined ? 'invalid' : describeIssue(issue, raw),
      );
    }
    if (seen.has(result.data.id)) {
      throw new InputFileError(file, `$[${index}].id`, `duplicate task id '${result.data.id}'`);
    }
    seen.add(result.data.id);
    return { task: result.data, raw, index };
  });
}
