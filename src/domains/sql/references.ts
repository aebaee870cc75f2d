import type { SqlConnection, SqlValue } from '../../env/sql.js';
import { quoteIdent } from '../../env/sql-collections.js';
import type { TableInfo } from './schema-info.js';

/** A plain JSON scalar as stored in tasks (integers as JSON numbers). */
export type Plain = string | number | null;

/** One attribute of a description: a column of the entity itself, or of the parent row a foreign key points to. */
export interface Clause {
  /** Index of the entity table's foreign key the column is reached through; absent for the entity's own column. */
  readonly via?: number;
  readonly column: string;
  readonly value: Plain;
}

/** A fuzzy reference: the entity (table and exact key, hidden from the user) and the clauses that single it out. */
export interface Reference {
  readonly table: string;
  readonly key: Readonly<Record<string, Plain>>;
  /** Empty at fuzz level 0: the user then gives the key itself. */
  readonly clauses: readonly Clause[];
}

/** A SQL value as a plain JSON scalar (integers as numbers, blobs as base64). */
export function plain(value: SqlValue | undefined): Plain {
  if (value === undefined || value === null) return null;
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value)) return value.toString('base64');
  return value;
}

/** A plain scalar as an SQL parameter (whole numbers as integers, which also match REAL columns). */
export function sqlParam(value: Plain): SqlValue {
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
}

function keyWhere(table: TableInfo, alias: string): string {
  return table.primaryKey.map((c) => `${alias}.${quoteIdent(c)} = ?`).join(' AND ');
}

/** `SELECT <key columns> FROM entity JOIN parents WHERE clauses` for a set of clauses. */
function matchQuery(tables: readonly TableInfo[], table: TableInfo, clauses: readonly Clause[]): string {
  const joins = [...new Set(clauses.flatMap((c) => (c.via === undefined ? [] : [c.via])))].map((i) => {
    const fk = table.foreignKeys[i];
    if (fk === undefined) throw new Error(`no foreign key ${i} on ${table.name}`);
    const on = fk.columns.map(
      (c, j) => `r${i}.${quoteIdent(fk.parentColumns[j] as string)} = e.${quoteIdent(c)}`,
    );
    return `JOIN ${quoteIdent(fk.parent)} AS r${i} ON ${on.join(' AND ')}`;
  });
  const where = clauses.map((c) => `${c.via === undefined ? 'e' : `r${c.via}`}.${quoteIdent(c.column)} = ?`);
  const key = table.primaryKey.map((c) => `e.${quoteIdent(c)} AS ${quoteIdent(c)}`).join(', ');
  void tables;
  return `SELECT ${key} FROM ${quoteIdent(table.name)} AS e ${joins.join(' ')} WHERE ${where.join(' AND ')} LIMIT 3`;
}

/** The keys of the rows a description matches (at most 3: enough to tell unique from not). */
export function resolveReference(
  sql: SqlConnection,
  tables: readonly TableInfo[],
  ref: Pick<Reference, 'table' | 'clauses'>,
): Record<string, Plain>[] {
  const table = tables.find((t) => t.name === ref.table);
  if (table === undefined || ref.clauses.length === 0) return [];
  return sql
    .all(matchQuery(tables, table, ref.clauses), ...ref.clauses.map((c) => sqlParam(c.value)))
    .map((row) => Object.fromEntries(table.primaryKey.map((c) => [c, plain(row[c])])));
}

function usable(value: SqlValue | undefined, hidden: readonly string[]): value is SqlValue {
  if (value === undefined || value === null || Buffer.isBuffer(value)) return false;
  const text = String(value);
  return text.trim() !== '' && text.length <= 60 && !hidden.some((h) => text.includes(h));
}

/**
 * The smallest description of one row: a set of at most three non-key columns — its own, or of the parent rows
 * its foreign keys point to — whose values match that row and no other, as a count query proves. Key and
 * foreign-key columns are never used, nor values containing one of the `hidden` ids. Candidates are tried in a
 * fixed order (own text columns, own other columns, then parents'), so the same row gets the same description;
 * the first unique set that `accept` also passes is taken.
 * @returns the clauses, or undefined when no such set exists.
 */
