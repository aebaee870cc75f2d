import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError } from '../core/errors.js';
import { parseWith } from '../core/schema-helpers.js';
import { readPlainJson } from '../io/read-input.js';
import { EndpointPool } from '../llm/chat-model.js';
import { priceTableSchema } from '../llm/config.js';
import { runExternalStage } from './external-stage.js';
import { readRecords } from './records.js';
import { findStage, STAGES } from './registry.js';
import { runStage, type StageSummary, summaryPathOf } from './run-stage.js';
import { type SpecFromRecords, writeSpecFromRecords } from './spec-from-records.js';
import { type StageModelFlags, stageModel } from './stage-model.js';
import { SqlToolRecord } from './stages/tool-records.js';

/**
 * `cove synth pipeline --pipeline pipeline.json`: a list of stages given as data (docs/synthesis-stages.md
 * "Pipelines"). Each step reads the previous step's output (or its own `in`), and is one of: a cove stage, your own
 * command (`command`), or a saved output (`use`: the file is checked and taken as the step's output). Steps resume
 * like single stages; a finished pipeline run again makes no model call.
 */

const ModelJson = z.strictObject({
  model: z
    .string()
    .regex(/^openai:.+/, 'expected "openai:<model>"')
    .optional(),
  base_url: z.string().url().optional(),
  api_key_env: z.string().optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
});

const StepJson = z.strictObject({
  /** The stage whose records the step writes (a cove stage's name, also for `command` and `use`). */
  stage: z.string(),
  /** Input files (relative to the config's folder); default: the previous step's output. */
  in: z.array(z.string()).optional(),
  /** Output file; default `<dir>/<stage>.jsonl`. */
  out: z.string().optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  model: ModelJson.optional(),
  /** Your own program instead of cove's stage: argv, run without a shell (see external-stage.ts). */
  command: z.array(z.string().min(1)).min(1).optional(),
  /** A saved output to start from: the step does not run. */
  use: z.string().optional(),
  /** Leave the step out (as if it were not listed). */
  skip: z.boolean().optional(),
  concurrency: z.number().int().min(1).max(256).optional(),
});

/** The JSON of a pipeline config. */
export const PipelineJson = z.strictObject({
  /** Folder of the steps' files (relative to the config's folder). */
  dir: z.string().min(1),
  seed: z.number().int().default(1),
  concurrency: z.number().int().min(1).max(256).default(4),
  /** Model of every step (a step's `model` overrides fields). */
  model: ModelJson.optional(),
  /** USD per million tokens per model name, for the cost in the summaries. */
  prices: priceTableSchema.default({}),
  stages: z.array(StepJson).min(1),
  /** Write a SQL domain spec from the last step's records (the `sql` stage's). */
  spec: z.strictObject({ out: z.string().min(1), domain: z.string().optional() }).optional(),
});
export type PipelineJson = z.output<typeof PipelineJson>;

/** What a pipeline run made. */
export interface PipelineResult {
  readonly steps: readonly {
    readonly stage: string;
    readonly out: string;
    readonly summary: StageSummary | null;
  }[];
  readonly spec?: SpecFromRecords;
  readonly summaryFile: string;
}

/** Reads and validates a pipeline config. @throws {InputFileError} naming the file and the field. */
export function readPipelineConfig(file: string): PipelineJson {
  const json = parseWith(PipelineJson, readPlainJson(file, { what: '--config' }), file);
  json.stages.forEach((s, i) => {
    if (findStage(s.stage) === undefined)
      throw new ConfigError(
        `${file}: $.stages[${i}].stage: no stage '${s.stage}' (stages: ${[...STAGES.keys()].join(', ')})`,
      );
    if (s.command !== undefined && s.use !== undefined)
      throw new ConfigError(`${file}: $.stages[${i}]: give command or use, not both`);
  });
  return json;
}

/** Options of {@link runPipeline}. */
export interface RunPipelineOptions {
  readonly config: PipelineJson;
  /** The config's folder: relative paths are resolved from it. */
  readonly base: string;
  /** Model settings on top of the config's (command-line flags). */
  readonly model?: StageModelFlags;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log?: (line: string) => void;
}

/** `settings` with the string values of the `paths` keys resolved by `at`. */
function resolvePaths(
  settings: Readonly<Record<string, unknown>>,
  paths: readonly string[],
  at: (p: string) => string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings };
  for (const k of paths) {
    const v = out[k];
    if (typeof v === 'string' && v !== '') out[k] = at(v);
  }
  return out;
}

