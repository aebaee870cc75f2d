import type Database from 'better-sqlite3';
import { ToolError } from '../../core/errors.js';
import type { PyValue } from '../../core/py-value.js';
import type { SqlConnection, SqlValue } from '../../env/sql.js';
import type { ToolOutput, ToolParam, ToolSpec } from '../../env/tool.js';
import type { ParamBinding } from './placeholders.js';
import type { SqlToolJson } from './spec-schema.js';
import type { StatementInfo } from './statement-safety.js';

/** A template tool after analysis: its statements, parameters and their column bindings. */
export interface SqlTemplate {
  readonly json: SqlToolJson;
  readonly statements: readonly { readonly text: string; readonly info: StatementInfo }[];
  /** Parameter names in order of first appearance. */
  readonly params: readonly string[];
  readonly schemas: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly bindings: ReadonlyMap<string, ParamBinding>;
  readonly output: Readonly<Record<string, unknown>>;
}

const SAVEPOINT = 'cove_sql_tool';

function cell(value: SqlValue): PyValue {
  return Buffer.isBuffer(value) ? value.toString('base64') : (value as PyValue);
}

/** Converts a row of better-sqlite3 (safe integers) into a dict in column order. */
export function rowValue(row: Record<string, SqlValue>): Map<string, PyValue> {
  return new Map(Object.entries(row).map(([k, v]) => [k, cell(v)]));
}

function bindValue(name: string, value: PyValue, schema: Readonly<Record<string, unknown>>): SqlValue {
  if (schema.type === undefined) {
    // no type (a column of no declared type, or BLOB): any scalar, integers bound as integers
    if (value === null || typeof value === 'bigint' || typeof value === 'string') return value;
    if (typeof value === 'boolean') return value ? 1n : 0n;
    if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
    throw new ToolError(`${name} must be a string or a number`);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [String(schema.type)];
  if (value === null) {
    if (types.includes('null')) return null;
    throw new ToolError(`${name} must not be null`);
  }
  if (typeof value === 'boolean') {
    if (types.includes('boolean')) return value ? 1n : 0n;
  } else if (typeof value === 'bigint') {
    if (types.includes('integer') || types.includes('number')) return value;
    if (types.includes('string')) throw new ToolError(`${name} must be a string, not a number`);
  } else if (typeof value === 'number') {
    if (types.includes('number')) return value;
    if (types.includes('integer') && Number.isInteger(value)) return BigInt(value);
  } else if (typeof value === 'string') {
    if (types.includes('string')) return value;
  }
  throw new ToolError(`${name} must be ${types.filter((t) => t !== 'null').join(' or ')}`);
}

function execute(sql: SqlConnection, template: SqlTemplate, bound: Record<string, SqlValue>): ToolOutput {
  let rows: Record<string, SqlValue>[] = [];
  let changes = 0;
  for (const { text, info } of template.statements) {
    const args = Object.fromEntries(info.params.map((p) => [p, bound[p] ?? null]));
    const stmt: Database.Statement = sql.statement(text);
    if (info.returnsRows) {
      rows = stmt.all(args) as Record<string, SqlValue>[];
    } else {
      const n = sql.run(text, args as unknown as SqlValue);
      if (n === 0) throw new ToolError('no row matched: nothing was changed');
      changes += n;
    }
  }
  const returns = template.json.returns;
  if (returns === 'count') return template.json.kind === 'write' ? BigInt(changes) : BigInt(rows.length);
  if (returns === 'row') {
    const row = rows[0];
    if (row === undefined) throw new ToolError('no matching row');
    return rowValue(row);
  }
  return rows.map(rowValue);
}

/**
 * A template as a cove tool. Arguments are checked against their JSON Schema type and only ever bound as
 * parameters; a read tool runs with `PRAGMA query_only` on (a read-only transaction), a write tool inside a
 * savepoint that is rolled back when any statement fails or changes no row. Rows come back verbatim as JSON
 * (columns in order, integers as integers, blobs as base64); SQL errors and empty results of `row` tools are
 * `Error: …` tool results.
 */
export function templateTool(template: SqlTemplate): ToolSpec {
  const params: ToolParam[] = template.params.map((p) => {
    const schema = template.schemas[p] ?? { type: 'string' };
    const { description, ...rest } = schema as { description?: unknown };
    return {
      name: p,
      schema: rest,
      description: typeof description === 'string' ? description : `The ${p}.`,
    };
  });
  return {
    name: template.json.name,
    kind: template.json.kind,
    params,
    description: template.json.description,
    run({ sql }, args) {
      const bound: Record<string, SqlValue> = {};
      for (const p of template.params) {
        bound[p] = bindValue(p, args[p] as PyValue, template.schemas[p] ?? { type: 'string' });
      }
      if (template.json.kind === 'read') {
        sql.db.pragma('query_only = 1');
        try {
          return execute(sql, template, bound);
        } catch (e) {
          if (e instanceof ToolError) throw e;
          throw new ToolError((e as Error).message);
        } finally {
          sql.db.pragma('query_only = 0');
        }
      }
      sql.db.exec(`SAVEPOINT ${SAVEPOINT}`);
      try {
        const out = execute(sql, template, bound);
        sql.db.exec(`RELEASE ${SAVEPOINT}`);
        return out;
      } catch (e) {
        sql.db.exec(`ROLLBACK TO ${SAVEPOINT}`);
        sql.db.exec(`RELEASE ${SAVEPOINT}`);
        if (e instanceof ToolError) throw e;
        throw new ToolError((e as Error).message);
      }
    },
  };
}
