import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { sha256Hex } from '../core/hash.js';
import type { RunPaths } from './run-folder.js';

/**
 * A run folder's identity lives in several files, so that deleting or damaging one of them never lets a second
 * run be mixed into the folder: run.json (the settings), and the run id (a hash of the settings) on every
 * trajectory record, in summary.json and on the first line of tasks.partial.jsonl. See docs/run-folder.md.
 */

/** What decides a `cove generate` run's identity (see {@link generateFingerprint}). */
export interface GenerateIdentity {
  readonly domain: string;
  /** Where the tasks come from: `sandbox:<seed>`, `db:<canonical sha256>` or `tasks:<hash of the file>`. */
  readonly source: string;
  readonly seed: number;
  /** How tasks are synthesized; absent for a tasks file (its settings are in each task, its hash in `source`). */
  readonly synthesis?: {
    readonly difficulty: string;
    readonly fuzz: number;
    readonly k?: number;
    /** `--goals`; recorded only when set, so run folders made before it existed still resume. */
    readonly goals?: number;
    /** A preset task mix; `uniform` (the default) is not recorded. */
    readonly mix?: string;
  };
  readonly semantics: string;
  readonly text: string;
  readonly agent: string;
  readonly user: string;
  /** `--user-style`; recorded only when not the default `stop-token`, so earlier run folders still resume. */
  readonly userStyle?: string;
  /** The rubric judge of descriptive tasks (`--judge`); recorded only when set, so earlier run folders still resume. */
  readonly judge?: string;
  /** `--from`: the sha256 of the conversations file (a changed file is another run); recorded only when set. */
  readonly from?: string;
  /** `--tool-outputs model` and the model that played the tools; recorded only then (earlier folders resume). */
  readonly toolOutputs?: 'model';
  readonly toolModel?: string;
}

/**
 * The fingerprint of a `cove generate` run: the settings that must match to resume it, in a fixed key order (its
 * JSON's hash is the run's id, {@link runIdOf}). A smaller or larger `--n`, the concurrency or the attempts are not
 * part of it: they continue the same run.
 */
export function generateFingerprint(identity: GenerateIdentity): Record<string, unknown> {
  const synthesis = identity.synthesis;
  return {
    domain: identity.domain,
    source: identity.source,
    seed: identity.seed,
    difficulty: synthesis === undefined ? null : synthesis.difficulty,
    fuzz: synthesis === undefined ? null : synthesis.fuzz,
    k: synthesis?.k ?? null,
    ...(synthesis?.goals === undefined ? {} : { goals: synthesis.goals }),
    // recorded only when set, so run folders made before presets existed still resume
    ...(synthesis?.mix !== undefined && synthesis.mix !== 'uniform' ? { mix: synthesis.mix } : {}),
    semantics: identity.semantics,
    text: identity.text,
    agent: identity.agent,
    user: identity.user,
    ...(identity.userStyle === undefined || identity.userStyle === 'stop-token'
      ? {}
      : { user_style: identity.userStyle }),
    ...(identity.judge === undefined ? {} : { judge: identity.judge }),
    ...(identity.from === undefined ? {} : { from: identity.from }),
    ...(identity.toolOutputs === undefined
      ? {}
      : { tool_outputs: identity.toolOutputs, tool_model: identity.toolModel ?? null }),
  };
}

/** A run's id: a short hash of its settings (the same settings give the same id, in any folder). */
export function runIdOf(fingerprint: Readonly<Record<string, unknown>>): string {
  return `run-${sha256Hex(JSON.stringify(fingerprint)).slice(0, 12)}`;
}

/** "seed 1 → 2, source sandbox:1 → sandbox:2": the settings that differ between two fingerprints. */
export function describeDifference(
  before: Readonly<Record<string, unknown>>,
  now: Readonly<Record<string, unknown>>,
): string {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(now)])];
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  const diffs = keys
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(now[k]))
    .map((k) => `${k} ${show(before[k])} → ${show(now[k])}`);
  return diffs.length === 0 ? 'settings recorded differently' : diffs.join(', ');
}

/** The `run` field of the first parsable line among the first bytes of a JSONL file, if any. */
function firstRunField(file: string): string | undefined {
  if (!existsSync(file) || !statSync(file).isFile()) return undefined;
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(4 * 1024 * 1024);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const lines = buffer.subarray(0, n).toString('utf8').split('\n').slice(0, -1);
    for (const line of lines) {
      try {
        const value = JSON.parse(line) as { run?: unknown };
        if (typeof value?.run === 'string') return value.run;
      } catch {
        // a damaged line: the next one may tell
      }
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function summaryRun(file: string): string | undefined {
  if (!existsSync(file) || !statSync(file).isFile()) return undefined;
  try {
    const run = (JSON.parse(readFileSync(file, 'utf8')) as { run?: unknown }).run;
    return typeof run === 'string' ? run : undefined;
  } catch {
    return undefined; // summary.json is derived and rewritten at the end of the run
  }
}

/**
 * Checks that the files of the folder other than run.json belong to the run `runId`: trajectories.jsonl,
 * tasks.partial.jsonl and summary.json. @throws {ConfigError} naming the file, the run it holds and what to do.
 */
export function checkRunIds(paths: RunPaths, runId: string): void {
  const found: [string, string | undefined][] = [
    [paths.trajectories, firstRunField(paths.trajectories)],
    [paths.tasksPartial, firstRunField(paths.tasksPartial)],
    [paths.summary, summaryRun(paths.summary)],
  ];
  for (const [file, id] of found) {
    if (id !== undefined && id !== runId) {
      throw new ConfigError(
        `${paths.dir} holds another run: ${file} belongs to ${id}, and this command is ${runId} ` +
          '(other settings or another source); use another --out, or the command that made the folder to resume it',
      );
    }
  }
}

/**
 * Checks, before any work starts, that the run folder can be written: the folder takes a new file, and every run
 * file already there is a regular file this process may write.
 * @throws {ConfigError} naming the file and what to do.
 */
export function checkRunFolderWritable(paths: RunPaths): void {
  const probe = join(paths.dir, `.cove-write-check.${process.pid}`);
  try {
    mkdirSync(paths.dir, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new ConfigError(
      `--out ${paths.dir}: cannot write in this folder (${code}); fix its permissions (chmod u+w) or choose another --out`,
    );
  }
  for (const file of [
    paths.runJson,
    paths.dbJson,
    paths.tasksJson,
    paths.tasksPartial,
    paths.trajectories,
    paths.sft,
    paths.summary,
  ]) {
    if (!existsSync(file)) continue;
    if (!statSync(file).isFile()) {
      throw new ConfigError(
        `${file} is not a regular file (a folder?); cove writes it there: move it away or choose another --out`,
      );
    }
    try {
      accessSync(file, constants.R_OK | constants.W_OK);
    } catch (e) {
      throw new ConfigError(
        `${file}: cannot read and write it (${(e as NodeJS.ErrnoException).code}); fix its permissions (chmod u+rw) or choose another --out`,
      );
    }
  }
}
