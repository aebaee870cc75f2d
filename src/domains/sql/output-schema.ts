import type Database from 'better-sqlite3';
import { jsonTypesOf } from './schema-info.js';

type Schema = Readonly<Record<string, unknown>>;

/**
 * The output JSON Schema of a template from its last statement's result columns: an object per row whose
 * properties take their type from the declared column type (nullable), wrapped as `returns` says (`rows` an
 * array, `row` one object, `count` an integer).
 */
export function deriveOutputSchema(
  stmt: Database.Statement | undefined,
  returns: 'rows' | 'row' | 'count',
): Schema {
  if (returns === 'count' || stmt === undefined) return { type: 'integer' };
  const properties: Record<string, unknown> = {};
  for (const c of stmt.columns()) {
    // a column of an expression has no declared type: any value
    const t = jsonTypesOf(c.type ?? '');
    properties[c.name] = t === undefined ? {} : { type: [...t, 'null'] };
  }
  const row = { type: 'object', properties, required: Object.keys(properties) };
  return returns === 'row' ? row : { type: 'array', items: row };
}

/** The output checker is shared by every domain (the SQL spec's `output` schemas use its subset). */
export { schemaMismatch } from '../../core/json-schema-check.js';
