import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { EXPORT_FORMATS, type ExportFormat, runExport } from '../../export/export.js';
import { parseSplit } from '../../export/split.js';
import { COVE_VERSION } from '../../version.js';

interface ExportCliOptions {
  in: string;
  format: string;
  out: string;
  minScore: string;
  stateMatch: boolean;
  domain?: string;
  split?: string;
  seed: string;
  force?: boolean;
  tau2Data?: string;
}

/** `cove export`: selected trajectories → one trainer's format, with a dataset card. */
export function registerExport(program: Command): void {
  program
    .command('export')
    .description(
      'export verified trajectories for a trainer: hf (TRL/Axolotl/Unsloth), openai, sharegpt (LLaMA-Factory), verl (Parquet), tau2',
    )
    .requiredOption('--in <path>', 'a run folder, a trajectories.jsonl, or a τ² results .json file')
    .requiredOption('--format <name>', `output format: ${EXPORT_FORMATS.join(', ')}`)
    .requiredOption('--out <dir>', 'output folder (created; refused when not empty unless --force)')
    .option('--min-score <x>', 'lowest CoVe score (or τ² reward) kept', '1')
    .option('--state-match', 'require the final DB to equal the gold one (CoVe records)', true)
    .option('--no-state-match', 'do not require stateMatch')
    .option('--domain <list>', 'comma-separated domains to keep (default: all)')
    .option('--split <spec>', 'split by task, e.g. train=0.95,test=0.05 (default: one file, data.<ext>)')
    .option('--seed <n>', 'seed of the split', '1')
    .option('--force', 'write into a non-empty --out folder (files of the same names are replaced)')
    .option('--tau2-data <dir>', 'τ² data directory (for --text tau2 runs and τ² results input)')
    .action(async (options: ExportCliOptions) => {
      if (!(EXPORT_FORMATS as readonly string[]).includes(options.format)) {
        throw new ConfigError(
          `--format must be one of ${EXPORT_FORMATS.join(', ')}, not '${options.format}'`,
        );
      }
      const minScore = Number(options.minScore);
      if (options.minScore.trim() === '' || !(minScore >= 0 && minScore <= 1)) {
        throw new ConfigError(`--min-score must be a number in [0, 1], not '${options.minScore}'`);
      }
      const seed = /^\d+$/.test(options.seed.trim()) ? Number(options.seed) : Number.NaN;
      if (!Number.isSafeInteger(seed))
        throw new ConfigError(`--seed must be a non-negative integer, not '${options.seed}'`);
      const domains = options.domain?.split(',').map((d) => d.trim());
      if (domains?.some((d) => d === ''))
        throw new ConfigError(`--domain must be names separated by commas, not '${options.domain}'`);
      const result = await runExport({
        input: options.in,
        format: options.format as ExportFormat,
        out: options.out,
        select: { minScore, stateMatch: options.stateMatch, domains },
        splits: options.split === undefined ? undefined : parseSplit(options.split),
        seed,
        force: options.force === true,
        tau2: { explicit: options.tau2Data, fromEnv: process.env.COVE_TAU2_DATA },
        coveVersion: COVE_VERSION,
      });
      const files = result.files
        .map((f) => `${f.name} ${f.rows}${f.skipped > 0 ? ` (${f.skipped} left out: format)` : ''}`)
        .join(', ');
      console.error(
        `cove export: ${result.selected} of ${result.total} trajectories selected → ${options.out}: ${files}`,
      );
    });
}
