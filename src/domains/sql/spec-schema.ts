import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { InputFileError, jsonPath } from '../../core/errors.js';
import { readPlainJson } from '../../io/read-input.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const ToolJson = z
  .object({
    name: z.string().regex(NAME, 'must be a letter or _ followed by letters, digits or _ (at most 64)'),
    description: z.string().min(1),
    kind: z.enum(['read', 'write']),
    sql: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    parameters: z
      .object({
        type: z.literal('object'),
        properties: z.record(z.string(), z.record(z.string(), z.unknown())),
        required: z.array(z.string()).optional(),
      })
      .optional(),
    output: z.record(z.string(), z.unknown()).optional(),
    returns: z.enum(['rows', 'row', 'count']),
  })
  .strict();

const RuleJson = z
  .object({
    name: z.string().regex(NAME, 'must be a letter or _ followed by letters, digits or _ (at most 64)'),
    tool: z.string(),
    when: z.string().min(1),
    refusal: z.string().min(1),
  })
  .strict();

const DatabaseJson = z.union([
  z.object({ sqlite: z.string().min(1) }).strict(),
  z.object({ ddl: z.string().min(1), rows: z.string().min(1).optional() }).strict(),
]);

/** The JSON shape of a SQL domain spec (docs/sql-domains.md). */
export const SqlSpecJson = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, 'must be lower-case letters, digits, - or _'),
    description: z.string().optional(),
    database: DatabaseJson,
    tables: z.array(z.string()).optional(),
    policy: z.string().min(1),
    rules: z.array(RuleJson).optional(),
    tools: z.array(ToolJson).min(1),
  })
  .strict();

export type SqlSpecJson = z.infer<typeof SqlSpecJson>;
export type SqlToolJson = z.infer<typeof ToolJson>;
export type SqlRuleJson = z.infer<typeof RuleJson>;

/** A parsed spec with its file and its database paths made absolute. */
export interface SqlSpec {
  readonly file: string;
  readonly json: SqlSpecJson;
  /** Absolute path of the SQLite file, or of the DDL file (and rows file) for `{ddl, rows}`. */
  readonly database: { readonly sqlite: string } | { readonly ddl: string; readonly rows?: string };
}

function pathOf(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) out = jsonPath(out, typeof key === 'number' ? key : String(key));
  return out;
}

/**
 * Validates a parsed spec value; paths in it are resolved relative to the spec file's folder.
 * @throws {InputFileError} naming `file` and the JSON path of the first problem.
 */
export function parseSqlSpec(value: unknown, file: string): SqlSpec {
  const result = SqlSpecJson.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new InputFileError(file, pathOf(issue?.path ?? []), issue?.message ?? 'invalid spec');
  }
  const json = result.data;
  const names = new Set<string>();
  json.tools.forEach((t, i) => {
    if (names.has(t.name))
      throw new InputFileError(file, `$.tools[${i}].name`, `duplicate tool name '${t.name}'`);
    names.add(t.name);
  });
  json.rules?.forEach((r, i) => {
    const tool = json.tools.find((t) => t.name === r.tool);
    if (tool === undefined) throw new InputFileError(file, `$.rules[${i}].tool`, `no tool named '${r.tool}'`);
    if (tool.kind !== 'write')
      throw new InputFileError(file, `$.rules[${i}].tool`, `'${r.tool}' is not a write tool`);
  });
  const dir = dirname(resolve(file));
  const db = json.database;
  const database =
    'sqlite' in db
      ? { sqlite: resolve(dir, db.sqlite) }
      : { ddl: resolve(dir, db.ddl), ...(db.rows === undefined ? {} : { rows: resolve(dir, db.rows) }) };
  return { file, json, database };
}

/** Reads and validates a spec file. @throws {InputFileError} for unreadable, malformed or invalid files. */
export function readSqlSpec(file: string): SqlSpec {
  return parseSqlSpec(readPlainJson(file), file);
}
