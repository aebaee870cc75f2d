import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { InputFileError } from '../core/errors.js';
import { parseWith } from '../core/schema-helpers.js';
import { readInputText } from '../io/read-input.js';

/**
 * τ²'s results file (`Results` in τ²'s `src/tau2/data_model/simulation.py`, saved by `Results.save` as one JSON
 * document; `tau2-spec.md` §7.4): `{timestamp, info, tasks, simulations}`. This module is cove's only writer and
 * reader of it. Objects keep the fields they carry beyond the ones named here (τ²'s voice and streaming fields,
 * `raw_data`, …), so a file read and written again loses nothing. Values are plain JSON: numbers do not keep
 * Python's int/float distinction (convert tool-call arguments with `toPyValue` before replaying them).
 */

/** τ²'s `TerminationReason` values. */
export const TAU2_TERMINATION_REASONS = [
  'user_stop',
  'agent_stop',
  'max_steps',
  'timeout',
  'too_many_errors',
  'agent_error',
  'user_error',
  'infrastructure_error',
  'context_window_exceeded',
  'unexpected_error',
] as const;
export type Tau2TerminationReason = (typeof TAU2_TERMINATION_REASONS)[number];

/** τ²'s `RewardType` values (the components a `reward_basis` lists). */
export const TAU2_REWARD_TYPES = ['DB', 'ENV_ASSERTION', 'NL_ASSERTION', 'ACTION', 'COMMUNICATE'] as const;

const jsonObject = z.record(z.string(), z.unknown());

/** `ToolCall`: flat `name`/`arguments` (a dict), not OpenAI's nested `function`. */
export const tau2ToolCallSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  arguments: jsonObject,
  requestor: z.enum(['assistant', 'user']).optional(),
});
export type Tau2ToolCall = z.output<typeof tau2ToolCallSchema>;

const messageBase = {
  turn_idx: z.number().int().nullable().optional(),
  timestamp: z.string().nullable().optional(),
};
const participantMessage = {
  content: z.string().nullable().optional(),
  tool_calls: z.array(tau2ToolCallSchema).nullable().optional(),
  cost: z.number().nullable().optional(),
  usage: jsonObject.nullable().optional(),
  raw_data: z.unknown().optional(),
  ...messageBase,
};

const systemMessageSchema = z.looseObject({
  role: z.literal('system'),
  content: z.string().nullable(),
  ...messageBase,
});
const assistantMessageSchema = z.looseObject({ role: z.literal('assistant'), ...participantMessage });
const userMessageSchema = z.looseObject({ role: z.literal('user'), ...participantMessage });
/** `ToolMessage`: `id` is the id of the tool call it answers. */
const toolMessageSchema = z.looseObject({
  role: z.literal('tool'),
  id: z.string(),
  content: z.string().nullable(),
  requestor: z.enum(['assistant', 'user']).optional(),
  error: z.boolean().optional(),
  ...messageBase,
});
export const tau2MessageSchema = z.discriminatedUnion('role', [
  systemMessageSchema,
  assistantMessageSchema,
  userMessageSchema,
  toolMessageSchema,
]);
export type Tau2Message = z.output<typeof tau2MessageSchema>;

export const tau2ActionSchema = z.looseObject({
  action_id: z.string(),
  requestor: z.enum(['assistant', 'user']).optional(),
  name: z.string(),
  arguments: jsonObject,
  info: z.string().nullable().optional(),
  compare_args: z.array(z.string()).nullable().optional(),
});

/** `RewardInfo` (τ²'s evaluator output; `tau2-spec.md` §6.6). */
export const tau2RewardInfoSchema = z.looseObject({
  reward: z.number(),
  db_check: z.looseObject({ db_match: z.boolean(), db_reward: z.number() }).nullable().optional(),
  env_assertions: z
    .array(
      z.looseObject({
        env_assertion: z.unknown().optional(),
        met: z.boolean(),
        reward: z.number().optional(),
      }),
    )
    .nullable()
    .optional(),
  action_checks: z
    .array(
      z.looseObject({
        action: tau2ActionSchema,
        action_match: z.boolean(),
        action_reward: z.number(),
        tool_type: z.string().nullable().optional(),
      }),
    )
    .nullable()
    .optional(),
  communicate_checks: z
    .array(
      z.looseObject({ info: z.string(), met: z.boolean(), justification: z.string().nullable().optional() }),
    )
    .nullable()
    .optional(),
  nl_assertions: z
    .array(
      z.looseObject({
        nl_assertion: z.string(),
        met: z.boolean(),
        justification: z.string().nullable().optional(),
      }),
    )
    .nullable()
    .optional(),
  reward_basis: z.array(z.enum(TAU2_REWARD_TYPES)).nullable().optional(),
  reward_breakdown: z.partialRecord(z.enum(TAU2_REWARD_TYPES), z.number()).nullable().optional(),
  info: jsonObject.nullable().optional(),
});
export type Tau2RewardInfo = z.output<typeof tau2RewardInfoSchema>;

