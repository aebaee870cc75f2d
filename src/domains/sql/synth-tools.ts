import type Database from 'better-sqlite3';
import { toPyValue } from '../../core/py-value.js';
import { Rng } from '../../core/rng.js';
import { SqlConnection, type SqlValue } from '../../env/sql.js';
import { quoteIdent } from '../../env/sql-collections.js';
import { analyseTools } from './load-spec.js';
import { schemaMismatch } from './output-schema.js';
import { plain, words } from './references.js';
import type { TableInfo } from './schema-info.js';
import type { SqlSpecJson, SqlToolJson } from './spec-schema.js';
import { templateTool } from './template-tool.js';

type Category = 'get' | 'search' | 'list' | 'details' | 'update' | 'create' | 'delete';
interface Candidate {
  readonly category: Category;
  readonly tool: SqlToolJson;
  /** The table whose rows the tool reads or writes. */
  readonly table: string;
}

const snake = (name: string) =>
  words(name)
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 't';
const paramName = (column: string) => {
  const s = snake(column);
  return /^[a-z_]/.test(s) ? s : `p_${s}`;
};
const q = quoteIdent;
const isText = (t: TableInfo, c: string) =>
  /CHAR|TEXT|CLOB/i.test(t.columns.find((x) => x.name === c)?.type ?? '');
const fkCols = (t: TableInfo) => new Set(t.foreignKeys.flatMap((f) => f.columns));
const plainCols = (t: TableInfo) =>
  t.columns.filter((c) => !t.primaryKey.includes(c.name) && !fkCols(t).has(c.name));

