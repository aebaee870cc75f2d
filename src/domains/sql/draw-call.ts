import { toPyValue } from '../../core/py-value.js';
import type { Rng } from '../../core/rng.js';
import type { Episode } from '../../env/episode.js';
import type { SqlConnection, SqlValue } from '../../env/sql.js';
import { quoteIdent } from '../../env/sql-collections.js';
import {
  type Clause,
  describeRow,
  type Plain,
  plain,
  type Reference,
  renderReference,
  resolveReference,
  sqlParam,
  words,
} from './references.js';
import type { TableInfo } from './schema-info.js';
import type { SqlRuleJson } from './spec-schema.js';
import type { WritePlan } from './tool-plans.js';
import { keyOf, resolveNow, type ToolReach, type ToolRow } from './tool-resolver.js';

/** A drawn call of a write template with its request in words. */
export interface DrawnCall {
  readonly args: Record<string, Plain>;
  readonly text: string;
  readonly references: (Reference & { readonly param: string })[];
  readonly hidden: string[];
}

/**
 * Whether the read tools resolve `clauses` to the row with `key` on the episode's current state (the calls the
 * oracle agent will make, made here on the draft's copy; identical calls are made once).
 */
export function resolvesThroughTools(
  reach: ToolReach,
  episode: Episode,
  table: TableInfo,
  clauses: readonly Clause[],
  key: Readonly<Record<string, Plain>>,
): boolean {
  if (!reach.routable(table.name, clauses)) return false;
  const made = new Map<string, string>();
  const found = resolveNow(reach.resolve(table.name, clauses), (c) => {
    const id = JSON.stringify([c.name, c.args]);
    let content = made.get(id);
    if (content === undefined) {
      content = episode.call(c.name, toPyValue(c.args)).content;
      made.set(id, content);
    }
    return content;
  });
  return (
    'rows' in found &&
    found.rows.length === 1 &&
    JSON.stringify(keyOf(table, found.rows[0] as ToolRow)) ===
      JSON.stringify(Object.fromEntries(table.primaryKey.map((c) => [c, key[c] ?? null])))
  );
}

/**
 * A reference to the row with `key`: described (fuzzy) or by its key; undefined when no description is unique,
 * names the same row in the initial state, and is resolved to that row by the read tools (`reach`).
 */
export function referenceFor(
  episode: Episode,
  tables: readonly TableInfo[],
  table: TableInfo,
  key: Record<string, Plain>,
  fuzzy: boolean,
  initial: SqlConnection,
  reach: ToolReach,
): Reference | undefined {
  if (!fuzzy) return { table: table.name, key, clauses: [] };
  // no description of this table can be routed through the tools: skip the search for one
  if (!reach.describable(table.name)) return undefined;
  const hidden = Object.values(key).map((v) => String(v));
  const clauses = describeRow(episode.sql, tables, table, key, hidden, (cs) =>
    resolvesThroughTools(reach, episode, table, cs, key),
  );
  if (clauses === undefined) return undefined;
  // the description must name the same row in the initial state too (what the recheck and the user go by)
  const rows = resolveReference(initial, tables, { table: table.name, clauses });
  if (rows.length !== 1 || JSON.stringify(rows[0]) !== JSON.stringify(key)) return undefined;
  return { table: table.name, key, clauses };
}

/**
 * The verb of a write tool's name (`cancel_visit` → `cancel`), for an update whose only parameters are the key: it
 * changes the row in a way fixed by its SQL (a status flip), so the request names the action, not new values.
 */
function verbOf(tool: string): string {
  const first = tool.split('_')[0]?.toLowerCase() ?? '';
  // "know" would read as an information request (`You want to know …`)
  return /^[a-z]{2,}$/.test(first) && first !== 'know' ? first : 'change';
}

/** Whether `rule`'s condition holds for a call with `args`, on the episode's current state. */
export function ruleHolds(
  episode: Episode,
  rule: SqlRuleJson,
  args: Readonly<Record<string, Plain>>,
): boolean {
  const check = `SELECT CASE WHEN (${rule.when}) THEN 1 ELSE 0 END AS hit`;
  const used = Object.fromEntries(
    Object.entries(args)
      .filter(([k]) => new RegExp(`:${k}\\b`).test(rule.when))
      .map(([k, v]) => [k, sqlParam(v)]),
  );
  return Number((episode.sql.statement(check).get(used) as { hit: bigint } | undefined)?.hit ?? 0) === 1;
}

/** A random row of `table`, in rowid order (key order for a `WITHOUT ROWID` table, which has no rowid). */
function randomRow(rng: Rng, episode: Episode, table: TableInfo): Record<string, SqlValue> | undefined {
  const name = quoteIdent(table.name);
  const n = Number(episode.sql.get(`SELECT count(*) AS n FROM ${name}`)?.n ?? 0);
  if (n === 0) return undefined;
  const order = table.withoutRowid ? table.primaryKey.map(quoteIdent).join(', ') : 'rowid';
  return episode.sql.get(
    `SELECT * FROM ${name} ORDER BY ${order} LIMIT 1 OFFSET ?`,
    BigInt(rng.int(0, n - 1)),
  );
}