/** `SimulationRun`: required `id, task_id, start_time, end_time, duration, termination_reason`. */
export const tau2SimulationSchema = z.looseObject({
  id: z.string(),
  task_id: z.string(),
  timestamp: z.string().optional(),
  start_time: z.string(),
  end_time: z.string(),
  duration: z.number(),
  termination_reason: z.enum(TAU2_TERMINATION_REASONS),
  agent_cost: z.number().nullable().optional(),
  user_cost: z.number().nullable().optional(),
  reward_info: tau2RewardInfoSchema.nullable().optional(),
  messages: z.array(tau2MessageSchema),
  trial: z.number().int().nullable().optional(),
  seed: z.number().int().nullable().optional(),
  mode: z.string().optional(),
  info: jsonObject.nullable().optional(),
});
export type Tau2Simulation = z.output<typeof tau2SimulationSchema>;

/** `Task` as far as a results file needs it (tasks.json's full shape is validated by `tasks/tau2-task.ts`). */
export const tau2ResultsTaskSchema = z.looseObject({
  id: z.string(),
  user_scenario: z.looseObject({
    persona: z.string().nullable().optional(),
    instructions: z.union([z.string(), jsonObject]),
  }),
  evaluation_criteria: z
    .looseObject({
      actions: z.array(tau2ActionSchema).nullable().optional(),
      reward_basis: z.array(z.enum(TAU2_REWARD_TYPES)).optional(),
    })
    .nullable()
    .optional(),
});
export type Tau2ResultsTask = z.output<typeof tau2ResultsTaskSchema>;

/** `Info`: required `git_commit, num_trials, max_steps, max_errors, user_info, agent_info, environment_info`. */
export const tau2InfoSchema = z.looseObject({
  git_commit: z.string(),
  num_trials: z.number().int(),
  max_steps: z.number().int(),
  max_errors: z.number().int(),
  seed: z.number().int().nullable().optional(),
  user_info: z.looseObject({
    implementation: z.string(),
    llm: z.string().nullable().optional(),
    llm_args: jsonObject.nullable().optional(),
    global_simulation_guidelines: z.string().nullable().optional(),
  }),
  agent_info: z.looseObject({
    implementation: z.string(),
    llm: z.string().nullable().optional(),
    llm_args: jsonObject.nullable().optional(),
  }),
  environment_info: z.looseObject({
    domain_name: z.string(),
    policy: z.string(),
    /** `{name: {name, doc, params (JSON Schema), returns, …}}` or null. */
    tool_defs: z.record(z.string(), jsonObject).nullable().optional(),
  }),
});
export type Tau2Info = z.output<typeof tau2InfoSchema>;

export const tau2ResultsSchema = z.looseObject({
  timestamp: z.string().nullable().optional(),
  info: tau2InfoSchema,
  tasks: z.array(tau2ResultsTaskSchema),
  simulations: z.array(tau2SimulationSchema),
  simulation_index: z.array(z.unknown()).nullable().optional(),
});
export type Tau2Results = z.output<typeof tau2ResultsSchema>;

/**
 * Reads and validates a τ² results file (the monolithic `results.json`, or an older `<name>.json`).
 * Beyond the schema it checks that task ids are unique, that each simulation names a task of the file, and that
 * every tool message answers a tool call made earlier in its simulation.
 * @throws {InputFileError} naming the file and the JSON path of the first problem
 *   (e.g. `$.simulations[3].messages[5].tool_calls[0].arguments`).
 */
