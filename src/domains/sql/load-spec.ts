import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError, InputFileError } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import { installChangeTracking } from '../../env/change-tracking.js';
import type { EnvironmentBase } from '../../env/environment-base.js';
import { EnvironmentBase as Base } from '../../env/environment-base.js';
import { SqlConnection } from '../../env/sql.js';
import { collectionsOf, readSqliteImage } from '../../env/sql-collections.js';
import { readPlainJson } from '../../io/read-input.js';
import type { Domain } from '../domain.js';
import { deriveOutputSchema } from './output-schema.js';
import { bindParams, paramSchema } from './placeholders.js';
import { readSchema, type TableInfo } from './schema-info.js';
import { SqlOracleAgent, type SqlOracleContext } from './sim/oracle.js';
import { SqlScriptedUser } from './sim/user.js';
import { readSqlSpec, type SqlSpec } from './spec-schema.js';
import { type SqlFuzz, sqlSynthesis } from './sql-synthesis.js';
import { analyseStatement, UnsafeStatementError } from './statement-safety.js';
import { type SqlTemplate, templateTool } from './template-tool.js';
import { writePlan } from './tool-plans.js';
import { ToolReach } from './tool-resolver.js';

/** A loaded SQL domain: the domain, its analysed templates and schema, and the image of its database. */
export interface SqlDomain {
  readonly spec: SqlSpec;
  readonly domain: Domain;
  readonly templates: readonly SqlTemplate[];
  readonly tables: readonly TableInfo[];
  /** The database the spec names, as a SQLite image. */
  readonly image: Buffer;
  /** The file tasks record as their DB: the SQLite file, or the spec itself for `{ddl, rows}`. */
  readonly dbFile: string;
  /** What the spec loads with but cannot use, e.g. a rule that can never give a refusal task (file: path: why). */
  readonly warnings: readonly string[];
}

