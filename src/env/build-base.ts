import { installChangeTracking } from './change-tracking.js';
import type { EnvironmentSpec } from './environment.js';
import { EnvironmentBase } from './environment-base.js';
import { SqlConnection } from './sql.js';

/**
 * Creates a base: a fresh in-memory database with the domain's schema, filled by `populate`, with change
 * tracking installed afterwards (so loading is not recorded as a change).
 */
export function buildBase(spec: EnvironmentSpec, populate: (sql: SqlConnection) => void): EnvironmentBase {
  const sql = SqlConnection.open();
  try {
    sql.exec(spec.schemaSql);
    populate(sql);
    installChangeTracking(sql, spec);
  } catch (e) {
    sql.close();
    throw e;
  }
  return new EnvironmentBase(spec, sql);
}
