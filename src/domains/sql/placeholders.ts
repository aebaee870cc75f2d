import { jsonTypesOf, type TableInfo } from './schema-info.js';
import type { SqlToken } from './sql-tokens.js';

/** The column a `:param` is compared with, assigned to or inserted into. */
export interface ParamBinding {
  readonly table: string;
  readonly column: string;
  /** True when the parameter is a LIKE pattern or fragment (free text, not a column value). */
  readonly pattern: boolean;
}

const COMPARE = new Set(['=', '==', '<>', '!=', '<', '>', '<=', '>=']);
const COMPARE_WORDS = new Set(['like', 'is', 'glob']);

const isIdent = (t: SqlToken | undefined): t is SqlToken =>
  t !== undefined && (t.kind === 'word' || t.kind === 'quoted');

function findColumn(
  tables: readonly TableInfo[],
  mentioned: readonly TableInfo[],
  column: string,
  qualifier: string | undefined,
): { table: string; column: string } | undefined {
  const lower = column.toLowerCase();
  const q = qualifier?.toLowerCase();
  const pool =
    q === undefined ? mentioned : [...tables.filter((t) => t.name.toLowerCase() === q), ...mentioned];
  for (const t of pool) {
    const c = t.columns.find((x) => x.name.toLowerCase() === lower);
    if (c !== undefined) return { table: t.name, column: c.name };
  }
  return undefined;
}

/** The identifier (and its qualifier) ending at token index `end`. */
function identAt(
  tokens: readonly SqlToken[],
  end: number,
): { column: string; qualifier?: string } | undefined {
  const t = tokens[end];
  if (!isIdent(t)) return undefined;
  const dot = tokens[end - 1];
  const q = tokens[end - 2];
  if (dot?.kind === 'op' && dot.text === '.' && isIdent(q)) return { column: t.text, qualifier: q.text };
  return { column: t.text };
}

/**
 * Finds, for each `:param` of a statement, the column it stands for: `col <op> :p` or `:p <op> col` (op a
 * comparison, LIKE, IS or GLOB, with `'%' ||` fragments around the parameter allowed), `SET col = :p`, and
 * `INSERT INTO t (c1, c2) VALUES (:a, :b)` by position. Columns are looked up in the tables the statement names
 * (a qualifier that is a table name wins). Parameters bound to nothing recognisable are left out.
 */
export function bindParams(
  tokens: readonly SqlToken[],
  tables: readonly TableInfo[],
): Map<string, ParamBinding> {
  const mentioned = tables.filter((t) =>
    tokens.some((k) => isIdent(k) && k.text.toLowerCase() === t.name.toLowerCase()),
  );
  const out = new Map<string, ParamBinding>();
  const set = (param: string, found: { table: string; column: string } | undefined, pattern: boolean) => {
    if (found !== undefined && !out.has(param)) out.set(param, { ...found, pattern });
  };
  bindInsert(tokens, tables, set);
  tokens.forEach((t, i) => {
    if (t.kind !== 'param') return;
    let j = i - 1;
    let pattern = false;
    while (tokens[j]?.kind === 'string' || (tokens[j]?.kind === 'op' && tokens[j]?.text === '||')) {
      if (tokens[j]?.kind === 'op') pattern = true;
      j--;
    }
    const op = tokens[j];
    if (op !== undefined) {
      const lower = op.text.toLowerCase();
      let end = j - 1;
      if (op.kind === 'word' && lower === 'not') end = j - 2; // IS NOT / NOT LIKE
      const isCompare =
        (op.kind === 'op' && COMPARE.has(op.text)) || (op.kind === 'word' && COMPARE_WORDS.has(lower));
      const notCompare =
        op.kind === 'word' && lower === 'not' && COMPARE_WORDS.has(tokens[j - 1]?.text.toLowerCase() ?? '');
      if (notCompare) end = j - 2;
      if (isCompare || notCompare) {
        const likeOp = lower === 'like' || lower === 'glob' || tokens[j - 1]?.text.toLowerCase() === 'like';
        const id = identAt(tokens, end);
        if (id !== undefined)
          set(t.text, findColumn(tables, mentioned, id.column, id.qualifier), pattern || likeOp);
      }
    }
    const next = tokens[i + 1];
    if (next?.kind === 'op' && COMPARE.has(next.text)) {
      const id = identAt(tokens, tokens[i + 3]?.text === '.' ? i + 4 : i + 2);
      if (id !== undefined) set(t.text, findColumn(tables, mentioned, id.column, id.qualifier), false);
    }
  });
  return out;
}

function bindInsert(
  tokens: readonly SqlToken[],
  tables: readonly TableInfo[],
  set: (param: string, found: { table: string; column: string } | undefined, pattern: boolean) => void,
): void {
  const into = tokens.findIndex((t) => t.kind === 'word' && t.text.toLowerCase() === 'into');
  if (into === -1 || tokens[into + 2]?.text !== '(') return;
  const table = tables.find((x) => x.name.toLowerCase() === tokens[into + 1]?.text.toLowerCase());
  if (table === undefined) return;
  const columns: string[] = [];
  let i = into + 3;
  for (; i < tokens.length && tokens[i]?.text !== ')'; i++) {
    const t = tokens[i] as SqlToken;
    if (isIdent(t)) columns.push(t.text);
  }
  const values = tokens[i + 1]?.text.toLowerCase() === 'values' && tokens[i + 2]?.text === '(';
  const select = tokens[i + 1]?.kind === 'word' && tokens[i + 1]?.text.toLowerCase() === 'select';
  if (!values && !select) return;
  let depth = 0;
  let position = 0;
  let expr: SqlToken[] = [];
  for (let k = i + (values ? 3 : 2); k < tokens.length; k++) {
    const t = tokens[k] as SqlToken;
    const word = t.kind === 'word' ? t.text.toLowerCase() : '';
    if (select && depth === 0 && (word === 'where' || word === 'from' || t.kind === 'semicolon')) break;
    if (t.text === '(' && t.kind === 'op') depth++;
    if (t.text === ')' && t.kind === 'op' && depth-- === 0) break;
    if (t.text === ',' && t.kind === 'op' && depth === 0) {
      flush();
      continue;
    }
    expr.push(t);
  }
  flush();
  function flush(): void {
    const only = expr.length === 1 ? expr[0] : undefined;
    const column = columns[position++];
    if (only?.kind === 'param' && column !== undefined && table !== undefined) {
      set(only.text, findColumn(tables, [table], column, undefined), false);
    }
    expr = [];
  }
}

/** JSON Schema of one parameter from its binding (a string when nothing better is known). */
export function paramSchema(
  binding: ParamBinding | undefined,
  tables: readonly TableInfo[],
): Record<string, unknown> {
  if (binding === undefined) return { type: 'string' };
  const column = tables.find((t) => t.name === binding.table)?.columns.find((c) => c.name === binding.column);
  // a LIKE fragment is text; a column of no type (or BLOB) takes any value
  const types = binding.pattern ? ['string'] : jsonTypesOf(column?.type ?? '');
  return {
    ...(types === undefined ? {} : { type: types.length === 1 ? types[0] : [...types] }),
    description: binding.pattern
      ? `Text to look for in ${binding.table}.${binding.column}.`
      : `A value of ${binding.table}.${binding.column}.`,
  };
}
