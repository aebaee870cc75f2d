import { readFileSync } from 'node:fs';
import { ConfigError, InputFileError } from '../core/errors.js';
import type { Domain } from '../domains/domain.js';
import { type LoadedDb, readJsonFile } from '../domains/load-db.js';
import { type CoveTask, readCoveBlocks } from '../tasks/cove-task.js';
import { parseTau2Tasks } from '../tasks/tau2-task.js';
import { chooseDb } from './db-source.js';

/**
 * Reads a tasks file for `cove generate --tasks`: every task must carry a `cove` block (τ² benchmark tasks are
 * refused with a clear error), all of one domain and one DB; the DB is `--db`, else the one the tasks name (a
 * sandbox is regenerated from its seed).
 * @throws {InputFileError} for malformed or τ²-only tasks; {@link ConfigError} for mixed or missing DBs.
 */
export function loadTasksForGenerate(
  domain: Domain,
  file: string,
  dbFlag?: string,
): { tasks: CoveTask[]; loaded: LoadedDb; sandboxText?: string } {
  const loaded = parseTau2Tasks(readJsonFile(file), file);
  const blocks = readCoveBlocks(
    loaded.map((t) => t.raw),
    loaded.map((t) => t.task.id),
    file,
  );
  const tasks = JSON.parse(readFileSync(file, 'utf8')) as CoveTask[];
  blocks.forEach((b, i) => {
    if (b.domain !== domain.name)
      throw new InputFileError(file, `$[${i}].cove.domain`, `is ${b.domain}, not ${domain.name}`);
  });
  if (tasks.length === 0) throw new InputFileError(file, '$', 'no tasks');
  const dbs = new Set(blocks.map((b) => JSON.stringify(b.db)));
  if (dbs.size > 1)
    throw new ConfigError(`${file}: the tasks come from ${dbs.size} different DBs; split the file`);
  const db = blocks[0]?.db as CoveTask['cove']['db'];
  const choice =
    dbFlag !== undefined
      ? chooseDb(domain, { db: dbFlag })
      : 'sandbox' in db
        ? chooseDb(domain, {
            sandboxSeed: db.sandbox.seed,
            users: db.sandbox.size.users,
            orders: db.sandbox.size.orders,
          })
        : chooseDb(domain, { db: db.path });
  if (
    'canonical_sha256' in db &&
    dbFlag === undefined &&
    choice.loaded.hashes.canonical_sha256 !== db.canonical_sha256
  ) {
    throw new ConfigError(`${db.path} no longer has the hash the tasks were made from; pass --db`);
  }
  return {
    tasks,
    loaded: choice.loaded,
    ...(choice.sandboxText === undefined ? {} : { sandboxText: choice.sandboxText }),
  };
}
