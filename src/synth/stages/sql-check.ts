import type Database from 'better-sqlite3';
import { toPyValue } from '../../core/py-value.js';
import type { Rng } from '../../core/rng.js';
import { analyseTools } from '../../domains/sql/load-spec.js';
import { schemaMismatch } from '../../domains/sql/output-schema.js';
import type { TableInfo } from '../../domains/sql/schema-info.js';
import type { SqlToolJson } from '../../domains/sql/spec-schema.js';
import { sampleArgs } from '../../domains/sql/synth-tools.js';
import { templateTool } from '../../domains/sql/template-tool.js';
import { SqlConnection } from '../../env/sql.js';

/**
 * Validation of a model-written SQL template by execution (issue 19 item 2): the same safety analysis as a
 * hand-written spec (`analyseTools`: statement safety, read-only reads, parameters = placeholders), the result
 * columns against the predicted output schema, then runs on a scratch copy of the database with arguments sampled
 * from the data, each result checked against the output schema. Every failure is a sentence the model can act on.
 */

/** What a check found: ok, or why not. `empty` says every successful run returned nothing. */
export type SqlCheck =
  | { readonly ok: true; readonly empty: boolean }
  | { readonly ok: false; readonly why: string };

/** A value for a parameter compared with no column: from its schema's `enum`, or a small number. */
function unboundSampler(tool: SqlToolJson): (param: string, rng: Rng) => unknown {
  return (param, rng) => {
    const schema = (tool.parameters?.properties[param] ?? {}) as { type?: unknown; enum?: unknown };
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return rng.pick(schema.enum);
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.includes('integer')) return rng.int(1, 10);
    if (types.includes('number')) return rng.int(1, 100);
    if (types.includes('boolean')) return rng.int(0, 1) === 1;
    return undefined;
  };
}

/** The property names a result schema gives a row (none for a count). */
function predictedColumns(output: Readonly<Record<string, unknown>>): string[] | undefined {
  const row = (output.type === 'array' ? output.items : output) as { properties?: Record<string, unknown> };
  return output.type === 'integer' ? undefined : Object.keys(row?.properties ?? {});
}

/**
 * Checks `tool` (its `output` is the predicted schema) against `scratch` (a copy of the database, for analysis) and
 * runs it on fresh copies of `image`, up to `samples` sampled argument sets, until one gives a non-empty result.
 */
export function checkSqlTool(
  tool: SqlToolJson,
  image: Buffer,
  scratch: Database.Database,
  tables: readonly TableInfo[],
  rng: Rng,
  samples: number,
): SqlCheck {
  let template: ReturnType<typeof analyseTools>[number];
  try {
    [template] = analyseTools({ file: tool.name, json: { tools: [tool] } }, scratch, tables) as [
      typeof template,
    ];
  } catch (e) {
    return { ok: false, why: (e as Error).message.replace(`${tool.name}: $.tools[0].`, '') };
  }
  const last = template.statements.at(-1);
  const predicted = predictedColumns(tool.output ?? {});
  if (predicted !== undefined && last?.info.returnsRows === true) {
    const columns = scratch
      .prepare(last.text)
      .columns()
      .map((c) => c.name);
    const missing = predicted.filter((c) => !columns.includes(c));
    const extra = columns.filter((c) => !predicted.includes(c));
    if (missing.length > 0 || extra.length > 0)
      return {
        ok: false,
        why: `the last statement returns the columns ${JSON.stringify(columns)} but the output schema has the properties ${JSON.stringify(predicted)}; select exactly those (alias with AS)`,
      };
  }
  const tool_ = templateTool(template);
  const sql = SqlConnection.open(image);
  let lastError: string | undefined;
  let empty = false;
  try {
    for (let attempt = 0; attempt < samples; attempt++) {
      const args = sampleArgs(rng, sql, template, unboundSampler(tool));
      if (args === undefined) {
        const p = template.params.find((x) => !template.bindings.has(x));
        return {
          ok: false,
          why:
            p === undefined
              ? 'no data to sample arguments from (a compared column is empty)'
              : `no value can be sampled for :${p}: compare it with a column (col = :${p}, col LIKE '%' || :${p} || '%') or give it an integer type`,
        };
      }
      sql.exec('BEGIN');
      try {
        const out = tool_.run(
          { sql, semantics: 'parity' },
          Object.fromEntries(Object.entries(args).map(([k, v]) => [k, toPyValue(v)])),
        );
        const mismatch = schemaMismatch(out, template.output);
        if (mismatch !== undefined)
          return {
            ok: false,
            why: `with arguments ${JSON.stringify(args)} the result does not match the output schema: ${mismatch}`,
          };
        if (Array.isArray(out) && out.length === 0) {
          empty = true;
          continue;
        }
        return { ok: true, empty: false };
      } catch (e) {
        lastError = `with arguments ${JSON.stringify(args)}: ${(e as Error).message}`;
      } finally {
        sql.exec('ROLLBACK');
      }
    }
  } finally {
    sql.close();
  }
  if (empty) return { ok: true, empty: true };
  return { ok: false, why: `no sampled arguments gave a result; the last error, ${lastError ?? 'none'}` };
}