function otherValue(
  rng: Rng,
  episode: Episode,
  table: string,
  column: string,
  current: Plain,
): Plain | undefined {
  const values = episode.sql
    .all(
      `SELECT DISTINCT ${quoteIdent(column)} AS v FROM ${quoteIdent(table)} WHERE ${quoteIdent(column)} IS NOT NULL ORDER BY 1 LIMIT 200`,
    )
    .map((r) => plain(r.v))
    .filter((v) => v !== current && !(typeof v === 'string' && v.length > 60));
  return values.length === 0 ? undefined : rng.pick(values);
}

/**
 * Draws arguments for a write template from existing rows: the target row for update/delete keys, a parent
 * row for each foreign-key parameter, and for each plain column a value another row holds (different from the
 * target's current one). With `rule`, only arguments for which the rule's condition holds and the call would
 * succeed (`probe`, on a fresh fork) are kept; without it, arguments any rule of `forbidding` forbids are rejected.
 */
export function drawCall(
  rng: Rng,
  episode: Episode,
  plan: WritePlan,
  tables: readonly TableInfo[],
  /** The base's connection: descriptions must name the same row there. */
  initial: SqlConnection,
  fuzzy: () => boolean,
  reach: ToolReach,
  refusal?: {
    readonly rule: SqlRuleJson;
    readonly probe: (tool: string, args: Record<string, unknown>) => boolean;
  },
  /** For an ordinary write goal: the rules on this tool; a call any of them forbids is rejected. */
  forbidding: readonly SqlRuleJson[] = [],
): DrawnCall | { rejected: string } {
  const name = plan.template.json.name;
  const target = plan.op === 'insert' ? undefined : randomRow(rng, episode, plan.table);
  if (plan.op !== 'insert' && target === undefined) return { rejected: `${plan.table.name} is empty` };
  const args: Record<string, Plain> = {};
  const references: (Reference & { param: string })[] = [];
  const hidden: string[] = [];
  const sets: string[] = [];
  const links: string[] = [];
  const keyParams = Object.entries(plan.roles).filter(([, r]) => r.role === 'key');
  for (const [p, role] of Object.entries(plan.roles)) {
    if (role.role === 'key') args[p] = plain(target?.[role.column]);
    else if (role.role === 'parent') {
      const parent = tables.find((t) => t.name === role.parent);
      const prow = parent === undefined ? undefined : randomRow(rng, episode, parent);
      if (parent === undefined || prow === undefined || parent.primaryKey.length !== 1)
        return { rejected: `no ${role.parent} row to link` };
      const key = plain(prow[role.parentColumn]);
      if (plan.op === 'update' && key === plain(target?.[role.column]))
        return { rejected: `${name} would link the same row` };
      args[p] = key;
      const ref = referenceFor(
        episode,
        tables,
        parent,
        { [parent.primaryKey[0] as string]: plain(prow[parent.primaryKey[0] as string]) },
        fuzzy(),
        initial,
        reach,
      );
      if (ref === undefined)
        return { rejected: `no unique description of a ${parent.name} row that the read tools resolve` };
      references.push({ ...ref, param: p });
      if (ref.clauses.length > 0) hidden.push(...Object.values(ref.key).map(String));
      links.push(
        `${words(role.column.replace(/_?id$/i, '')) || words(parent.name)}: ${renderReference(tables, ref)}`,
      );
    } else {
      const v = otherValue(
        rng,
        episode,
        plan.table.name,
        role.column,
        plan.op === 'update' ? plain(target?.[role.column]) : null,
      );
      if (v === undefined) return { rejected: `no value for ${plan.table.name}.${role.column}` };
      args[p] = v;
      sets.push(`the ${words(role.column)} set to ${JSON.stringify(v)}`);
    }
  }
  // an ordinary write goal may not ask for what a rule forbids: the oracle would do it and teach breaking the policy
  const broken = forbidding.find((rule) => ruleHolds(episode, rule, args));
  if (broken !== undefined) return { rejected: `rule ${broken.name} forbids this ${name} call` };
  let subject = '';
  if (plan.op !== 'insert') {
    const key = Object.fromEntries(keyParams.map(([p, r]) => [r.column, args[p] as Plain]));
    const ref = referenceFor(episode, tables, plan.table, key, fuzzy(), initial, reach);
    if (ref === undefined)
      return {
        rejected: `no unique description of ${plan.table.name} ${JSON.stringify(key)} that the read tools resolve`,
      };
    references.unshift({ ...ref, param: (keyParams[0] as [string, unknown])[0] });
    if (ref.clauses.length > 0) hidden.push(...Object.values(key).map(String));
    subject = renderReference(tables, ref);
  }
  if (refusal !== undefined) {
    const rule = refusal.rule;
    if (!ruleHolds(episode, rule, args)) return { rejected: `rule ${rule.name} does not apply` };
    if (!refusal.probe(name, args)) return { rejected: `${name} would fail anyway` };
  }
  const noun = words(plan.table.name);
  const stated = [...sets, ...links];
  const text =
    plan.op === 'delete'
      ? `You want ${subject} removed.`
      : plan.op === 'update' && stated.length === 0
        ? `You want to ${verbOf(name)} ${subject}.`
        : plan.op === 'update'
          ? `You want ${subject} changed, with ${stated.join(' and ')}.`
          : `You want a new ${noun} added, with ${stated.join(' and ')}.`;
  return { args, text, references, hidden };
}
