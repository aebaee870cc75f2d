import { readFileSync } from 'node:fs';
import { InputFileError } from '../core/errors.js';
import type { PyJsonInput } from '../core/py-json.js';
import type { PyValue } from '../core/py-value.js';
import { CHANGES_TABLE } from './change-tracking.js';
import type { StateCollection } from './environment.js';
import { SqlConnection, type SqlValue } from './sql.js';

/** Quotes an SQL identifier. */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** True for tables that are never domain state: SQLite's own (`sqlite_*`) and cove's bookkeeping (`_cove_*`). */
export function isInternalTable(name: string): boolean {
  return name.startsWith('sqlite_') || name.startsWith('_cove_') || name === CHANGES_TABLE;
}

function cell(value: SqlValue): PyValue {
  return Buffer.isBuffer(value) ? value.toString('base64') : (value as PyValue);
}

/**
 * One plain table as a state collection: each row is an entity keyed by its primary key (a composite key as the
 * JSON array of its columns, e.g. `[3,"b"]`), or by `rowid` when the table has none; entities are ordered by that
 * key, and an entity's value is its row as a dict in column order (blobs as base64 text).
 */
export function tableCollection(sql: SqlConnection, table: string): StateCollection {
  const columns = sql.all(`SELECT name, pk FROM pragma_table_info(?) ORDER BY cid`, table);
  if (columns.length === 0) throw new Error(`no table ${table}`);
  const pk = columns
    .filter((c) => Number(c.pk) > 0)
    .sort((a, b) => Number(a.pk) - Number(b.pk))
    .map((c) => String(c.name));
  const keyColumns = pk.length === 0 ? ['rowid'] : pk;
  const q = (c: string) => (c === 'rowid' ? c : quoteIdent(c));
  const key =
    keyColumns.length === 1 ? q(keyColumns[0] as string) : `json_array(${keyColumns.map(q).join(', ')})`;
  const names = columns.map((c) => String(c.name));
  const select = `SELECT ${names.map(quoteIdent).join(', ')} FROM ${quoteIdent(table)} WHERE ${key} = ?`;
  return {
    name: table,
    table: quoteIdent(table),
    key,
    ...(keyColumns.length > 1 ? { keyColumns: keyColumns.map(q) } : {}),
    orderBy: keyColumns.map(q).join(', '),
    children: [],
    dump(conn: SqlConnection, k: string): PyJsonInput | undefined {
      const row = conn.get(select, k);
      if (row === undefined) return undefined;
      return new Map(names.map((n) => [n, cell(row[n] ?? null)]));
    },
  };
}

/** Every user table of a connection as a state collection (see {@link tableCollection}), in name order. */
export function collectionsOf(sql: SqlConnection): StateCollection[] {
  return sql
    .all(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
    .map((r) => String(r.name))
    .filter((name) => !isInternalTable(name))
    .map((name) => tableCollection(sql, name));
}

/** The collections of a schema given as DDL (run on a scratch in-memory database). */
export function collectionsFromDdl(ddl: string): StateCollection[] {
  const sql = SqlConnection.open();
  try {
    sql.exec(ddl);
    return collectionsOf(sql);
  } finally {
    sql.close();
  }
}

/**
 * The image of an existing SQLite file, read into memory (the file is never opened for writing).
 * @throws {InputFileError} when the file cannot be read or is not a SQLite database.
 */
export function readSqliteImage(file: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new InputFileError(
      file,
      '$',
      `cannot read file (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
    );
  }
  if (bytes.subarray(0, 16).toString('latin1') !== 'SQLite format 3\u0000') {
    throw new InputFileError(file, '$', 'not a SQLite database (no "SQLite format 3" header)');
  }
  return bytes;
}
