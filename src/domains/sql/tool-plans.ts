import type { TableInfo } from './schema-info.js';
import type { SqlTemplate } from './template-tool.js';

/** What a parameter of a write template stands for. */
export type ParamRole =
  /** The target row's key column (update/delete): the row the call changes. */
  | { readonly role: 'key'; readonly column: string }
  /** A foreign-key column of the target: a row of `parent` (by `parentColumn`). */
  | {
      readonly role: 'parent';
      readonly column: string;
      readonly parent: string;
      readonly parentColumn: string;
    }
  /** A plain column value the user states. */
  | { readonly role: 'value'; readonly column: string };

/** How the synthesis drives one write template. */
export interface WritePlan {
  readonly template: SqlTemplate;
  readonly op: 'update' | 'insert' | 'delete';
  readonly table: TableInfo;
  readonly roles: Readonly<Record<string, ParamRole>>;
}

/** The table a write statement targets and its verb, read from its tokens. */
function target(
  template: SqlTemplate,
  tables: readonly TableInfo[],
): { op: WritePlan['op']; table: TableInfo } | undefined {
  const write = template.statements.find((s) => !s.info.readonly);
  if (write === undefined) return undefined;
  const toks = write.info.tokens.filter((t) => t.kind === 'word' || t.kind === 'quoted');
  for (let i = 0; i < toks.length; i++) {
    const w = toks[i]?.kind === 'word' ? toks[i]?.text.toLowerCase() : '';
    const op = w === 'update' ? 'update' : w === 'into' ? 'insert' : w === 'delete' ? 'delete' : undefined;
    if (op === undefined) continue;
    let j = i + 1;
    if (op === 'delete' && toks[j]?.text.toLowerCase() === 'from') j++;
    if (op === 'update' && toks[j]?.kind === 'word' && toks[j]?.text.toLowerCase() === 'or') j += 2;
    const table = tables.find((t) => t.name.toLowerCase() === toks[j]?.text.toLowerCase());
    return table === undefined ? undefined : { op, table };
  }
  return undefined;
}

/**
 * A plan for a write template whose every parameter is bound to a column of its target table (see
 * `placeholders.ts`), or undefined when the synthesis cannot drive it (it is still a tool the agent may use).
 */
export function writePlan(template: SqlTemplate, tables: readonly TableInfo[]): WritePlan | undefined {
  if (template.json.kind !== 'write') return undefined;
  const t = target(template, tables);
  if (t === undefined || t.table.primaryKey.length === 0) return undefined;
  const roles: Record<string, ParamRole> = {};
  for (const p of template.params) {
    const b = template.bindings.get(p);
    if (b === undefined || b.table !== t.table.name || b.pattern) return undefined;
    const fk = t.table.foreignKeys.find((f) => f.columns.length === 1 && f.columns[0] === b.column);
    if (
      t.op !== 'insert' &&
      t.table.primaryKey.includes(b.column) &&
      !Object.values(roles).some((r) => r.column === b.column && r.role === 'key')
    )
      roles[p] = { role: 'key', column: b.column };
    else if (fk !== undefined)
      roles[p] = {
        role: 'parent',
        column: b.column,
        parent: fk.parent,
        parentColumn: fk.parentColumns[0] as string,
      };
    else if (t.table.primaryKey.includes(b.column)) return undefined;
    else roles[p] = { role: 'value', column: b.column };
  }
  if (t.op !== 'insert') {
    const keys = Object.values(roles)
      .filter((r) => r.role === 'key')
      .map((r) => r.column);
    if (t.table.primaryKey.some((c) => !keys.includes(c))) return undefined;
  }
  return { template, op: t.op, table: t.table, roles };
}

/** A read template that looks one row up by its table's whole (single-column) key: `info` kinds ask through it. */
export function lookupParam(
  template: SqlTemplate,
  tables: readonly TableInfo[],
): { param: string; table: TableInfo } | undefined {
  if (template.json.kind !== 'read' || template.params.length !== 1) return undefined;
  const param = template.params[0] as string;
  const b = template.bindings.get(param);
  const table = tables.find((t) => t.name === b?.table);
  if (b === undefined || b.pattern || table === undefined) return undefined;
  if (table.primaryKey.length !== 1 || table.primaryKey[0] !== b.column) return undefined;
  return { param, table };
}
