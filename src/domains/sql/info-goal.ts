import { toPyValue } from '../../core/py-value.js';
import type { Rng } from '../../core/rng.js';
import type { Episode } from '../../env/episode.js';
import type { SqlConnection, SqlValue } from '../../env/sql.js';
import { quoteIdent } from '../../env/sql-collections.js';
import { referenceFor } from './draw-call.js';
import { type Plain, plain, type Reference, renderReference, words } from './references.js';
import type { TableInfo } from './schema-info.js';
import type { SqlTemplate } from './template-tool.js';
import type { ToolReach } from './tool-resolver.js';

/**
 * Draws one information goal: a random row of the lookup tool's table, described (or named by key at fuzz 0),
 * looked up through the tool on the draft's copy, and a non-key value of the result the user asks for (not one of
 * the columns of the description, not a bare number, at least three characters).
 */
export function infoGoal(
  rng: Rng,
  episode: Episode,
  pick: { readonly template: SqlTemplate; readonly param: string; readonly table: TableInfo },
  tables: readonly TableInfo[],
  fuzzy: boolean,
  initial: SqlConnection,
  reach: ToolReach,
):
  | { args: Record<string, unknown>; text: string; ref: Reference & { param: string }; hidden: string[] }
  | { rejected: string } {
  const table = pick.table;
  const keyCol = table.primaryKey[0] as string;
  const n = Number(episode.sql.get(`SELECT count(*) AS n FROM ${quoteIdent(table.name)}`)?.n ?? 0);
  if (n === 0) return { rejected: `${table.name} is empty` };
  const row = episode.sql.get(
    `SELECT ${quoteIdent(keyCol)} AS k FROM ${quoteIdent(table.name)} ORDER BY ${quoteIdent(keyCol)} LIMIT 1 OFFSET ?`,
    BigInt(rng.int(0, n - 1)),
  );
  const key = plain(row?.k as SqlValue);
  const ref = referenceFor(episode, tables, table, { [keyCol]: key }, fuzzy, initial, reach);
  if (ref === undefined)
    return { rejected: `no unique description of ${table.name} ${key} that the read tools resolve` };
  const result = episode.call(pick.template.json.name, toPyValue({ [pick.param]: key }));
  if (result.error) return { rejected: `${pick.template.json.name} fails: ${result.content}` };
  const values = JSON.parse(result.content) as Record<string, unknown>;
  const fkCols = new Set(table.foreignKeys.flatMap((f) => f.columns));
  const described = new Set(ref.clauses.map((c) => c.column));
  const columns = Object.entries(values).filter(
    ([c, v]) =>
      !table.primaryKey.includes(c) &&
      !fkCols.has(c) &&
      !described.has(c) &&
      (typeof v === 'string' || typeof v === 'number') &&
      String(v).length >= 3 &&
      !/^\d+$/.test(String(v)),
  );
  if (columns.length === 0) return { rejected: `${pick.template.json.name} returns nothing to ask about` };
  const [column, value] = rng.pick(columns);
  const hidden = ref.clauses.length === 0 ? [] : [String(key)];
  const text = `You want to know the ${words(column)} of ${renderReference(tables, ref)}.`;
  return {
    args: { call: { [pick.param]: key }, column, value: String(value) as Plain },
    text,
    ref: { ...ref, param: pick.param },
    hidden,
  };
}
