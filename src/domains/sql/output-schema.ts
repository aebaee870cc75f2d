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

function typeOk(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'integer':
      return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
    case 'number':
      return typeof value === 'bigint' || typeof value === 'number';
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value instanceof Map || (typeof value === 'object' && value !== null && !Array.isArray(value));
    default:
      return true;
  }
}

/**
 * Checks a tool result (rows as Maps or objects, ints as bigint) against the subset of JSON Schema that specs use:
 * `type` (one or a list), `properties`, `required`, `items`. Returns the first mismatch as `path: reason`, or
 * undefined.
 */
export function schemaMismatch(value: unknown, schema: Schema, path = '$'): string | undefined {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((t) => typeOk(value, String(t)))) {
    return `${path}: ${value === null ? 'null' : typeof value} is not ${types.join(' or ')}`;
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    for (let i = 0; i < value.length; i++) {
      const m = schemaMismatch(value[i], schema.items as Schema, `${path}[${i}]`);
      if (m !== undefined) return m;
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const get = (k: string) => (value instanceof Map ? value.get(k) : (value as Record<string, unknown>)[k]);
    const has = (k: string) => (value instanceof Map ? value.has(k) : k in (value as object));
    for (const k of (schema.required as string[] | undefined) ?? [])
      if (!has(k)) return `${path}.${k}: missing`;
    for (const [k, sub] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
      if (!has(k)) continue;
      const m = schemaMismatch(get(k), sub, `${path}.${k}`);
      if (m !== undefined) return m;
    }
  }
  return undefined;
}