export function readTau2Results(file: string): Tau2Results {
  // bounded in size, UTF-8 checked (bytes that are not UTF-8 are an error naming the offset, never replaced)
  const text = readInputText(file, { what: 'τ² results file' });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InputFileError(file, '$', `not JSON (${(e as Error).message})`);
  }
  if (value !== null && typeof value === 'object' && 'simulation_index' in value) {
    const index = (value as { simulation_index: unknown }).simulation_index;
    if (Array.isArray(index) && index.length > 0) {
      throw new InputFileError(
        file,
        '$.simulation_index',
        'a directory-format results file (simulations stored in simulations/<id>.json) is not supported; use a text run’s results.json',
      );
    }
  }
  const results = parseWith(tau2ResultsSchema, value, file);
  checkConsistency(results, file);
  return results;
}

function checkConsistency(results: Tau2Results, file: string): void {
  const ids = new Set<string>();
  results.tasks.forEach((t, i) => {
    if (ids.has(t.id)) throw new InputFileError(file, `$.tasks[${i}].id`, `duplicate task id '${t.id}'`);
    ids.add(t.id);
  });
  results.simulations.forEach((s, i) => {
    if (!ids.has(s.task_id)) {
      throw new InputFileError(
        file,
        `$.simulations[${i}].task_id`,
        `no task with id '${s.task_id}' in $.tasks`,
      );
    }
    const calls = new Set<string>();
    s.messages.forEach((m, j) => {
      if ((m.role === 'assistant' || m.role === 'user') && m.tool_calls)
        for (const c of m.tool_calls) calls.add(c.id);
      if (m.role === 'tool' && !calls.has(m.id)) {
        throw new InputFileError(
          file,
          `$.simulations[${i}].messages[${j}].id`,
          `tool message answers '${m.id}', which no earlier message of this simulation calls`,
        );
      }
    });
  });
}

/** What {@link writeTau2Results} writes; `simulations` may be a (async) stream so large runs never sit in memory. */
export interface Tau2ResultsInput {
  readonly timestamp: string;
  readonly info: Tau2Info;
  readonly tasks: readonly Tau2ResultsTask[] | readonly Record<string, unknown>[];
  readonly simulations: Iterable<Tau2Simulation> | AsyncIterable<Tau2Simulation>;
}

/** Indents every line after the first of a JSON text by `pad`. */
function nest(json: string, pad: string): string {
  return json.replaceAll('\n', `\n${pad}`);
}

/**
 * Writes a τ² results file the way `Results.save` does (`model_dump_json(indent=2)`: two-space indent, non-ASCII
 * kept), streaming the simulations one by one with backpressure, into `file.tmp` then renamed over `file`.
 * Each simulation is validated first, so a file cove writes always reads back with {@link readTau2Results}.
 * @returns the number of simulations written
 * @throws {InputFileError} naming `file` and the simulation (`$.simulations[i]…`) that does not fit τ²'s shape
 */
export async function writeTau2Results(file: string, input: Tau2ResultsInput): Promise<number> {
  const info = parseWith(tau2InfoSchema, input.info, file);
  const tmp = `${file}.tmp`;
  const out = createWriteStream(tmp, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  let n = 0;
  try {
    await write(`{\n  "timestamp": ${JSON.stringify(input.timestamp)},\n`);
    await write(`  "info": ${nest(JSON.stringify(info, null, 2), '  ')},\n  "tasks": [`);
    let first = true;
    for (const [i, task] of input.tasks.entries()) {
      parseWith(tau2ResultsTaskSchema, task, `${file} ($.tasks[${i}])`);
      await write(`${first ? '' : ','}\n    ${nest(JSON.stringify(task, null, 2), '    ')}`);
      first = false;
    }
    await write(`${first ? '' : '\n  '}],\n  "simulations": [`);
    first = true;
    for await (const sim of input.simulations) {
      const checked = tau2SimulationSchema.safeParse(sim);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        throw new InputFileError(
          file,
          `$.simulations[${n}]${issue?.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('') ?? ''}`,
          issue?.message ?? 'invalid',
        );
      }
      await write(`${first ? '' : ','}\n    ${nest(JSON.stringify(sim, null, 2), '    ')}`);
      first = false;
      n++;
    }
    await write(`${first ? '' : '\n  '}]\n}\n`);
    out.end();
    await once(out, 'finish');
    renameSync(tmp, file);
  } catch (e) {
    out.destroy();
    rmSync(tmp, { force: true });
    throw e;
  }
  return n;
}
