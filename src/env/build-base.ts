import { installChangeTracking } from './change-tracking.js';
import type { EnvironmentSpec } from './environment.js';
import { EnvironmentBase } from './environment-base.js';
import { SqlConnection } from './sql.js';
import { readSqliteImage } from './sql-collections.js';

/**
 * Creates a base: a fresh in-memory database with the domain's schema, filled by `populate`, with change
 * tracking installed afterwards (so loading is not recorded as a change).
 */
export function buildBase(spec: EnvironmentSpec, populate: (sql: SqlConnection) => void): EnvironmentBase {
  const sql = SqlConnection.open();
  try {
    sql.exec(spec.schemaSql);
    populate(sql);
    installChangeTracking(sql, spec);
  } catch (e) {
    sql.close();
    throw e;
  }
  return new EnvironmentBase(spec, sql);
}

/**
 * Creates a base from an existing SQLite file: its bytes are read into memory and the file is never written;
 * `spec.schemaSql` is not run (the file has its schema). Change tracking is installed on the in-memory copy.
 * @throws {InputFileError} when the file is unreadable or not a SQLite database.
 */
export function baseFromSqliteFile(spec: EnvironmentSpec, file: string): EnvironmentBase {
  const sql = SqlConnection.open(readSqliteImage(file));
  try {
    installChangeTracking(sql, spec);
  } catch (e) {
    sql.close();
    throw e;
  }
  return new EnvironmentBase(spec, sql);
}

/** Creates a base from DDL (`spec.schemaSql`) and rows: `rows[table]` is a list of rows as column → value objects. */
export function baseFromRows(
  spec: EnvironmentSpec,
  rows: Readonly<Record<string, readonly Readonly<Record<string, string | number | bigint | null>>[]>>,
): EnvironmentBase {
  return buildBase(spec, (sql) => {
    for (const [table, list] of Object.entries(rows)) {
      for (const row of list) {
        const columns = Object.keys(row);
        sql.run(
          `INSERT INTO "${table.replaceAll('"', '""')}" (${columns.map((c) => `"${c.replaceAll('"', '""')}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          ...columns.map((c) => row[c] ?? null),
        );
      }
    }
  });
}