function candidatesOf(t: TableInfo, tables: readonly TableInfo[]): Candidate[] {
  const out: Omit<Candidate, 'table'>[] = [];
  const name = snake(t.name);
  const noun = words(t.name);
  const single = t.primaryKey.length === 1 ? (t.primaryKey[0] as string) : undefined;
  const order = t.primaryKey.length > 0 ? t.primaryKey.map(q).join(', ') : 'rowid';
  // a WITHOUT ROWID table has no rowid: its new row is read back by its key (always part of the insert there)
  const inserted = t.withoutRowid
    ? t.primaryKey.map((c) => `${q(c)} = :${paramName(c)}`).join(' AND ')
    : 'rowid = last_insert_rowid()';
  if (single !== undefined) {
    const p = paramName(single);
    out.push({
      category: 'get',
      tool: {
        name: `get_${name}`,
        description: `Look up one ${noun} by its ${words(single)}.`,
        kind: 'read',
        sql: `SELECT * FROM ${q(t.name)} WHERE ${q(single)} = :${p}`,
        returns: 'row',
      },
    });
  }
  const text = plainCols(t).find((c) => isText(t, c.name));
  if (text !== undefined) {
    const p = paramName(text.name);
    out.push({
      category: 'search',
      tool: {
        name: `search_${name}_by_${snake(text.name)}`,
        description: `Find ${noun} rows whose ${words(text.name)} contains the given text (at most 20, by key).`,
        kind: 'read',
        sql: `SELECT * FROM ${q(t.name)} WHERE ${q(text.name)} LIKE '%' || :${p} || '%' ORDER BY ${order} LIMIT 20`,
        returns: 'rows',
      },
    });
  }
  for (const fk of t.foreignKeys) {
    if (fk.columns.length !== 1) continue;
    const col = fk.columns[0] as string;
    const p = paramName(col);
    out.push({
      category: 'list',
      tool: {
        name: `list_${name}_by_${snake(col)}`,
        description: `List the ${noun} rows of one ${words(fk.parent)} (by ${words(col)}), at most 50.`,
        kind: 'read',
        sql: `SELECT * FROM ${q(t.name)} WHERE ${q(col)} = :${p} ORDER BY ${order} LIMIT 50`,
        returns: 'rows',
      },
    });
  }
  const fk = t.foreignKeys.find((f) => f.columns.length === 1);
  const parent = tables.find((x) => x.name === fk?.parent);
  const parentText = parent === undefined ? undefined : plainCols(parent).find((c) => isText(parent, c.name));
  if (
    single !== undefined &&
    fk !== undefined &&
    parent !== undefined &&
    parentText !== undefined &&
    parent.name !== t.name
  ) {
    out.push({
      category: 'details',
      tool: {
        name: `get_${name}_details`,
        description: `One ${noun} with the ${words(parentText.name)} of its ${words(parent.name)}.`,
        kind: 'read',
        sql:
          `SELECT ${q(t.name)}.*, ${q(parent.name)}.${q(parentText.name)} AS ${q(`${snake(parent.name)}_${snake(parentText.name)}`)} ` +
          `FROM ${q(t.name)} LEFT JOIN ${q(parent.name)} ON ${q(parent.name)}.${q(fk.parentColumns[0] as string)} = ${q(t.name)}.${q(fk.columns[0] as string)} ` +
          `WHERE ${q(t.name)}.${q(single)} = :${paramName(single)}`,
        returns: 'row',
      },
    });
  }
  const updatable = plainCols(t).find((c) => !isText(t, c.name)) ?? plainCols(t)[0];
  if (single !== undefined && updatable !== undefined) {
    const k = paramName(single);
    const v = paramName(updatable.name) === k ? `new_${k}` : paramName(updatable.name);
    out.push({
      category: 'update',
      tool: {
        name: `update_${name}_${snake(updatable.name)}`,
        description: `Change the ${words(updatable.name)} of one ${noun}, found by its ${words(single)}.`,
        kind: 'write',
        sql: [
          `UPDATE ${q(t.name)} SET ${q(updatable.name)} = :${v} WHERE ${q(single)} = :${k}`,
          `SELECT * FROM ${q(t.name)} WHERE ${q(single)} = :${k}`,
        ],
        returns: 'row',
      },
    });
  }
  const fkSingle = t.foreignKeys.filter((f) => f.columns.length === 1);
  const keyFromParents =
    t.primaryKey.length > 0 && t.primaryKey.every((c) => fkSingle.some((f) => f.columns[0] === c));
  if (t.rowidKey || keyFromParents) {
    const cols = t.columns.filter(
      (c) =>
        !(t.rowidKey && c.name === single) &&
        ((c.notNull && !c.hasDefault) || fkCols(t).has(c.name) || t.primaryKey.includes(c.name)),
    );
    const extra = plainCols(t)
      .filter((c) => !cols.includes(c) && isText(t, c.name))
      .slice(0, 1);
    const all = [...cols, ...extra].slice(0, 6);
    if (all.length > 0 && all.length === cols.length + extra.slice(0, Math.max(0, 6 - cols.length)).length) {
      const guards = fkSingle
        .filter((f) => all.some((c) => c.name === f.columns[0]))
        .map(
          (f) =>
            `EXISTS (SELECT 1 FROM ${q(f.parent)} WHERE ${q(f.parent)}.${q(f.parentColumns[0] as string)} = :${paramName(f.columns[0] as string)})`,
        );
      const select = `SELECT ${all.map((c) => `:${paramName(c.name)}`).join(', ')}${guards.length > 0 ? ` WHERE ${guards.join(' AND ')}` : ''}`;
      out.push({
        category: 'create',
        tool: {
          name: `create_${name}`,
          description: `Add a new ${noun}${guards.length > 0 ? ' (linked rows must exist)' : ''}.`,
          kind: 'write',
          sql: [
            `INSERT INTO ${q(t.name)} (${all.map((c) => q(c.name)).join(', ')}) ${select}`,
            `SELECT * FROM ${q(t.name)} WHERE ${inserted}`,
          ],
          returns: 'row',
        },
      });
    }
  }
  if (single !== undefined) {
    const children = tables.flatMap((c) =>
      c.foreignKeys
        .filter((f) => f.parent === t.name && f.columns.length === 1)
        .map(
          (f) =>
            `NOT EXISTS (SELECT 1 FROM ${q(c.name)} WHERE ${q(c.name)}.${q(f.columns[0] as string)} = ${q(t.name)}.${q(f.parentColumns[0] as string)})`,
        ),
    );
    out.push({
      category: 'delete',
      tool: {
        name: `delete_${name}`,
        description: `Delete one ${noun} by its ${words(single)}; refused while other rows refer to it.`,
        kind: 'write',
        sql: `DELETE FROM ${q(t.name)} WHERE ${q(single)} = :${paramName(single)}${children.map((c) => ` AND ${c}`).join('')}`,
        returns: 'count',
      },
    });
  }
  return out.map((c) => ({ ...c, table: t.name }));
}

