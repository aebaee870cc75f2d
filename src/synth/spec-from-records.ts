import { dirname, relative, resolve } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError } from '../core/errors.js';
import { loadSqlDomain, type SqlDomain } from '../domains/sql/load-spec.js';
import type { SqlSpecJson, SqlToolJson } from '../domains/sql/spec-schema.js';
import { DEFAULT_SQL_POLICY } from '../domains/sql/synth-tools.js';
import type { SqlToolRecord } from './stages/tool-records.js';

/** What {@link writeSpecFromRecords} wrote and left out. */
export interface SpecFromRecords {
  readonly spec: SqlSpecJson;
  readonly loaded: SqlDomain;
  /** Tools left out as duplicates: same name as an earlier one, or the same kind, parameters and SQL. */
  readonly duplicates: readonly { readonly tool: string; readonly reason: string }[];
}

/** A tool's signature: kind, parameter names and its SQL with whitespace and case folded. */
function signature(t: SqlToolRecord): string {
  const sql = (typeof t.sql === 'string' ? [t.sql] : t.sql).map((s) =>
    s.replace(/\s+/g, ' ').trim().toLowerCase(),
  );
  return JSON.stringify([t.kind, Object.keys(t.parameters.properties).sort(), sql]);
}

/**
 * Writes the SQL domain spec of the `sql` stage's records — the same file `cove synth tools` writes without a
 * model (docs/sql-domains.md), so everything downstream is shared — and loads it back through the same analysis
 * as a hand-written spec (statement safety, parameters, output schemas).
 * @param domain which domain of the records (default: the only one)
 * @throws {ConfigError} when the records hold no tool, or several domains and none is chosen; InputFileError when
 *   the spec fails its analysis (naming the spec file and the tool's JSON path).
 */
export function writeSpecFromRecords(
  records: readonly SqlToolRecord[],
  out: string,
  domain?: string,
): SpecFromRecords {
  const names = [...new Set(records.map((r) => r.domain.name))];
  const chosen = domain ?? names[0];
  if (domain === undefined && names.length > 1)
    throw new ConfigError(`the records hold several domains (${names.join(', ')}); choose one`);
  const own = records.filter((r) => r.domain.name === chosen);
  const first = own[0];
  if (first === undefined)
    throw new ConfigError(
      `no validated tool${chosen === undefined ? '' : ` of domain ${chosen}`} to write a spec from`,
    );
  const byName = new Set<string>();
  const bySignature = new Map<string, string>();
  const duplicates: { tool: string; reason: string }[] = [];
  const tools: SqlToolJson[] = [];
  for (const r of own) {
    if (byName.has(r.name)) {
      duplicates.push({ tool: r.name, reason: 'a tool of the same name came first' });
      continue;
    }
    const sig = signature(r);
    const same = bySignature.get(sig);
    if (same !== undefined) {
      duplicates.push({ tool: r.name, reason: `the same kind, parameters and SQL as ${same}` });
      continue;
    }
    byName.add(r.name);
    bySignature.set(sig, r.name);
    tools.push({
      name: r.name,
      description: r.description,
      kind: r.kind,
      sql: r.sql,
      parameters: r.parameters,
      output: r.output,
      returns: r.returns,
    });
  }
  const spec: SqlSpecJson = {
    name: first.domain.name,
    database: { sqlite: relative(dirname(resolve(out)), resolve(first.domain.db)) },
    ...(first.domain.tables === undefined ? {} : { tables: [...first.domain.tables] }),
    policy: DEFAULT_SQL_POLICY,
    rules: [],
    tools,
  };
  writeFileAtomic(out, `${JSON.stringify(spec, null, 2)}\n`);
  return { spec, loaded: loadSqlDomain(out), duplicates };
}