export function describeRow(
  sql: SqlConnection,
  tables: readonly TableInfo[],
  table: TableInfo,
  key: Readonly<Record<string, Plain>>,
  hidden: readonly string[],
  /** A further test of a unique description (the synthesis: the read tools resolve it to this row). */
  accept: (clauses: Clause[]) => boolean = () => true,
): Clause[] | undefined {
  if (table.primaryKey.length === 0) return undefined;
  const row = sql.get(
    `SELECT * FROM ${quoteIdent(table.name)} AS e WHERE ${keyWhere(table, 'e')}`,
    ...table.primaryKey.map((c) => sqlParam(key[c] ?? null)),
  );
  if (row === undefined) return undefined;
  const fkColumns = new Set(table.foreignKeys.flatMap((f) => f.columns));
  const plainColumn = (t: TableInfo, c: string) =>
    !t.primaryKey.includes(c) && !t.foreignKeys.some((f) => f.columns.includes(c));
  const text = (t: TableInfo, c: string) =>
    /CHAR|TEXT|CLOB/i.test(t.columns.find((x) => x.name === c)?.type ?? '');
  const own = table.columns
    .filter(
      (c) => !table.primaryKey.includes(c.name) && !fkColumns.has(c.name) && usable(row[c.name], hidden),
    )
    .map((c) => ({ column: c.name, value: plain(row[c.name]) }) as Clause);
  own.sort((a, b) => Number(text(table, b.column)) - Number(text(table, a.column)));
  const parents: Clause[] = [];
  table.foreignKeys.forEach((fk, i) => {
    const parent = tables.find((t) => t.name === fk.parent);
    if (parent === undefined || fk.columns.some((c) => row[c] === null)) return;
    const prow = sql.get(
      `SELECT * FROM ${quoteIdent(parent.name)} WHERE ${fk.parentColumns.map((c) => `${quoteIdent(c)} = ?`).join(' AND ')}`,
      ...fk.columns.map((c) => row[c] as SqlValue),
    );
    if (prow === undefined) return;
    const cols = parent.columns
      .filter((c) => plainColumn(parent, c.name) && usable(prow[c.name], hidden))
      .sort((a, b) => Number(text(parent, b.name)) - Number(text(parent, a.name)))
      .slice(0, 3);
    for (const c of cols) parents.push({ via: i, column: c.name, value: plain(prow[c.name]) });
  });
  const candidates = [...own, ...parents].slice(0, 12);
  const expected = JSON.stringify(table.primaryKey.map((c) => key[c] ?? null));
  const unique = (clauses: Clause[]) => {
    const rows = resolveReference(sql, tables, { table: table.name, clauses });
    return (
      rows.length === 1 &&
      JSON.stringify(table.primaryKey.map((c) => rows[0]?.[c] ?? null)) === expected &&
      accept(clauses)
    );
  };
  const n = candidates.length;
  for (let i = 0; i < n; i++) if (unique([candidates[i] as Clause])) return [candidates[i] as Clause];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const pair = [candidates[i], candidates[j]] as Clause[];
      if (unique(pair)) return pair;
    }
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      for (let k = j + 1; k < n; k++) {
        const three = [candidates[i], candidates[j], candidates[k]] as Clause[];
        if (unique(three)) return three;
      }
  return undefined;
}

/** Lower-case words of an identifier: `InvoiceLine` → `invoice line`, `ship_city` → `ship city`. */
export function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\s]+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * Whether a phrase reads as plural by its last word: an `s` ending that is not `ss`, `us` or `is` (`minutes`,
 * `customers`; not `address`, `status`, `analysis`, `series`, `species`).
 */
function plural(phrase: string): boolean {
  const last = phrase.split(' ').pop() ?? '';
  return /[^su]s$/.test(last) && !/(ics|series|species|news)$/.test(last);
}

/** The possessive of a phrase: `album's`, `customers'` (a plural takes only the apostrophe). */
function possessive(phrase: string): string {
  return plural(phrase) ? `${phrase}'` : `${phrase}'s`;
}

/** A reference in words, e.g. `the track whose name is "Balls to the Wall" and whose album's title is "…"`. */
export function renderReference(tables: readonly TableInfo[], ref: Reference): string {
  const table = tables.find((t) => t.name === ref.table);
  const noun = `the ${words(ref.table)}`;
  if (ref.clauses.length === 0) {
    return `${noun} with ${Object.entries(ref.key)
      .map(([c, v]) => `${words(c)} ${JSON.stringify(v)}`)
      .join(' and ')}`;
  }
  const parts = ref.clauses.map((c) => {
    const parent = c.via === undefined ? undefined : table?.foreignKeys[c.via]?.parent;
    const owner = parent === undefined ? '' : `${possessive(words(parent))} `;
    const column = words(c.column);
    return `whose ${owner}${column} ${plural(column) ? 'are' : 'is'} ${JSON.stringify(c.value)}`;
  });
  return `${noun} ${parts.join(' and ')}`;
}
