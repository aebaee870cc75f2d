import type Database from 'better-sqlite3';
import type { Rng } from '../../core/rng.js';
import type { TableInfo } from '../../domains/sql/schema-info.js';
import { quoteIdent } from '../../env/sql-collections.js';

/**
 * The limited view of a database a task writer gets (the second seed paper's "schema plus a few rows"): every
 * table with its columns, key, foreign keys and row count, and a few rows drawn by `rng` (at most `rows` per
 * table, long texts cut, blobs left out). What the view leaves out the writer must phrase as something to look
 * up.
 */

const MAX_TEXT = 60;

function shown(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (Buffer.isBuffer(value)) return '<binary>';
  if (typeof value === 'bigint') return Number(value);
  return value;
}

/** The view as prompt text; the same database, tables and `rng` seed give the same text. */
export function dataView(
  db: Database.Database,
  tables: readonly TableInfo[],
  rng: Rng,
  rows: number,
): string {
  const parts: string[] = [];
  for (const t of tables) {
    const columns = t.columns.map((c) => {
      const fk = t.foreignKeys.find((f) => f.columns.length === 1 && f.columns[0] === c.name);
      const key = c.pk > 0 ? ' key' : '';
      const ref = fk === undefined ? '' : ` → ${fk.parent}.${fk.parentColumns[0] ?? ''}`;
      return `${c.name} ${c.type || 'any'}${key}${ref}`;
    });
    const count = Number(
      (db.prepare(`SELECT count(*) AS n FROM ${quoteIdent(t.name)}`).get() as { n: number }).n,
    );
    parts.push(`Table ${t.name} (${count} rows): ${columns.join(', ')}`);
    const order = t.primaryKey.length > 0 ? t.primaryKey.map(quoteIdent).join(', ') : 'rowid';
    const pick = db.prepare(`SELECT * FROM ${quoteIdent(t.name)} ORDER BY ${order} LIMIT 1 OFFSET ?`);
    const offsets = new Set<number>();
    for (let tries = 0; offsets.size < Math.min(rows, count) && tries < rows * 4; tries++)
      offsets.add(rng.int(0, count - 1));
    for (const offset of [...offsets].sort((a, b) => a - b)) {
      const row = pick.get(offset) as Record<string, unknown>;
      parts.push(
        `  ${JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, shown(v)])))}`,
      );
    }
  }
  return parts.join('\n');
}