/** A file the spec names at `field` must be readable: else the error names the spec, the field and the path. */
function readable(spec: SqlSpec, field: string, file: string): void {
  try {
    accessSync(file, constants.R_OK);
    if (statSync(file).isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
  } catch (e) {
    throw new InputFileError(
      spec.file,
      field,
      `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)}); fix the path (relative to the spec's folder)`,
    );
  }
}

/**
 * The spec's database as a SQLite image: the SQLite file's bytes (never opened for writing), or the DDL file run
 * on an empty database and the rows file (`{table: [{column: value}]}`) inserted with bound parameters.
 * @throws {InputFileError} naming the spec and its `$.database` field (or the rows file and its JSON path).
 */
export function specImage(spec: SqlSpec): Buffer {
  const db = spec.database;
  if ('sqlite' in db) {
    readable(spec, '$.database.sqlite', db.sqlite);
    try {
      return readSqliteImage(db.sqlite);
    } catch (e) {
      if (e instanceof InputFileError)
        throw new InputFileError(spec.file, '$.database.sqlite', `${db.sqlite}: ${e.reason}`);
      throw e;
    }
  }
  readable(spec, '$.database.ddl', db.ddl);
  if (db.rows !== undefined) readable(spec, '$.database.rows', db.rows);
  const conn = new Database(':memory:');
  try {
    try {
      conn.exec(readFileSync(db.ddl, 'utf8'));
    } catch (e) {
      throw new InputFileError(spec.file, '$.database.ddl', `${db.ddl}: ${(e as Error).message}`);
    }
    if (db.rows !== undefined) {
      const rows = readPlainJson(db.rows) as Record<string, Record<string, unknown>[]>;
      if (rows === null || typeof rows !== 'object' || Array.isArray(rows))
        throw new InputFileError(db.rows, '$', 'must be an object of table → list of rows');
      for (const [table, list] of Object.entries(rows)) {
        if (!Array.isArray(list)) throw new InputFileError(db.rows, `$.${table}`, 'must be a list of rows');
        list.forEach((row, i) => {
          const cols = Object.keys(row);
          const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
          try {
            conn
              .prepare(
                `INSERT INTO ${q(table)} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
              )
              .run(...cols.map((c) => row[c] as never));
          } catch (e) {
            throw new InputFileError(db.rows as string, `$.${table}[${i}]`, (e as Error).message);
          }
        });
      }
    }
    return conn.serialize();
  } finally {
    conn.close();
  }
}

/**
 * Analyses a spec's tool templates against a scratch copy of its database: safety (see `statement-safety.ts`),
 * parameter bindings and schemas, output schema.
 * @throws {InputFileError} naming the spec file and the JSON path of the first refused statement.
 */
export function analyseTools(
  spec: Pick<SqlSpec, 'file'> & { json: Pick<SqlSpec['json'], 'tools'> },
  scratch: Database.Database,
  tables: readonly TableInfo[],
): SqlTemplate[] {
  const allowed = new Set(tables.map((t) => t.name));
  return spec.json.tools.map((tool, i) => {
    const texts = typeof tool.sql === 'string' ? [tool.sql] : tool.sql;
    const statements = texts.map((text, j) => {
      const where = typeof tool.sql === 'string' ? `$.tools[${i}].sql` : `$.tools[${i}].sql[${j}]`;
      try {
        const info = analyseStatement(scratch, text, allowed);
        if (tool.kind === 'read' && !info.readonly)
          throw new UnsafeStatementError('a read tool may only run statements that cannot write');
        if (!info.readonly && info.returnsRows)
          throw new UnsafeStatementError('a write statement may not return rows: add a SELECT after it');
        return { text, info };
      } catch (e) {
        if (e instanceof UnsafeStatementError)
          throw new InputFileError(spec.file, where, `refused: ${e.message}`);
        throw e;
      }
    });
    const last = statements[statements.length - 1];
    if (tool.returns !== 'count' && last?.info.returnsRows !== true)
      throw new InputFileError(
        spec.file,
        `$.tools[${i}].returns`,
        `'${tool.returns}' needs a last statement that returns rows`,
      );
    if (tool.kind === 'write' && statements.every((s) => s.info.readonly))
      throw new InputFileError(spec.file, `$.tools[${i}].kind`, 'a write tool needs a statement that writes');
    const params = [...new Set(statements.flatMap((s) => s.info.params))];
    const bindings = new Map(statements.flatMap((s) => [...bindParams(s.info.tokens, tables)]).reverse());
    const given = tool.parameters?.properties;
    if (given !== undefined) {
      const names = Object.keys(given);
      const missing = params.filter((p) => !names.includes(p));
      const extra = names.filter((p) => !params.includes(p));
      if (missing.length > 0 || extra.length > 0)
        throw new InputFileError(
          spec.file,
          `$.tools[${i}].parameters.properties`,
          `must list exactly the placeholders (${params.join(', ') || 'none'})`,
        );
    }
    const schemas = Object.fromEntries(
      params.map((p) => [p, given?.[p] ?? paramSchema(bindings.get(p), tables)]),
    );
    const output =
      tool.output ??
      deriveOutputSchema(last?.info.returnsRows ? scratch.prepare(last.text) : undefined, tool.returns);
    return { json: tool, statements, params, schemas, bindings, output };
  });
}

/** Each rule's condition is analysed like a template (as `SELECT CASE WHEN (<when>) …`) and may only use its tool's parameters. */
function analyseRules(
  spec: SqlSpec,
  scratch: Database.Database,
  tables: readonly TableInfo[],
  templates: readonly SqlTemplate[],
): void {
  const allowed = new Set(tables.map((t) => t.name));
  (spec.json.rules ?? []).forEach((rule, i) => {
    const where = `$.rules[${i}].when`;
    let params: readonly string[];
    try {
      const info = analyseStatement(scratch, `SELECT CASE WHEN (${rule.when}) THEN 1 ELSE 0 END`, allowed);
      if (!info.readonly) throw new UnsafeStatementError('a rule condition may not write');
      params = info.params;
    } catch (e) {
      if (e instanceof UnsafeStatementError)
        throw new InputFileError(spec.file, where, `refused: ${e.message}`);
      throw e;
    }
    const tool = templates.find((t) => t.json.name === rule.tool);
    const unknown = params.filter((p) => !tool?.params.includes(p));
    if (unknown.length > 0)
      throw new InputFileError(
        spec.file,
        where,
        `uses ${unknown.map((p) => `:${p}`).join(', ')}, not parameters of ${rule.tool}`,
      );
  });
}

/** The base of a loaded SQL domain: an in-memory copy of its database with change tracking. */
export function sqlBase(domain: Domain, image: Buffer): EnvironmentBase {
  const sql = SqlConnection.open(image);
  try {
    installChangeTracking(sql, domain);
  } catch (e) {
    sql.close();
    throw e;
  }
  return new Base(domain, sql);
}

/**
 * Loads a SQL domain spec: reads its database, analyses every statement (refusing unsafe ones, see
 * `statement-safety.ts`), derives missing parameter and output schemas, and builds the {@link Domain}: state
 * collections are the spec's tables (all user tables by default), tools are the templates, synthesis the generic
 * SQL kinds. Episodes run on isolated in-memory copies.
 * @throws {InputFileError} naming the spec file and the JSON path of the first problem.
 */
export function loadSqlDomain(file: string): SqlDomain {
  const spec = readSqlSpec(file);
  const image = specImage(spec);
  const scratch = new Database(image);
  try {
    const all = readSchema(scratch);
    const wanted = spec.json.tables;
    wanted?.forEach((t, i) => {
      if (!all.some((x) => x.name === t))
        throw new InputFileError(spec.file, `$.tables[${i}]`, `no table '${t}' in the database`);
    });
    const tables = wanted === undefined ? all : all.filter((t) => wanted.includes(t.name));
    const templates = analyseTools(spec, scratch, tables);
    analyseRules(spec, scratch, tables, templates);
    const conn = SqlConnection.open(image);
    const collections = collectionsOf(conn).filter((c) => tables.some((t) => t.name === c.name));
    conn.close();
    const rules = spec.json.rules ?? [];
    const policy = [
      spec.json.policy.trim(),
      ...(rules.length === 0
        ? []
        : ['', 'Rules (refuse these requests):', ...rules.map((r) => `- ${r.refusal}`)]),
    ].join('\n');
    const synthesis = sqlSynthesis({ templates, tables, rules, collections });
    const oracleContext: SqlOracleContext = {
      reach: new ToolReach(templates, tables),
      tables,
      plans: new Map(
        templates.flatMap((t) => {
          const plan = writePlan(t, tables);
          return plan === undefined ? [] : [[t.json.name, plan] as const];
        }),
      ),
      refusalLookup: new Map(
        synthesis.kinds.flatMap((k) => {
          const l = k.grounding?.lookup[0];
          return l === undefined ? [] : [[k.name, { tool: l.tool, argument: l.argument }] as const];
        }),
      ),
      refusalText: new Map(rules.map((r) => [`refuse_${r.name}`, r.refusal])),
    };
    const domain: Domain = {
      name: spec.json.name,
      version: `sql-1+${sha256Hex(JSON.stringify(spec.json)).slice(0, 12)}`,
      schemaSql: '',
      collections,
      tools: templates.map(templateTool),
      outputSchemas: Object.fromEntries(templates.map((t) => [t.json.name, t.output])),
      policy: {
        cove: policy,
        instructions: `You help users of the ${spec.json.name} database. Use the tools; make one tool call at a time.`,
      },
      synthesis,
      simulation: {
        createOracleAgent: (task, rng) =>
          new SqlOracleAgent(task.fuzz as unknown as SqlFuzz, task.constraints, rng, oracleContext),
        createScriptedUser: (task, rng) =>
          new SqlScriptedUser(
            task.fuzz as unknown as SqlFuzz,
            rng,
            task.behaviour ?? { persona: 'friendly', knowledge: [], events: [] },
          ),
      },
      files: {
        openBase(dbFile: string) {
          const same = resolve(dbFile) === resolve(spec.file);
          return sqlBase(domain, same ? image : readSqliteImage(dbFile));
        },
      },
    };
    const dbFile = 'sqlite' in spec.database ? spec.database.sqlite : resolve(spec.file);
    const warnings = synthesis.unusedRules.map(
      (u) =>
        `${spec.file}: $.rules[${rules.findIndex((r) => r.name === u.rule)}]: rule ${u.rule} can never give a refusal task: ${u.why}`,
    );
    return { spec, domain, templates, tables, image, dbFile, warnings };
  } finally {
    scratch.close();
  }
}

/**
 * Loads a spec for a CLI flag, turning a missing file into a clear error; with `warn`, the spec's warnings
 * (see {@link SqlDomain.warnings}) go to it, one a line.
 */
export function loadSqlDomainFlag(
  file: string | undefined,
  flag = '--domain-spec',
  warn?: (line: string) => void,
): SqlDomain | undefined {
  if (file === undefined) return undefined;
  if (file.trim() === '') throw new ConfigError(`${flag} needs a spec file`);
  const loaded = loadSqlDomain(file);
  for (const w of loaded.warnings) warn?.(`warning: ${w}\n`);
  return loaded;
}
