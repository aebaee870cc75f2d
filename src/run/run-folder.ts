import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError } from '../core/errors.js';
import { readPlainJson } from '../io/read-input.js';
import { checkRunIds, describeDifference, runIdOf } from './run-identity.js';

/** The files of a run folder (docs/design.md §6). */
export interface RunPaths {
  readonly dir: string;
  readonly runJson: string;
  readonly dbJson: string;
  readonly tasksJson: string;
  /** Tasks appended as they are synthesized (a header line with the run id, then one task per line). */
  readonly tasksPartial: string;
  readonly trajectories: string;
  readonly sft: string;
  readonly summary: string;
}

export function runPaths(dir: string): RunPaths {
  return {
    dir,
    runJson: join(dir, 'run.json'),
    dbJson: join(dir, 'db.json'),
    tasksJson: join(dir, 'tasks.json'),
    tasksPartial: join(dir, 'tasks.partial.jsonl'),
    trajectories: join(dir, 'trajectories.jsonl'),
    sft: join(dir, 'sft.jsonl'),
    summary: join(dir, 'summary.json'),
  };
}

/** What run.json records; `fingerprint` must match for a resume. */
export interface RunManifest {
  readonly command: readonly string[];
  readonly cove_version: string;
  readonly started_at: string;
  readonly last_started_at: string;
  /** Settings that decide the data; a resume with different ones is refused. */
  readonly fingerprint: Readonly<Record<string, unknown>>;
}

/**
 * Checks that the run folder is new or holds the same run (same fingerprint), so the same command resumes it;
 * cheap, so the CLI calls it before synthesizing any task. Returns the earlier manifest when there is one.
 * @throws {ConfigError} when the folder holds a different run, or an unreadable run.json.
 */
export function checkRunFolder(
  paths: RunPaths,
  fingerprint: RunManifest['fingerprint'],
): RunManifest | undefined {
  const id = runIdOf(fingerprint);
  if (!existsSync(paths.runJson)) {
    checkRunIds(paths, id); // run.json deleted: the other files still say whose folder this is
    return undefined;
  }
  let previous: RunManifest;
  try {
    previous = readPlainJson(paths.runJson, { what: "the run folder's settings" }) as RunManifest;
  } catch (e) {
    throw new ConfigError(
      `${(e as Error).message}; this run folder is damaged: use another --out (or restore run.json)`,
    );
  }
  if (typeof previous?.fingerprint !== 'object' || previous.fingerprint === null) {
    throw new ConfigError(
      `${paths.runJson}: $.fingerprint: missing; this run folder is damaged: use another --out (or restore run.json)`,
    );
  }
  if (JSON.stringify(previous.fingerprint) !== JSON.stringify(fingerprint)) {
    throw new ConfigError(
      `${paths.dir} holds a different run (${describeDifference(previous.fingerprint, fingerprint)}); ` +
        'use another --out, or the same settings to resume it',
    );
  }
  checkRunIds(paths, id);
  return previous;
}

/**
 * Creates the run folder, or checks that an existing one belongs to the same run (same fingerprint) so the
 * same command resumes it. Writes run.json atomically.
 * @throws {ConfigError} when the folder holds a different run.
 */
export function openRunFolder(
  paths: RunPaths,
  manifest: Omit<RunManifest, 'started_at' | 'last_started_at'>,
): {
  resumed: boolean;
} {
  mkdirSync(paths.dir, { recursive: true });
  const now = new Date().toISOString();
  const previous = checkRunFolder(paths, manifest.fingerprint);
  const startedAt = previous?.started_at ?? now;
  const resumed = previous !== undefined;
  writeFileAtomic(
    paths.runJson,
    `${JSON.stringify({ ...manifest, started_at: startedAt, last_started_at: now }, null, 2)}\n`,
  );
  return { resumed };
}

/**
 * Writes a derived or input file of the run; when it already exists (a resume) its content must be the same.
 * @throws {ConfigError} when an existing file differs.
 */
export function writeOrCheck(file: string, text: string): void {
  if (existsSync(file)) {
    // compared as bytes, the size first: a file of any size or content gives the same clear answer
    const expected = Buffer.from(text, 'utf8');
    if (statSync(file).size !== expected.length || !readFileSync(file).equals(expected)) {
      throw new ConfigError(
        `${file} differs from what this command produces; use another --out, or the same settings to resume`,
      );
    }
    return;
  }
  writeFileAtomic(file, text);
}

/**
 * Writes tasks.json; on a resume the tasks already there must be the first tasks of the new list (raising `--n`
 * keeps the earlier tasks, since task i depends only on (seed, i)).
 * @throws {ConfigError} when an existing task differs.
 */
export function writeTasksFile(file: string, tasks: readonly unknown[], text: string): void {
  if (existsSync(file)) {
    let previous: unknown;
    try {
      // bounded in size and depth, UTF-8 checked (src/io/read-input.ts)
      previous = readPlainJson(file, { what: 'the run’s tasks' });
    } catch (e) {
      throw new ConfigError(`${(e as Error).message}; the run folder is damaged: use another --out`);
    }
    if (!Array.isArray(previous)) {
      throw new ConfigError(
        `${file}: $: expected a list of tasks; the run folder is damaged: use another --out`,
      );
    }
    const n = Math.min(previous.length, tasks.length);
    for (let i = 0; i < n; i++) {
      if (JSON.stringify(previous[i]) !== JSON.stringify(tasks[i])) {
        throw new ConfigError(
          `${file}: task ${i} differs from what this command produces; use another --out`,
        );
      }
    }
    if (previous.length >= tasks.length) return;
  }
  writeFileAtomic(file, text);
}
