import { basename, dirname, relative, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { type Command, Option } from 'commander';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { ConfigError } from '../../core/errors.js';
import { readSchema } from '../../domains/sql/schema-info.js';
import { synthTools } from '../../domains/sql/synth-tools.js';
import { readSqliteImage } from '../../env/sql-collections.js';
import type { CoveConfig } from '../../llm/config.js';
import { PipelineJson, readPipelineConfig, runPipeline } from '../../synth/pipeline.js';
import { STAGES } from '../../synth/registry.js';
import { stageConfig } from '../../synth/stage-model.js';
import { toolsStage } from '../../synth/stages/tools.js';
import { intFlag } from '../db-source.js';
import { prepareOutputFile } from '../output-paths.js';
import {
  addStageOptions,
  registerStageCommands,
  runStageCommand,
  type StageCommandFlags,
} from './synth-stage.js';

interface SynthToolsFlags {
  db?: string;
  tables?: string;
  maxTools: string;
  name?: string;
  out: string;
  questions: string;
  maxNew: string;
  repairs: string;
  work?: string;
}

/**
 * The pipeline file of `cove synth pipeline`: `--pipeline`, or `--config` (its old name, with a note on stderr).
 * @throws {ConfigError} when neither or both are given.
 */
function pipelineFile(flags: { pipeline?: string; config?: string }): string {
  if (flags.pipeline !== undefined && flags.config !== undefined)
    throw new ConfigError('give the pipeline file once, with --pipeline (--config is its old name)');
  if (flags.pipeline !== undefined) return flags.pipeline;
  if (flags.config === undefined)
    throw new ConfigError('cove synth pipeline needs --pipeline <pipeline.json> (docs/synthesis-stages.md)');
  process.stderr.write(
    'note: --config of cove synth pipeline is now --pipeline (elsewhere --config is the cove config)\n',
  );
  return flags.config;
}

/** `cove synth tools`: derives a SQL domain spec (tools as SQL templates) from a SQLite database's schema. */
export function registerSynth(program: Command): void {
  const synth = program
    .command('synth')
    .description('derive domain material from a database; run model-driven synthesis stages');
  registerStageCommands(synth, STAGES.values(), new Set(['tools']));
  synth
    .command('pipeline')
    .description('run a list of stages given as data (docs/synthesis-stages.md "Pipelines")')
    .option('--pipeline <file>', 'pipeline.json: dir, seed, model, prices, stages, spec (required)')
    // the old name: elsewhere --config is the cove config (roles, prices), so it is kept only as a hidden alias
    .addOption(new Option('--config <file>', 'the old name of --pipeline').hideHelp())
    .option('--model <openai:model>', 'model of every cove stage (over the pipeline file’s)')
    .option('--base-url <url>', 'OpenAI-compatible base URL (over the pipeline file’s)')
    .option('--api-key-env <name>', 'environment variable holding the API key')
    .option('--quiet', 'no progress lines')
    .action(
      async (flags: {
        pipeline?: string;
        config?: string;
        model?: string;
        baseUrl?: string;
        apiKeyEnv?: string;
        quiet?: boolean;
      }) => {
        const file = pipelineFile(flags);
        const config = readPipelineConfig(file);
        const result = await runPipeline({
          config,
          base: dirname(resolve(file)),
          model: { model: flags.model, baseUrl: flags.baseUrl, apiKeyEnv: flags.apiKeyEnv },
          env: process.env,
          ...(flags.quiet === true ? {} : { log: (line: string) => process.stderr.write(`${line}\n`) }),
        });
        const spec = result.spec === undefined ? '' : `; spec with ${result.spec.spec.tools.length} tool(s)`;
        process.stderr.write(
          `pipeline done: ${result.steps.length} step(s)${spec}; totals in ${result.summaryFile}\n`,
        );
      },
    );
  const tools = synth
    .command('tools')
    .description(
      'write a SQL domain spec from a SQLite database: derived from the schema (no model), or with --model by the ' +
        'stages questions → tools → expand → schemas → sql; with --in, run the tools stage alone',
    )
    .option('--db <sqlite>', 'SQLite database file (read, never written)')
    .option('--tables <list>', 'comma-separated tables to cover (default: all)')
    .option('--max-tools <n>', 'most tools to keep (schema-derived path)', '12')
    .option('--name <name>', 'domain name (default: from the file name)')
    .requiredOption('--out <file>', 'spec.json to write (with --in: the tools stage’s records)')
    .option('--questions <n>', 'with --model: questions asked for', '12')
    .option('--max-new <n>', 'with --model: most tools the expand stage adds', '10')
    .option('--repairs <n>', 'with --model: times a failing SQL template goes back to the model', '2')
    .option('--work <dir>', 'with --model: folder of the stages’ records (default: <out>.stages)');
  addStageOptions(tools, toolsStage, false);
  tools.action(async (flags: SynthToolsFlags & StageCommandFlags) => {
    if (flags.in !== undefined) {
      if (flags.db !== undefined)
        throw new ConfigError('give --db (a whole spec) or --in (the tools stage), not both');
      return runStageCommand(toolsStage, flags);
    }
    if (flags.db === undefined)
      throw new ConfigError('cove synth tools needs --db <sqlite> (or --in <questions.jsonl>)');
    const cove = stageConfig(flags.config);
    if (flags.model !== undefined || cove.roles.synth?.model !== undefined)
      return synthToolsWithModel(flags, cove);
    return synthToolsFromSchema({ ...flags, db: flags.db });
  });
}

/** The schema-derived path of `cove synth tools` (no model). */
function synthToolsFromSchema(flags: SynthToolsFlags & { db: string }): void {
  {
    const maxTools = intFlag('--max-tools', flags.maxTools, 12, 1, 200);
    const image = readSqliteImage(flags.db);
    prepareOutputFile('--out', flags.out);
    const db = new Database(image);
    try {
      const tables = readSchema(db);
      const wanted = flags.tables?.split(',').map((t) => t.trim());
      const unknown = wanted?.filter((t) => !tables.some((x) => x.name === t)) ?? [];
      if (unknown.length > 0)
        throw new ConfigError(
          `--tables: no table ${unknown.map((t) => `'${t}'`).join(', ')} in ${flags.db} (tables: ${tables.map((t) => t.name).join(', ')})`,
        );
      const name =
        flags.name ??
        (basename(flags.db)
          .replace(/\.[^.]*$/, '')
          .toLowerCase()
          .replace(/[^a-z0-9_-]+/g, '_')
          .replace(/^[^a-z]+/, '') ||
          'sql');
      const result = synthTools(db, tables, {
        name,
        maxTools,
        databasePath: relative(dirname(resolve(flags.out)), resolve(flags.db)),
        ...(wanted === undefined ? {} : { tables: wanted }),
      });
      if (result.spec.tools.length === 0) throw new ConfigError(`no tool could be derived from ${flags.db}`);
      writeFileAtomic(flags.out, `${JSON.stringify(result.spec, null, 2)}\n`);
      for (const d of result.dropped) process.stderr.write(`dropped ${d.tool}: ${d.reason}\n`);
      process.stderr.write(`wrote ${flags.out}: ${result.spec.tools.map((t) => t.name).join(', ')}\n`);
    } finally {
      db.close();
    }
  }
}

/** `cove synth tools --db … --model …`: the stages questions → tools → expand → schemas → sql, then the spec. */
async function synthToolsWithModel(
  flags: SynthToolsFlags & StageCommandFlags,
  cove: CoveConfig,
): Promise<void> {
  prepareOutputFile('--out', flags.out);
  readSqliteImage(flags.db as string); // a bad file is reported before any model call
  const work = flags.work ?? `${flags.out.replace(/\.json$/, '')}.stages`;
  const tables = flags.tables?.split(',').map((t) => t.trim());
  const seed = intFlag('--seed', flags.seed, 1);
  const config = PipelineJson.parse({
    dir: resolve(work),
    seed,
    concurrency: intFlag('--concurrency', flags.concurrency, 4, 1, 256),
    prices: cove.prices,
    stages: [
      {
        stage: 'questions',
        settings: {
          db: resolve(flags.db as string),
          ...(flags.name === undefined ? {} : { name: flags.name }),
          ...(tables === undefined ? {} : { tables }),
          count: intFlag('--questions', flags.questions, 12, 1, 100),
        },
      },
      { stage: 'tools' },
      { stage: 'expand', settings: { max_new: intFlag('--max-new', flags.maxNew, 10, 0, 50) } },
      { stage: 'schemas' },
      { stage: 'sql', settings: { repairs: intFlag('--repairs', flags.repairs, 2, 0, 10) } },
    ],
    spec: { out: resolve(flags.out) },
  });
  const synthRole = cove.roles.synth ?? {};
  const result = await runPipeline({
    config,
    base: process.cwd(),
    model: {
      model: flags.model ?? synthRole.model,
      baseUrl: flags.baseUrl ?? synthRole.base_url,
      apiKeyEnv: flags.apiKeyEnv ?? synthRole.api_key_env,
      temperature: flags.temperature === undefined ? synthRole.temperature : Number(flags.temperature),
      maxTokens:
        flags.maxTokens === undefined ? synthRole.max_tokens : intFlag('--max-tokens', flags.maxTokens, 1, 1),
    },
    env: process.env,
    ...(flags.quiet === true ? {} : { log: (line: string) => process.stderr.write(`${line}\n`) }),
  });
  for (const d of result.spec?.duplicates ?? []) process.stderr.write(`dropped ${d.tool}: ${d.reason}\n`);
  process.stderr.write(
    `wrote ${flags.out}: ${result.spec?.spec.tools.map((t) => t.name).join(', ')} (stages in ${work}, totals in ${result.summaryFile})\n`,
  );
}
