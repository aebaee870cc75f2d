import type { Clause, Plain } from './references.js';
import type { TableInfo } from './schema-info.js';
import type { SqlTemplate } from './template-tool.js';

/** One read-tool call the resolver wants made; its result (the tool message's text) is sent back into the generator. */
export interface ResolveCall {
  readonly name: string;
  readonly args: Readonly<Record<string, Plain>>;
}

/** A row a tool returned, as parsed from the tool message (column → JSON value). */
export type ToolRow = Readonly<Record<string, unknown>>;

/** How a description was resolved: the rows (of the entity's table) that match every clause, or why none could be sought. */
export type Resolution = { readonly rows: readonly ToolRow[] } | { readonly unresolved: string };

/** Steps of a resolution: yields the calls to make, receives each call's result text, returns the resolution. */
export type ResolveSteps = Generator<ResolveCall, Resolution, string>;

/** A read tool with one parameter bound to a column: called with a description's value for that column. */
interface Finder {
  readonly tool: string;
  readonly param: string;
  readonly table: string;
  readonly column: string;
  /** A LIKE fragment (a search by text), not an exact comparison. */
  readonly pattern: boolean;
}

/** Parents looked up per via clause and candidates kept per description at most (a bound on the calls made). */
const MAX_CANDIDATES = 20;

/**
 * What the read tools of a SQL domain can reach (docs/sql-domains.md, "The oracle resolves descriptions"): every
 * read template with a single parameter bound to a column — a lookup by key, a search by text, a list of children
 * by a foreign key. A description is resolved by calling one of them with a value the description gives (a
 * column of the entity itself, or of a parent, whose children are then listed), keeping the rows that match every
 * clause (a parent's clauses checked through a lookup of the parent). The synthesis runs it on the draft's copy
 * and keeps only descriptions it resolves to their row; the oracle agent runs it in the episode, call by call.
 */
export class ToolReach {
  readonly #finders: readonly Finder[];
  readonly #tables: readonly TableInfo[];

