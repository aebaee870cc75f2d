import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { Tau2Simulation } from '../tau2/results-file.js';
import { writeTau2Results } from '../tau2/results-file.js';
import { FileStats, renderCard } from './card.js';
import { hasPrefix } from './conversation.js';
import { hfRow } from './formats/hf.js';
import { openAiRow } from './formats/openai.js';
import { datasetInfoEntry, shareGptRow } from './formats/sharegpt.js';
import { recordSimulation } from './formats/tau2.js';
import { VerlParquetWriter, verlRow } from './formats/verl.js';
import { type Built, type Group, type Item, tau2Groups, trajectoryGroups } from './groups.js';
import { JsonlWriter } from './jsonl-writer.js';
import type { Tau2Hints } from './prompts.js';
import type { SelectOptions } from './select.js';
import { inputName, resolveInput } from './source.js';
import { assignSplits, type SplitSpec } from './split.js';

/** The formats of `cove export`. */
export const EXPORT_FORMATS = ['hf', 'openai', 'sharegpt', 'verl', 'tau2'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const EXTENSIONS: Record<ExportFormat, string> = {
  hf: 'jsonl',
  openai: 'jsonl',
  sharegpt: 'jsonl',
  verl: 'parquet',
  tau2: 'json',
};

const NOTES: Record<ExportFormat, string> = {
  hf: 'Rows are `{messages, tools}` for TRL `SFTTrainer`, Axolotl `type: chat_template` and Unsloth: tool-call `arguments` are JSON objects, `tools` is a JSON string. The fixed greeting is kept as the first assistant turn; the user’s final stop turn is left out. Assistant messages of a conversation prefix (`cove generate --from`) carry `train: false` and `weight: 0` (Axolotl: `message_field_training: train`).',
  openai:
    'Rows are OpenAI chat fine-tuning lines: `arguments` are JSON strings, every assistant message has a `weight` (0 on the fixed greeting, which no model wrote, and on the messages of a conversation prefix given with `cove generate --from`), `parallel_tool_calls` is set per row. The user’s final stop turn is left out.',
  sharegpt:
    'Rows are LLaMA-Factory ShareGPT (`human`/`gpt`/`function_call`/`observation`, the system prompt in `system`, `tools` a JSON string); register them with `dataset_info.json`. Several calls in one turn are one `function_call` holding a JSON list, their results one `observation`. The fixed greeting and the user’s final stop turn are left out; conversations that continue a prefix (`cove generate --from`) are left out (no per-turn weight).',
  verl: 'Rows are Parquet for verl’s multi-turn SFT dataset (`messages`, `tools`, `data_source`, `extra_info`); `tools`, `extra_info` and tool-call `arguments` are JSON strings (no Arrow struct unification). Train with `data.custom_cls.path=cove_verl_dataset.py data.custom_cls.name=CoveMultiTurnSFTDataset`. The user’s final stop turn is left out; conversations that continue a prefix (`cove generate --from`) are left out (verl trains every assistant turn).',
  tau2: 'The file is τ²-bench’s results format (`tau2 view --file …` shows it); every message of each trajectory is kept.',
};

/** Everything `cove export` needs. */
export interface ExportOptions {
  readonly input: string;
  readonly format: ExportFormat;
  readonly out: string;
  readonly select: SelectOptions;
  /** Undefined: one file, `data.<ext>`. */
  readonly splits?: readonly SplitSpec[] | undefined;
  readonly seed: number;
  readonly force: boolean;
  readonly tau2: Tau2Hints;
  readonly coveVersion: string;
}

/** What an export wrote. */
export interface ExportResult {
  readonly files: readonly { name: string; split: string; rows: number; skipped: number }[];
  readonly total: number;
  readonly selected: number;
}

/**
 * Checks that `out` is a new or empty folder (or `force`), creating it, and that it takes new files.
 * @throws {ConfigError} naming the folder
 */
function prepareOut(out: string, force: boolean): void {
  if (existsSync(out)) {
    if (!statSync(out).isDirectory()) throw new ConfigError(`--out ${out} exists and is not a folder`);
    if (readdirSync(out).length > 0 && !force) {
      throw new ConfigError(
        `--out ${out} exists and is not empty; choose another folder or pass --force to write into it`,
      );
    }
  }
  const fail = (what: string, e: unknown, todo: string) =>
    new ConfigError(`--out ${out}: ${what} (${(e as NodeJS.ErrnoException).code ?? String(e)}); ${todo}`);
  try {
    mkdirSync(out, { recursive: true });
  } catch (e) {
    throw fail('cannot create this folder', e, 'give a path whose parents are folders you may write');
  }
  // before any work: the folder must take new files (a probe file, removed at once)
  const probe = join(out, `.cove-write-check.${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (e) {
    throw fail('cannot write in this folder', e, 'fix its permissions (chmod u+w) or choose another --out');
  }
}

/**
 * Exports selected trajectories of a run folder, a `trajectories.jsonl` or a τ² results file into `out` in one
 * trainer's format: `data.<ext>` (or one file per split), the dataset card `README.md`, and for `sharegpt` a
 * `dataset_info.json`, for `verl` a `cove_verl_dataset.py`. `trajectories.jsonl` is streamed twice (an index of
 * positions, then the selected lines in training order), so memory grows with the number of trajectories only by
 * a small index entry each. Splits hold whole tasks ({@link assignSplits}).
 * @throws {ConfigError} for a bad input or output folder; {@link InputFileError} for a malformed input file
 */
export async function runExport(o: ExportOptions): Promise<ExportResult> {
  const input = resolveInput(o.input);
  const created = !existsSync(o.out);
  prepareOut(o.out, o.force);
  const ext = EXTENSIONS[o.format];
  const files: { name: string; split: string; stats: FileStats }[] = [];
  let built: Built;
  try {
    built = input.kind === 'tau2' ? tau2Groups(input, o, ext) : await trajectoryGroups(input, o, ext);
    for (const g of built.groups) {
      const stats = new FileStats();
      files.push({ name: g.name, split: g.split, stats });
      await writeGroup(o, join(o.out, g.name), g, stats, built);
    }
  } catch (e) {
    // no half-written export is left behind (a rerun would find the folder not empty)
    for (const f of files) rmSync(join(o.out, f.name), { force: true });
    if (created && readdirSync(o.out).length === 0) rmSync(o.out, { recursive: true, force: true });
    throw e;
  }
  if (o.format === 'sharegpt') {
    const info = Object.fromEntries(files.map((f) => [`cove_${f.split}`, datasetInfoEntry(f.name)]));
    writeFileSync(join(o.out, 'dataset_info.json'), `${JSON.stringify(info, null, 2)}\n`);
  }
  if (o.format === 'verl') {
    const { VERL_DATASET_PY } = await import('./verl-dataset-py.js');
    writeFileSync(join(o.out, 'cove_verl_dataset.py'), VERL_DATASET_PY);
  }
  writeFileSync(
    join(o.out, 'README.md'),
    renderCard({
      format: o.format,
      formatNote: NOTES[o.format],
      input: inputName(input),
      inputKind:
        input.kind === 'tau2'
          ? 'τ² results file'
          : input.runDir !== undefined
            ? 'cove run folder'
            : 'trajectories file',
      files,
      total: built.total,
      dropped: built.dropped,
      damagedLines: built.damaged,
      settings: {
        format: o.format,
        min_score: o.select.minScore,
        state_match: o.select.stateMatch,
        domains: o.select.domains ?? null,
        split: o.splits === undefined ? null : Object.fromEntries(o.splits.map((s) => [s.name, s.fraction])),
        seed: o.seed,
        run: built.run ?? null,
      },
      coveVersion: o.coveVersion,
      sourceDb: built.sourceDb,
      benchmarkData: built.benchmarkData,
    }),
  );
  return {
    files: files.map((f) => ({
      name: f.name,
      split: f.split,
      rows: f.stats.rows,
      skipped: [...f.stats.skipped.values()].reduce((a, b) => a + b, 0),
    })),
    total: built.total,
    selected: built.selected,
  };
}

async function writeGroup(
  o: ExportOptions,
  file: string,
  g: Group,
  stats: FileStats,
  built: Built,
): Promise<void> {
  if (o.format === 'verl') {
    const w = new VerlParquetWriter(file, `cove ${o.coveVersion}`);
    for await (const { conv } of g.items()) {
      // verl trains every assistant turn: a conversation prefix (`--from`) cannot be kept out of the loss
      if (hasPrefix(conv)) {
        stats.skip('prefix_not_maskable');
        continue;
      }
      w.add(verlRow(conv));
      stats.add(conv);
    }
    w.close();
    return;
  }
  if (o.format === 'tau2') {
    await writeTau2Group(o, file, g, stats, built);
    return;
  }
  const w = new JsonlWriter(file);
  for await (const { conv } of g.items()) {
    if (o.format === 'sharegpt') {
      const row = shareGptRow(conv);
      if ('skip' in row) {
        stats.skip(row.skip);
        continue;
      }
      await w.write(row);
    } else {
      await w.write(o.format === 'hf' ? hfRow(conv) : openAiRow(conv));
    }
    stats.add(conv);
  }
  await w.close();
}

async function writeTau2Group(
  o: ExportOptions,
  file: string,
  g: Group,
  stats: FileStats,
  built: Built,
): Promise<void> {
  const source = g.items();
  async function* lift(): AsyncGenerator<Item> {
    yield* source;
  }
  const iterator = lift();
  const firstStep = await iterator.next();
  const first = firstStep.done === true ? undefined : (firstStep.value as Item);
  const head = first === undefined || built.tau2 === undefined ? undefined : built.tau2(g, first);
  let domain: string | undefined;
  let startMs = Date.parse(`${head?.timestamp ?? '1970-01-01T00:00:00'}Z`);
  async function* simulations(): AsyncGenerator<Tau2Simulation> {
    let step = firstStep;
    while (step.done !== true) {
      const item = step.value as Item;
      domain ??= item.conv.domain;
      if (item.conv.domain !== domain) {
        throw new ConfigError(
          `--format tau2 writes one domain per file; the input mixes ${domain} and ${item.conv.domain} (use --domain)`,
        );
      }
      stats.add(item.conv);
      if (item.sim !== undefined) yield item.sim;
      else if (item.record !== undefined) {
        yield recordSimulation(item.record, startMs);
        startMs += item.record.timing_ms;
      }
      step = await iterator.next();
    }
  }
  await writeTau2Results(file, {
    timestamp: head?.timestamp ?? '',
    info: head?.info ?? emptyInfo(o),
    tasks: head?.tasks ?? [],
    simulations: simulations(),
  });
}

/** τ²'s Info of an export that selected nothing. */
function emptyInfo(o: ExportOptions): Parameters<typeof writeTau2Results>[1]['info'] {
  return {
    git_commit: `cove-${o.coveVersion}`,
    num_trials: 0,
    max_steps: 200,
    max_errors: 10,
    user_info: { implementation: 'none' },
    agent_info: { implementation: 'none' },
    environment_info: { domain_name: o.select.domains?.[0] ?? 'unknown', policy: '' },
  };
}
