import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, InputFileError } from '../core/errors.js';
import type { Domain } from '../domains/domain.js';
import { type LoadedDb, loadDbFile, readJsonFile } from '../domains/load-db.js';
import type { Semantics } from '../env/tool.js';
import { readInputText, readPlainJson } from '../io/read-input.js';
import { type CoveTask, readCoveBlocks } from '../tasks/cove-task.js';
import { type RunTask, runTaskFromTau2 } from '../tasks/task.js';
import { type LoadedTask, parseTau2Tasks } from '../tasks/tau2-task.js';
import { validateCoveTasks } from '../tasks/validate-tasks.js';
import { resolveTau2DomainDir } from '../tau2/data-dir.js';
import { chooseDb } from './db-source.js';

/** Generated tasks with the DB they were made from. */
export interface CoveTaskInput {
  readonly tasks: CoveTask[];
  readonly loaded: LoadedDb;
  readonly sandboxText?: string;
  /** The tool semantics the tasks were made (and proven solvable) under. */
  readonly semantics: Semantics;
}

/** True when every task of a parsed tasks file has a `cove` block. */
export function allCoveTasks(tasks: readonly LoadedTask[]): boolean {
  return tasks.length > 0 && tasks.every((t) => (t.raw as Map<string, unknown>).has('cove'));
}

/**
 * Reads tasks made by `cove tasks` / `cove generate`: every task must carry a `cove` block (τ² benchmark tasks
 * are refused with a clear error), all of one domain, one DB and one semantics. The DB is `--db`, else the one
 * the tasks name (a relative path is relative to the tasks file; a sandbox is regenerated from its seed); either
 * way it must hash to what the tasks record.
 * @throws {InputFileError} for malformed or τ²-only tasks; {@link ConfigError} for mixed or mismatched DBs.
 */
export function loadCoveTasks(domain: Domain, file: string, dbFlag?: string): CoveTaskInput {
  const loaded = parseTau2Tasks(readJsonFile(file), file);
  const blocks = readCoveBlocks(
    loaded.map((t) => t.raw),
    loaded.map((t) => t.task.id),
    file,
  );
  const tasks = readPlainJson(file) as CoveTask[];
  const prefixed = blocks.findIndex((b) => b.prefix !== undefined);
  if (prefixed !== -1) {
    throw new InputFileError(
      file,
      `$[${prefixed}].cove.prefix`,
      `task '${loaded[prefixed]?.task.id}' continues conversation '${blocks[prefixed]?.prefix?.id}' (made by ` +
        '`cove generate --from`, drawn from the state after that conversation): it cannot be run from a tasks ' +
        'file; run `cove generate --from` again with the same conversations file',
    );
  }
  blocks.forEach((b, i) => {
    if (b.domain !== domain.name)
      throw new InputFileError(file, `$[${i}].cove.domain`, `is ${b.domain}, not ${domain.name}`);
  });
  if (tasks.length === 0) throw new InputFileError(file, '$', 'no tasks');
  const firstDb = JSON.stringify(blocks[0]?.db);
  const otherDb = blocks.findIndex((b) => JSON.stringify(b.db) !== firstDb);
  if (otherDb !== -1) {
    throw new InputFileError(
      file,
      `$[${otherDb}].cove.db`,
      `task '${tasks[otherDb]?.id}' names another DB than task 0 (${JSON.stringify(blocks[otherDb]?.db)} vs ${firstDb}); ` +
        'all tasks of a file run on one DB: fix the task or split the file',
    );
  }
  const otherSemantics = blocks.findIndex((b) => b.semantics !== blocks[0]?.semantics);
  if (otherSemantics !== -1) {
    throw new InputFileError(
      file,
      `$[${otherSemantics}].cove.semantics`,
      `task '${tasks[otherSemantics]?.id}' is ${blocks[otherSemantics]?.semantics}, task 0 ${blocks[0]?.semantics}; the tasks of a file share one semantics: split the file`,
    );
  }
  const db = blocks[0]?.db as CoveTask['cove']['db'];
  const choice =
    dbFlag !== undefined
      ? chooseDb(domain, { db: dbFlag })
      : 'sandbox' in db
        ? chooseDb(domain, {
            sandboxSeed: db.sandbox.seed,
            size: db.sandbox.size,
          })
        : recordedDb(domain, file, db.path);
  const expected = (db as { canonical_sha256?: string }).canonical_sha256;
  if (expected !== undefined && choice.loaded.hashes.canonical_sha256 !== expected) {
    choice.loaded.base.close();
    const what = dbFlag ?? ('sandbox' in db ? `the sandbox (seed ${db.sandbox.seed})` : db.path);
    throw new ConfigError(
      `${what} is not the DB the tasks in ${file} were made from (canonical hash ${choice.loaded.hashes.canonical_sha256.slice(0, 12)}…, ` +
        `the tasks say ${expected.slice(0, 12)}…); pass the DB they were made from with --db, or make the tasks again on this DB`,
    );
  }
  try {
    validateCoveTasks(domain, choice.loaded.base, tasks, file);
  } catch (e) {
    choice.loaded.base.close();
    throw e;
  }
  return {
    tasks,
    loaded: choice.loaded,
    ...(choice.sandboxText === undefined ? {} : { sandboxText: choice.sandboxText }),
    semantics: blocks[0]?.semantics ?? 'parity',
  };
}

/** The DB file a tasks file names (relative to the tasks file); a missing one says how to point at it. */
function recordedDb(domain: Domain, tasksFile: string, path: string) {
  const dbFile = resolve(dirname(tasksFile), path);
  if (!existsSync(dbFile)) {
    throw new ConfigError(
      `${tasksFile}: its tasks were made from the DB ${path} (relative to the tasks file), which is not at ${dbFile}; pass it with --db`,
    );
  }
  return chooseDb(domain, { db: dbFile });
}

/** τ² benchmark tasks (no `cove` block) with the DB they run on. */
export interface Tau2TaskInput {
  readonly tasks: RunTask[];
  readonly loaded: LoadedDb;
  /** The tasks file's text (copied into the run folder as tasks.json). */
  readonly text: string;
}

/**
 * Reads τ²'s own tasks for `cove generate` (graded by τ²'s evaluator; a model must play the agent and the user).
 * The DB is `--db`, else the domain's pristine db.json from the τ² data directory (`--tau2-data`,
 * `$COVE_TAU2_DATA`, or an ancestor of the tasks file), checked against τ²'s initial hashes.
 * @throws {InputFileError} for malformed tasks; {@link ConfigError} when no DB can be found.
 */
export function loadTau2Tasks(
  domain: Domain,
  file: string,
  options: { db?: string | undefined; tau2Data?: string | undefined },
): Tau2TaskInput {
  const parsed = parseTau2Tasks(readJsonFile(file), file);
  if (parsed.length === 0) throw new InputFileError(file, '$', 'no tasks');
  const dbFile =
    options.db ??
    join(
      resolveTau2DomainDir(domain.name, {
        explicit: options.tau2Data,
        fromEnv: process.env.COVE_TAU2_DATA,
        tasksFile: file,
      }),
      'db.json',
    );
  const loaded = loadDbFile(domain, dbFile, { expectTau2Pristine: options.db === undefined });
  return { tasks: parsed.map(runTaskFromTau2), loaded, text: readInputText(file) };
}