  constructor(templates: readonly SqlTemplate[], tables: readonly TableInfo[]) {
    this.#tables = tables;
    this.#finders = templates.flatMap((t) => {
      if (t.json.kind !== 'read' || t.json.returns === 'count' || t.params.length !== 1) return [];
      const param = t.params[0] as string;
      const b = t.bindings.get(param);
      if (b === undefined || !tables.some((x) => x.name === b.table)) return [];
      return [{ tool: t.json.name, param, table: b.table, column: b.column, pattern: b.pattern }];
    });
  }

  /** A finder on `table.column`, exact comparisons first (searches by text after). */
  #finder(table: string, column: string): Finder | undefined {
    const on = this.#finders.filter((f) => f.table === table && f.column === column);
    return on.find((f) => !f.pattern) ?? on[0];
  }

  /** A lookup of one row of `table` by `column` (exact), used to check a parent's clauses. */
  #lookup(table: string, column: string): Finder | undefined {
    return this.#finders.find((f) => f.table === table && f.column === column && !f.pattern);
  }

  /**
   * Whether some route of tools could resolve these clauses (no call made): a finder on one of the entity's own
   * clause columns, or a finder on a parent's clause column together with a list of children by that foreign key.
   */
  routable(table: string, clauses: readonly Clause[]): boolean {
    const t = this.#tables.find((x) => x.name === table);
    if (t === undefined || clauses.length === 0) return false;
    return clauses.some((c) => {
      if (c.via === undefined) return this.#finder(table, c.column) !== undefined;
      const fk = t.foreignKeys[c.via];
      return (
        fk !== undefined &&
        fk.columns.length === 1 &&
        this.#finder(fk.parent, c.column) !== undefined &&
        this.#lookup(table, fk.columns[0] as string) !== undefined
      );
    });
  }

  /**
   * Whether any description of a row of `table` could ever be routed (no call made): a finder on one of its own
   * plain (non-key, non-foreign-key) columns, or a finder on a plain column of a parent together with a list of
   * the table's rows by that foreign key. The columns {@link describeRow} may use are a subset of these, so when
   * this is false no row of `table` can be described at all, whatever its values.
   */
  describable(table: string): boolean {
    const t = this.#tables.find((x) => x.name === table);
    if (t === undefined) return false;
    const plainOf = (x: TableInfo) =>
      x.columns
        .map((c) => c.name)
        .filter((c) => !x.primaryKey.includes(c) && !x.foreignKeys.some((f) => f.columns.includes(c)));
    if (plainOf(t).some((c) => this.#finder(table, c) !== undefined)) return true;
    return t.foreignKeys.some((fk) => {
      const parent = this.#tables.find((x) => x.name === fk.parent);
      return (
        parent !== undefined &&
        fk.columns.length === 1 &&
        this.#lookup(table, fk.columns[0] as string) !== undefined &&
        plainOf(parent).some((c) => this.#finder(parent.name, c) !== undefined)
      );
    });
  }

  /** Resolves a description of a row of `table` by its clauses; see {@link ToolReach}. */
  *resolve(table: string, clauses: readonly Clause[]): ResolveSteps {
    const t = this.#tables.find((x) => x.name === table);
    if (t === undefined) return { unresolved: `no table ${table}` };
    if (clauses.length === 0) return { unresolved: 'the description is empty' };
    let rows: ToolRow[] | undefined;
    let checkedVia: number | undefined;
    for (const c of clauses) {
      if (c.via !== undefined) continue;
      const f = this.#finder(table, c.column);
      if (f === undefined) continue;
      rows = rowsOf(yield call(f, c.value)).filter((r) => hasKey(t, r));
      break;
    }
    if (rows === undefined) {
      // through a parent: find the parents by their clauses, then list the children of each
      for (const c of clauses) {
        const fk = c.via === undefined ? undefined : t.foreignKeys[c.via];
        if (fk === undefined || fk.columns.length !== 1) continue;
        const list = this.#lookup(table, fk.columns[0] as string);
        const parent = this.#tables.find((x) => x.name === fk.parent);
        if (list === undefined || parent === undefined || this.#finder(parent.name, c.column) === undefined)
          continue;
        const own = clauses.filter((x) => x.via === c.via).map((x) => ({ column: x.column, value: x.value }));
        const parents = yield* this.resolve(parent.name, own);
        if ('unresolved' in parents || parents.rows.length > MAX_CANDIDATES) continue;
        rows = [];
        for (const p of parents.rows) {
          const value = p[fk.parentColumns[0] as string];
          if (value === undefined) continue;
          rows.push(...rowsOf(yield call(list, value as Plain)).filter((r) => hasKey(t, r)));
        }
        checkedVia = c.via;
        break;
      }
    }
    if (rows === undefined)
      return {
        unresolved: `no read tool finds ${table} rows by ${clauses.map((c) => c.column).join(', ')} (or finds too many)`,
      };
    // the entity's own clauses, on the rows the tools returned
    let kept = rows.filter((r) => clauses.every((c) => c.via !== undefined || same(r[c.column], c.value)));
    kept = unique(t, kept);
    // each other parent's clauses, through a lookup of that parent
    const vias = [
      ...new Set(clauses.flatMap((c) => (c.via === undefined || c.via === checkedVia ? [] : [c.via]))),
    ];
    for (const via of vias) {
      const fk = t.foreignKeys[via];
      const lookup = fk === undefined ? undefined : this.#lookup(fk.parent, fk.parentColumns[0] as string);
      if (fk === undefined || lookup === undefined || fk.columns.length !== 1)
        return { unresolved: `no read tool looks up the ${fk?.parent ?? 'parent'} of a ${table} row` };
      if (kept.length > MAX_CANDIDATES)
        return { unresolved: `${kept.length} ${table} rows to check; too many` };
      const survivors: ToolRow[] = [];
      for (const r of kept) {
        const value = r[fk.columns[0] as string];
        if (value === null || value === undefined) continue;
        const parent = rowsOf(yield call(lookup, value as Plain))[0];
        const wanted = clauses.filter((c) => c.via === via);
        if (parent !== undefined && wanted.every((c) => same(parent[c.column], c.value))) survivors.push(r);
      }
      kept = survivors;
    }
    return { rows: kept };
  }
}

function call(f: Finder, value: Plain): ResolveCall {
  return { name: f.tool, args: { [f.param]: f.pattern ? String(value) : value } };
}

/** The rows of a tool result: a list, one row, or none (an `Error: …` result, e.g. no matching row). */
function rowsOf(content: string): ToolRow[] {
  if (content.startsWith('Error')) return [];
  try {
    const value = JSON.parse(content) as unknown;
    if (Array.isArray(value)) return value.filter((r) => r !== null && typeof r === 'object') as ToolRow[];
    return value !== null && typeof value === 'object' ? [value as ToolRow] : [];
  } catch {
    return [];
  }
}

function hasKey(t: TableInfo, row: ToolRow): boolean {
  return t.primaryKey.length > 0 && t.primaryKey.every((c) => c in row);
}

/** Each row once, by key. */
function unique(t: TableInfo, rows: readonly ToolRow[]): ToolRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = JSON.stringify(t.primaryKey.map((c) => r[c]));
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A value of a tool row equals a description's value (both plain JSON: a REAL 2.0 reads back as 2 on both sides). */
function same(got: unknown, want: Plain): boolean {
  return got === want;
}

/** The key of a resolved row, as the synthesis stores keys. */
export function keyOf(t: TableInfo, row: ToolRow): Record<string, Plain> {
  return Object.fromEntries(t.primaryKey.map((c) => [c, (row[c] ?? null) as Plain]));
}

/** Runs a resolution to its end, making each call with `run` (the synthesis: synchronous calls on a copy). */
export function resolveNow(steps: ResolveSteps, run: (call: ResolveCall) => string): Resolution {
  let next = steps.next();
  while (!next.done) next = steps.next(run(next.value));
  return next.value;
}