/**
 * Arguments for a template sampled from the data: each bound parameter takes a value of its column. A parameter
 * bound to no column takes what `unbound` gives (by default none: no arguments).
 */
export function sampleArgs(
  rng: Rng,
  sql: SqlConnection,
  template: ReturnType<typeof analyseTools>[number],
  unbound: (param: string, rng: Rng) => unknown = () => undefined,
): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  for (const p of template.params) {
    const b = template.bindings.get(p);
    if (b === undefined) {
      const v = unbound(p, rng);
      if (v === undefined) return undefined;
      args[p] = v;
      continue;
    }
    const values = sql
      .all(
        `SELECT DISTINCT ${q(b.column)} AS v FROM ${q(b.table)} WHERE ${q(b.column)} IS NOT NULL ORDER BY 1 LIMIT 100`,
      )
      .map((r) => plain(r.v as SqlValue));
    if (values.length === 0) return undefined;
    const v = rng.pick(values);
    args[p] = b.pattern && typeof v === 'string' ? v.slice(0, Math.max(1, Math.min(4, v.length))) : v;
  }
  return args;
}

/** Why a candidate fails validation by execution on a scratch copy, or undefined when it passes. */
function validate(
  image: Buffer,
  tables: readonly TableInfo[],
  scratch: Database.Database,
  c: Candidate,
  seed: number,
): string | undefined {
  let template: ReturnType<typeof analyseTools>[number];
  try {
    [template] = analyseTools({ file: 'candidate', json: { tools: [c.tool] } }, scratch, tables) as [
      typeof template,
    ];
  } catch (e) {
    return (e as Error).message;
  }
  const rng = new Rng(seed);
  const sql = SqlConnection.open(image);
  try {
    const tool = templateTool(template);
    for (let attempt = 0; attempt < 40; attempt++) {
      const args = sampleArgs(rng, sql, template);
      if (args === undefined) return 'no data to sample arguments from';
      sql.exec('BEGIN');
      try {
        const out = tool.run(
          { sql, semantics: 'parity' },
          Object.fromEntries(Object.entries(args).map(([k, v]) => [k, toPyValue(v)])),
        );
        const mismatch = schemaMismatch(out, template.output);
        if (mismatch !== undefined) return `result does not match its output schema: ${mismatch}`;
        return undefined;
      } catch {
        // a sampled argument that matches nothing (or a guarded write): try others
      } finally {
        sql.exec('ROLLBACK');
      }
    }
    return 'no sampled arguments gave a result';
  } finally {
    sql.close();
  }
}

/** The policy of a derived spec (the schema-derived path and the model-driven one write the same). */
export const DEFAULT_SQL_POLICY =
  'Help the user with the records of this database. Look records up with the read tools before changing them, ' +
  'never guess an id, and describe each change and get an explicit yes before making it.';

/** Options of {@link synthTools}. */
export interface SynthToolsOptions {
  /** Tables to build tools for (default: all user tables). */
  readonly tables?: readonly string[];
  /** @defaultValue 12 */
  readonly maxTools?: number;
  /** Path of the database as the spec records it (relative to the spec file). */
  readonly databasePath: string;
  readonly name: string;
}

/** What {@link synthTools} made: the spec and the candidates it dropped, with why. */
export interface SynthToolsResult {
  readonly spec: SqlSpecJson;
  readonly dropped: readonly { readonly tool: string; readonly reason: string }[];
}

