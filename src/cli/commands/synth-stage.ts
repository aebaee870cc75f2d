import { type Command, Option } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { readPlainJson } from '../../io/read-input.js';
import type { AnyStage } from '../../synth/registry.js';
import { runStage } from '../../synth/run-stage.js';
import { stageConfig, stageModel } from '../../synth/stage-model.js';
import { intFlag } from '../db-source.js';
import { prepareOutputFile } from '../output-paths.js';

/** Flags every `cove synth <stage>` takes. */
export interface StageCommandFlags {
  in?: string[];
  out?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  config?: string;
  temperature?: string;
  maxTokens?: string;
  seed: string;
  concurrency: string;
  settings?: string;
  set?: string[];
  quiet?: boolean;
  [stageFlag: string]: unknown;
}

/** Adds the common stage flags (and the stage's own) to `command`. */
export function addStageOptions(command: Command, stage: AnyStage, inRequired: boolean): Command {
  const input = '--in <files...>';
  const inDescription = `${stage.name} input records (JSON Lines; several files are read in order)`;
  if (inRequired && stage.sourceRecords === undefined) command.requiredOption(input, inDescription);
  else command.option(input, `${inDescription}; runs the ${stage.name} stage alone`);
  command
    .option('--model <openai:model>', 'model of the stage (or roles.synth.model in --config)')
    .option('--base-url <url>', 'OpenAI-compatible base URL (vLLM, SGLang, OpenAI)')
    .option('--api-key-env <name>', 'environment variable holding the API key')
    .option('--config <file>', 'cove config (roles.synth / roles.judge, prices for the cost)')
    .option('--temperature <t>', 'sampling temperature')
    .option('--max-tokens <n>', 'most completion tokens per call')
    .option('--seed <n>', 'seed of every random draw, also sent to the model', '1')
    .option('--concurrency <n>', 'units of work run at once', '4')
    .option('--settings <file>', 'JSON object of stage settings')
    .option('--set <key=value...>', 'one stage setting (value read as JSON when it parses, else as text)')
    .option('--quiet', 'no progress lines');
  for (const f of stage.flags ?? []) command.option(f.flag, f.description);
  return command;
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The settings of a stage from `--settings`, the stage's own flags, then `--set`. */
export function stageSettings(stage: AnyStage, flags: StageCommandFlags): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  if (flags.settings !== undefined) {
    const value = readPlainJson(flags.settings, { what: '--settings' });
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new ConfigError(`--settings ${flags.settings}: expected a JSON object of settings`);
    Object.assign(settings, value);
  }
  for (const f of stage.flags ?? []) {
    const option = new Option(f.flag);
    const raw = flags[option.attributeName()];
    if (raw === undefined) continue;
    const text = String(raw);
    settings[f.setting] =
      f.type === 'int' ? intFlag(option.long ?? f.flag, text, 0) : f.type === 'number' ? Number(text) : text;
  }
  for (const pair of flags.set ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ConfigError(`--set expects key=value, not '${pair}'`);
    settings[pair.slice(0, eq)] = jsonOrText(pair.slice(eq + 1));
  }
  return settings;
}

/** Runs one stage as `cove synth <stage>` does: validates flags, runs, prints the summary's counts. */
export async function runStageCommand(stage: AnyStage, flags: StageCommandFlags): Promise<void> {
  if ((flags.in === undefined || flags.in.length === 0) && stage.sourceRecords === undefined)
    throw new ConfigError(`${stage.name}: give --in <file>`);
  if (flags.out === undefined) throw new ConfigError(`${stage.name}: give --out <file>`);
  const seed = intFlag('--seed', flags.seed, 1);
  const concurrency = intFlag('--concurrency', flags.concurrency, 4, 1, 256);
  const settings = stageSettings(stage, flags);
  prepareOutputFile('--out', flags.out);
  const model = stageModel(
    stage,
    {
      model: flags.model,
      baseUrl: flags.baseUrl,
      apiKeyEnv: flags.apiKeyEnv,
      temperature: flags.temperature === undefined ? undefined : Number(flags.temperature),
      maxTokens: flags.maxTokens === undefined ? undefined : intFlag('--max-tokens', flags.maxTokens, 1, 1),
      seed,
    },
    stageConfig(flags.config),
    process.env,
  );
  const summary = await runStage({
    stage,
    inputs: flags.in ?? [],
    out: flags.out,
    settings,
    seed,
    concurrency,
    ...(model === undefined ? {} : { model }),
    ...(flags.quiet === true ? {} : { log: (line: string) => process.stderr.write(`${line}\n`) }),
  });
  const counts = Object.entries(summary.counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  process.stderr.write(
    `${stage.name}: ${summary.records} record(s) in ${flags.out} from ${summary.input_records} input record(s); ${summary.usage.prompt_tokens + summary.usage.completion_tokens} tokens, $${summary.usage.cost_usd}${counts === '' ? '' : `; ${counts}`}\n`,
  );
}

/** Registers `cove synth <stage>` for every stage but `skip` (commands registered elsewhere). */
export function registerStageCommands(
  synth: Command,
  stages: Iterable<AnyStage>,
  skip: ReadonlySet<string>,
): void {
  for (const stage of stages) {
    if (skip.has(stage.name)) continue;
    const command = synth
      .command(stage.name)
      .description(`${stage.description} (stage; docs/synthesis-stages.md)`)
      .requiredOption('--out <file>', 'output records (JSON Lines); its .summary.json is written beside it');
    addStageOptions(command, stage, true).action((flags: StageCommandFlags) => runStageCommand(stage, flags));
  }
}