/** Runs the pipeline. @throws what a step throws; the steps done stay done (a rerun resumes). */
export async function runPipeline(options: RunPipelineOptions): Promise<PipelineResult> {
  const { config, base } = options;
  const at = (p: string) => resolve(base, p);
  const dir = at(config.dir);
  mkdirSync(dir, { recursive: true });
  const endpoints = new EndpointPool();
  const steps: { stage: string; out: string; summary: StageSummary | null }[] = [];
  let previous: string | undefined;
  for (const step of config.stages) {
    if (step.skip === true) continue;
    const stage = findStage(step.stage);
    if (stage === undefined) throw new ConfigError(`no stage '${step.stage}'`);
    const inputs = step.in?.map(at) ?? (previous === undefined ? [] : [previous]);
    // a cove stage runs in this process: its file settings are read from the pipeline file's folder (a command
    // runs in that folder and gets them as written)
    const settings =
      step.command === undefined
        ? resolvePaths(step.settings ?? {}, stage.pathSettings ?? [], at)
        : (step.settings ?? {});
    if (step.use !== undefined) {
      const file = at(step.use);
      readRecords(stage.name, file, stage.output); // checked: a saved output must be this stage's records
      options.log?.(`${stage.name}: using the saved ${file}`);
      steps.push({ stage: stage.name, out: file, summary: null });
      previous = file;
      continue;
    }
    const out = step.out === undefined ? join(dir, `${stage.name}.jsonl`) : at(step.out);
    mkdirSync(dirname(out), { recursive: true });
    let summary: StageSummary;
    if (step.command !== undefined) {
      if (inputs.length > 1)
        throw new ConfigError(`stage ${stage.name}: a command step reads one input file`);
      summary = await runExternalStage({
        stage,
        command: step.command,
        input: inputs[0],
        out,
        seed: config.seed,
        settings,
        cwd: base,
        env: options.env,
      });
    } else {
      const m = { ...config.model, ...step.model };
      const flags = options.model ?? {};
      const model = stageModel(
        stage,
        {
          model: flags.model ?? m.model,
          baseUrl: flags.baseUrl ?? m.base_url,
          apiKeyEnv: flags.apiKeyEnv ?? m.api_key_env,
          temperature: flags.temperature ?? m.temperature,
          maxTokens: flags.maxTokens ?? m.max_tokens,
          seed: config.seed,
        },
        { roles: {}, prices: config.prices, budget: {} },
        options.env,
        endpoints,
      );
      summary = await runStage({
        stage,
        inputs,
        out,
        settings,
        seed: config.seed,
        concurrency: step.concurrency ?? config.concurrency,
        ...(model === undefined ? {} : { model }),
        ...(options.log === undefined ? {} : { log: options.log }),
      });
    }
    options.log?.(
      `${stage.name}: ${summary.records} record(s) in ${out}; ${summary.usage.prompt_tokens + summary.usage.completion_tokens} tokens`,
    );
    steps.push({ stage: stage.name, out, summary });
    previous = out;
  }
  let spec: SpecFromRecords | undefined;
  if (config.spec !== undefined) {
    if (previous === undefined || !existsSync(previous))
      throw new ConfigError('no step ran: no records to write a spec from');
    const records = readRecords('sql', previous, SqlToolRecord).map((r) => r.value);
    spec = writeSpecFromRecords(records, at(config.spec.out), config.spec.domain);
  }
  const total = { calls: 0, prompt_tokens: 0, completion_tokens: 0, cost_usd: 0, retries: 0 };
  for (const s of steps) {
    if (s.summary === null) continue;
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += s.summary.usage[k];
  }
  total.cost_usd = Math.round(total.cost_usd * 1e9) / 1e9;
  const summaryFile = join(dir, 'pipeline.summary.json');
  writeFileAtomic(
    summaryFile,
    `${JSON.stringify(
      {
        seed: config.seed,
        steps: steps.map((s) => ({
          stage: s.stage,
          out: s.out,
          summary: s.summary === null ? null : summaryPathOf(s.out),
          records: s.summary?.records ?? null,
          usage: s.summary?.usage ?? null,
          counts: s.summary?.counts ?? null,
        })),
        usage: total,
        ...(spec === undefined
          ? {}
          : {
              spec: {
                out: at(config.spec?.out ?? ''),
                tools: spec.spec.tools.map((t) => t.name),
                duplicates: spec.duplicates,
              },
            }),
      },
      null,
      2,
    )}\n`,
  );
  return { steps, ...(spec === undefined ? {} : { spec }), summaryFile };
}
