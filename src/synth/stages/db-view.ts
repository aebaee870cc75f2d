import Database from 'better-sqlite3';
import { ConfigError } from '../../core/errors.js';
import { readSchema, type TableInfo } from '../../domains/sql/schema-info.js';
import { quoteIdent, readSqliteImage } from '../../env/sql-collections.js';
import type { DomainRef } from './tool-records.js';

/** A domain's database as the stages see it: its image, a scratch connection on a copy, and its tables. */
export interface DomainDb {
  readonly image: Buffer;
  /** A private in-memory copy: statements are analysed and run here, never on the file. */
  readonly scratch: Database.Database;
  /** The domain's tables (`domain.tables`, or every user table). */
  readonly tables: readonly TableInfo[];
}

/**
 * Opens a domain's SQLite file as an in-memory copy (the file is only read).
 * @throws {ConfigError} naming a table of `domain.tables` the database lacks; InputFileError for a bad file.
 */
export function openDomainDb(domain: DomainRef): DomainDb {
  const image = readSqliteImage(domain.db);
  const scratch = new Database(image);
  const all = readSchema(scratch);
  const missing = (domain.tables ?? []).filter((t) => !all.some((x) => x.name === t));
  if (missing.length > 0) {
    scratch.close();
    throw new ConfigError(`domain ${domain.name}: no table ${missing.join(', ')} in ${domain.db}`);
  }
  const tables = domain.tables === undefined ? all : all.filter((t) => domain.tables?.includes(t.name));
  return { image, scratch, tables };
}

function cellText(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return '<blob>';
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.length > 60) return `${value.slice(0, 57)}...`;
  return value;
}

/**
 * The text a model sees of a database: each table's `CREATE TABLE` statement and its first `rowsPerTable` rows
 * (by rowid or key) as JSON objects, long texts cut to 60 characters and blobs hidden. A *limited* view: the
 * model is told that other rows exist.
 */
export function schemaView(db: DomainDb, rowsPerTable: number): string {
  const parts: string[] = [];
  for (const t of db.tables) {
    const ddl = (
      db.scratch.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").get(t.name) as
        | { sql: string }
        | undefined
    )?.sql;
    parts.push(`${(ddl ?? `TABLE ${t.name}`).trim()};`);
    if (rowsPerTable > 0) {
      const order = t.primaryKey.length > 0 ? t.primaryKey.map(quoteIdent).join(', ') : 'rowid';
      const rows = db.scratch
        .prepare(`SELECT * FROM ${quoteIdent(t.name)} ORDER BY ${order} LIMIT ${rowsPerTable}`)
        .safeIntegers(true)
        .all() as Record<string, unknown>[];
      const count = (
        db.scratch.prepare(`SELECT count(*) AS n FROM ${quoteIdent(t.name)}`).get() as { n: number }
      ).n;
      parts.push(`-- ${count} rows; the first ${rows.length}:`);
      for (const r of rows)
        parts.push(
          `-- ${JSON.stringify(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cellText(v)])))}`,
        );
    }
    parts.push('');
  }
  return parts.join('\n').trim();
}

/** {@link schemaView} of a domain's database, opened and closed here (for stages that need only the text). */
export function domainSchemaView(domain: DomainRef, rowsPerTable: number): string {
  const db = openDomainDb(domain);
  try {
    return schemaView(db, rowsPerTable);
  } finally {
    db.scratch.close();
  }
}
