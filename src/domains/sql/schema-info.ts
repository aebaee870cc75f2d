import type Database from 'better-sqlite3';
import { isInternalTable } from '../../env/sql-collections.js';

/** One column of a table as the schema declares it. */
export interface ColumnInfo {
  readonly name: string;
  /** Declared type, as written (may be empty). */
  readonly type: string;
  readonly notNull: boolean;
  readonly hasDefault: boolean;
  /** 1-based position in the primary key, 0 when not part of it. */
  readonly pk: number;
}

/** A foreign key of a child table: `columns` of the child reference `parentColumns` of `parent`. */
export interface ForeignKey {
  readonly parent: string;
  readonly columns: readonly string[];
  readonly parentColumns: readonly string[];
}

/** One table: columns, key and foreign keys. */
export interface TableInfo {
  readonly name: string;
  readonly columns: readonly ColumnInfo[];
  /** Primary key columns in key order; empty for a rowid table without one. */
  readonly primaryKey: readonly string[];
  /** True when the single-column key is an alias of the rowid (`INTEGER PRIMARY KEY`): inserts may omit it. */
  readonly rowidKey: boolean;
  /** True for a `WITHOUT ROWID` table: it has no `rowid` column (and always a primary key). */
  readonly withoutRowid: boolean;
  readonly foreignKeys: readonly ForeignKey[];
}

/** SQLite's affinity of a declared column type: the five rules of §3.1 of SQLite's datatype docs, in order. */
export function affinityOf(declared: string): 'INTEGER' | 'TEXT' | 'BLOB' | 'REAL' | 'NUMERIC' {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'INTEGER';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'TEXT';
  if (t.includes('BLOB') || t.trim() === '') return 'BLOB';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'REAL';
  return 'NUMERIC';
}

/**
 * JSON Schema types of a column's values by its affinity: INTEGER → integer, TEXT → string, REAL → number,
 * NUMERIC (BIT, BOOLEAN, DECIMAL, DATE, …) → number or string, since a NUMERIC column keeps text that is not a
 * well-formed number (a date such as `2013-01-01`) as text; BLOB or no type → undefined (any value).
 */
export function jsonTypesOf(declared: string): readonly ('integer' | 'number' | 'string')[] | undefined {
  switch (affinityOf(declared)) {
    case 'INTEGER':
      return ['integer'];
    case 'TEXT':
      return ['string'];
    case 'REAL':
      return ['number'];
    case 'NUMERIC':
      return ['number', 'string'];
    default:
      return undefined;
  }
}

/** Reads every user table of `db` (never `sqlite_*` or cove's own), in name order; views are not tables. */
export function readSchema(db: Database.Database): TableInfo[] {
  const names = (
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  )
    .map((r) => r.name)
    .filter((n) => !isInternalTable(n));
  return names.map((name) => {
    const cols = db.prepare('SELECT * FROM pragma_table_info(?) ORDER BY cid').all(name) as {
      name: string;
      type: string;
      notnull: number | bigint;
      dflt_value: unknown;
      pk: number | bigint;
    }[];
    const columns = cols.map((c) => ({
      name: c.name,
      type: c.type ?? '',
      notNull: Number(c.notnull) === 1,
      hasDefault: c.dflt_value !== null,
      pk: Number(c.pk),
    }));
    const primaryKey = columns
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const fkRows = db.prepare('SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq').all(name) as {
      id: number | bigint;
      table: string;
      from: string;
      to: string | null;
    }[];
    const byId = new Map<number, { parent: string; columns: string[]; parentColumns: string[] }>();
    for (const r of fkRows) {
      const fk = byId.get(Number(r.id)) ?? { parent: r.table, columns: [], parentColumns: [] };
      fk.columns.push(r.from);
      fk.parentColumns.push(r.to ?? '');
      byId.set(Number(r.id), fk);
    }
    const foreignKeys: ForeignKey[] = [];
    for (const fk of byId.values()) {
      const parent = names.find((n) => n.toLowerCase() === fk.parent.toLowerCase());
      if (parent === undefined) continue; // a dangling reference in the source schema
      const parentKey = primaryKeyOf(db, parent);
      const parentColumns = fk.parentColumns.map((c, i) => (c === '' ? (parentKey[i] ?? '') : c));
      const parentCols = (
        db.prepare('SELECT name FROM pragma_table_info(?)').all(parent) as { name: string }[]
      ).map((c) => c.name);
      const resolved = parentColumns.map((c) => parentCols.find((p) => p.toLowerCase() === c.toLowerCase()));
      const own = fk.columns.map((c) => columns.find((x) => x.name.toLowerCase() === c.toLowerCase())?.name);
      if (resolved.some((c) => c === undefined) || own.some((c) => c === undefined)) continue;
      foreignKeys.push({ parent, columns: own as string[], parentColumns: resolved as string[] });
    }
    const only = primaryKey.length === 1 ? columns.find((c) => c.name === primaryKey[0]) : undefined;
    const withoutRowid =
      Number(
        (db.prepare('SELECT wr FROM pragma_table_list(?)').get(name) as { wr: number | bigint } | undefined)
          ?.wr ?? 0,
      ) === 1;
    // in a WITHOUT ROWID table an INTEGER PRIMARY KEY is an ordinary column, not a rowid alias
    const rowidKey = !withoutRowid && only !== undefined && only.type.toUpperCase() === 'INTEGER';
    return { name, columns, primaryKey, rowidKey, withoutRowid, foreignKeys };
  });
}

function primaryKeyOf(db: Database.Database, table: string): string[] {
  return (
    db.prepare('SELECT name, pk FROM pragma_table_info(?)').all(table) as { name: string; pk: number }[]
  )
    .filter((c) => Number(c.pk) > 0)
    .sort((a, b) => Number(a.pk) - Number(b.pk))
    .map((c) => c.name);
}
