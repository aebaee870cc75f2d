/** A JSON Schema as a plain object (the subset cove writes and checks: see {@link schemaMismatch}). */
export type JsonSchema = Readonly<Record<string, unknown>>;

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

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'bigint' || typeof b === 'bigint') return Number(a) === Number(b);
  return a === b;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Map) return 'object';
  return typeof value === 'bigint' ? 'integer' : typeof value;
}

/**
 * Checks a value (JSON objects as Maps or plain objects, integers as bigint or number) against the subset of JSON
 * Schema that cove's tool schemas use: `type` (one or a list), `enum`, `const`, `anyOf`, `properties`,
 * `required`, `additionalProperties` (`false` or a schema for every other key) and `items`. Returns the first
 * mismatch as `path: reason` (`$.items[0].price: string is not number`), or undefined when the value fits.
 */
export function schemaMismatch(value: unknown, schema: JsonSchema, path = '$'): string | undefined {
  if (Array.isArray(schema.anyOf)) {
    const options = schema.anyOf as JsonSchema[];
    const misses = options.map((s) => schemaMismatch(value, s, path));
    if (!misses.includes(undefined)) return misses.find((m) => !m?.endsWith('is not null')) ?? misses[0];
  }
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((t) => typeOk(value, String(t)))) {
    return `${path}: ${describe(value)} is not ${types.join(' or ')}`;
  }
  if ('const' in schema && !same(value, schema.const))
    return `${path}: must be ${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => same(value, e)))
    return `${path}: must be one of ${(schema.enum as unknown[]).map((e) => JSON.stringify(e)).join(', ')}`;
  if (Array.isArray(value) && schema.items !== undefined) {
    for (let i = 0; i < value.length; i++) {
      const m = schemaMismatch(value[i], schema.items as JsonSchema, `${path}[${i}]`);
      if (m !== undefined) return m;
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = value instanceof Map ? [...value.keys()] : Object.keys(value);
    const get = (k: string) => (value instanceof Map ? value.get(k) : (value as Record<string, unknown>)[k]);
    for (const k of (schema.required as string[] | undefined) ?? [])
      if (!keys.includes(k)) return `${path}.${k}: missing`;
    const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
    for (const k of keys) {
      const sub = properties[k] ?? schema.additionalProperties;
      if (sub === false) return `${path}.${k}: not a known field`;
      if (sub === undefined || sub === true) continue;
      const m = schemaMismatch(get(k), sub as JsonSchema, `${path}.${k}`);
      if (m !== undefined) return m;
    }
  }
  return undefined;
}
