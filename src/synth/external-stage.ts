import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError } from '../core/errors.js';
import { canonicalSha256, sha256Hex } from '../core/hash.js';
import type { PyJsonInput } from '../core/py-json.js';
import { readRecords, StageRecordError } from './records.js';
import type { AnyStage } from './registry.js';
import { type StageSummary, summaryPathOf } from './run-stage.js';
import { zeroUsage } from './unit-context.js';

/**
 * A stage played by your own command (docs/synthesis-stages.md "Your own stage"). The command is run without a
 * shell as `<command…> --in <input.jsonl> --out <tmp.jsonl>`, with the input records also on its stdin and
 * `COVE_STAGE`, `COVE_SEED` and `COVE_SETTINGS` (JSON) in its environment. It must write the stage's output records
 * (JSON Lines) to the `--out` file and exit 0. cove then validates every record against the stage's output schema,
 * moves the file to its place and writes a summary.json (no usage: the command's own model calls are its own).
 * A rerun with the same command, settings, seed and input skips it.
 */

/** Options of {@link runExternalStage}. */
export interface ExternalStageOptions {
  readonly stage: AnyStage;
  readonly command: readonly string[];
  readonly input: string | undefined;
  readonly out: string;
  readonly seed: number;
  readonly settings: Readonly<Record<string, unknown>>;
  /** The folder the command runs in. */
  readonly cwd: string;
  /** The command's environment (cove adds COVE_STAGE, COVE_SEED, COVE_SETTINGS). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Runs the command (see the file comment). @throws {ConfigError} when it fails; StageRecordError for a bad record. */
export async function runExternalStage(options: ExternalStageOptions): Promise<StageSummary> {
  const { stage, out } = options;
  const inputBytes = options.input === undefined ? '' : sha256Hex(readFileSync(options.input, 'utf8'));
  const identity = canonicalSha256({
    command: [...options.command],
    seed: options.seed,
    settings: options.settings,
    input: inputBytes,
  } as unknown as PyJsonInput);
  const summaryFile = summaryPathOf(out);
  if (existsSync(out) && existsSync(summaryFile)) {
    const old = JSON.parse(readFileSync(summaryFile, 'utf8')) as StageSummary & { identity?: string };
    if (old.identity === identity) return old;
  }
  // the input is the stage's input: checked before the command sees it
  const inputRecords =
    options.input === undefined ? 0 : readRecords(stage.name, options.input, stage.input).length;
  const tmp = `${out}.tmp`;
  rmSync(tmp, { force: true });
  const [program, ...args] = options.command as [string, ...string[]];
  const stdin = options.input === undefined ? 'ignore' : openSync(options.input, 'r');
  let stderr = '';
  const code = await new Promise<number | null>((done, fail) => {
    const child = spawn(
      program,
      [...args, ...(options.input === undefined ? [] : ['--in', options.input]), '--out', tmp],
      {
        cwd: options.cwd,
        stdio: [stdin, 'ignore', 'pipe'],
        env: {
          ...options.env,
          COVE_STAGE: stage.name,
          COVE_SEED: String(options.seed),
          COVE_SETTINGS: JSON.stringify(options.settings),
        },
      },
    );
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-4000);
    });
    child.once('error', (e) =>
      fail(new ConfigError(`stage ${stage.name}: cannot run ${program}: ${e.message}`)),
    );
    child.once('close', (c) => done(c));
  }).finally(() => {
    if (typeof stdin === 'number') closeSync(stdin);
  });
  if (code !== 0)
    throw new ConfigError(
      `stage ${stage.name}: ${options.command.join(' ')} exited with ${code}${stderr.trim() === '' ? '' : `: ${stderr.trim()}`}`,
    );
  if (!existsSync(tmp))
    throw new ConfigError(`stage ${stage.name}: ${options.command.join(' ')} wrote no --out file`);
  let records: ReturnType<typeof readRecords>;
  try {
    records = readRecords(stage.name, tmp, stage.output);
  } catch (e) {
    if (!(e instanceof StageRecordError)) throw e;
    // the file is the command's output: the fix is in the command (the file is kept to look at)
    throw new StageRecordError(
      stage.name,
      tmp,
      e.line,
      e.path.slice(`line ${e.line} `.length),
      `${e.reason.replace(/ \(stage [^)]*\)$/, '')}; written by ${options.command.join(' ')}: fix the command (its output is kept in this file)`,
    );
  }
  renameSync(tmp, out);
  const inputs = options.input === undefined ? [] : [options.input];
  const summary: StageSummary & { identity: string; command: readonly string[] } = {
    stage: stage.name,
    role: 'external',
    model: null,
    seed: options.seed,
    settings: options.settings,
    inputs,
    input_records: inputRecords,
    units: { total: 1, done: 1, failed: 0 },
    records: records.length,
    usage: zeroUsage(),
    interrupted_usage: zeroUsage(),
    counts: {},
    notes: [],
    command: options.command,
    identity,
  };
  writeFileAtomic(summaryFile, `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