/**
 * Derives a complementary toolset from a database's schema without a model (issue 18 item 3): per table a lookup
 * by key (`get_`), a text search (`search_`), children through each foreign key (`list_`), a joined summary
 * (`get_…_details`), and the natural writes — an update of a non-key column by key (`update_`), an insert that
 * checks its foreign keys (`create_`, for rowid-keyed tables and link tables) and a delete refused while rows
 * refer to it (`delete_`). Tables are ranked by how connected they are (foreign keys in and out); one tool of each kind
 * is taken first (an update or delete with the lookup by key of its table, which a rule's refusal needs), then a
 * search of each table those tools look up or change (so its rows can be found by description), then the rest round-robin over the tables, up to `maxTools`. Every template is validated by execution on a scratch
 * copy with arguments sampled from the data, and its result checked against its output schema; failures are
 * dropped and reported.
 */
export function synthTools(
  db: Database.Database,
  tables: readonly TableInfo[],
  options: SynthToolsOptions,
): SynthToolsResult {
  const image = db.serialize();
  const chosen =
    options.tables === undefined ? tables : tables.filter((t) => options.tables?.includes(t.name));
  const degree = (t: TableInfo) =>
    t.foreignKeys.length +
    tables.reduce((n, o) => n + o.foreignKeys.filter((f) => f.parent === t.name).length, 0);
  const ordered = [...chosen].sort((a, b) => degree(b) - degree(a) || a.name.localeCompare(b.name));
  const perTable = ordered.map((t) => candidatesOf(t, chosen));
  const all: Candidate[] = [];
  for (let i = 0; perTable.some((l) => i < l.length); i++)
    for (const l of perTable) if (i < l.length) all.push(l[i] as Candidate);
  const max = options.maxTools ?? 12;
  const categories: Category[] = ['get', 'search', 'list', 'update', 'create', 'delete', 'details'];
  const picked: Candidate[] = [];
  const dropped: { tool: string; reason: string }[] = [];
  const tried = new Set<string>();
  const tryAdd = (c: Candidate): boolean => {
    if (tried.has(c.tool.name) || picked.length >= max) return false;
    tried.add(c.tool.name);
    const why = validate(image, chosen, db, c, picked.length + 1);
    if (why !== undefined) {
      dropped.push({ tool: c.tool.name, reason: why });
      return false;
    }
    picked.push(c);
    return true;
  };
  // a rule on an update or delete gives refusal tasks only when a read tool looks its row up by key (docs/
  // sql-domains.md, "Constraints, references and verification"): a table such a write changes gets its get_ next
  const lookupOf = (c: Candidate) => {
    if (c.category !== 'update' && c.category !== 'delete') return;
    if (picked.some((p) => p.category === 'get' && p.table === c.table)) return;
    const get = all.find((x) => x.category === 'get' && x.table === c.table);
    if (get !== undefined) tryAdd(get);
  };
  for (const cat of categories)
    for (const c of all.filter((x) => x.category === cat))
      if (tryAdd(c)) {
        lookupOf(c);
        break;
      }
  // reach: a user names rows by description, so the rows a picked tool looks up or changes (and the parents an
  // insert links) should be findable by a search (docs/sql-domains.md, "The oracle resolves descriptions")
  for (const c of [...picked]) {
    const parents =
      c.category === 'create'
        ? (chosen.find((t) => t.name === c.table)?.foreignKeys ?? []).map((f) => f.parent)
        : c.category === 'list' || c.category === 'search'
          ? []
          : [c.table];
    for (const table of parents) {
      if (picked.some((p) => p.category === 'search' && p.table === table)) continue;
      const search = all.find((x) => x.category === 'search' && x.table === table);
      if (search !== undefined) tryAdd(search);
    }
  }
  for (const c of all) if (tryAdd(c)) lookupOf(c);
  const spec: SqlSpecJson = {
    name: options.name,
    database: { sqlite: options.databasePath },
    ...(options.tables === undefined ? {} : { tables: [...options.tables] }),
    policy: DEFAULT_SQL_POLICY,
    rules: [],
    tools: picked.map((c) => c.tool),
  };
  return { spec, dropped };
}
