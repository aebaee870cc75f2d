import type { z } from 'zod';
import type { JsonSchema } from './json-schema-check.js';

interface Def {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly valueType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly entries?: Readonly<Record<string, string | number>>;
  readonly values?: readonly unknown[];
  readonly options?: readonly z.ZodType[];
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Merges `anyOf` options that are bare types into one `type` list (`integer` folds into `number`). */
function union(options: readonly JsonSchema[]): JsonSchema {
  const bare = options.every((o) => Object.keys(o).length === 1 && o.type !== undefined);
  if (!bare) return options.length === 1 ? (options[0] as JsonSchema) : { anyOf: options };
  const types = [...new Set(options.flatMap((o) => (Array.isArray(o.type) ? o.type : [o.type])))];
  const folded = types.includes('number') ? types.filter((t) => t !== 'integer') : types;
  return { type: folded.length === 1 ? folded[0] : folded };
}

function nullable(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 1 && schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    return { type: [...types.filter((t) => t !== 'null'), 'null'] };
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * The JSON Schema of the values a zod schema accepts, for the zod forms cove's data models use (objects, Python
 * dicts as `z.map` → an object whose every value has the value schema, lists, enums, literals, unions, nullable and
 * optional fields, and `preprocess`/`transform` pipes, whose checked side is kept). Objects get
 * `additionalProperties: false` (a model's fields are all there is); optional fields are not `required`. Used to
 * show a model the shape of a tool's output (docs/design.md, "Tool outputs played by a model").
 * @throws {Error} for a zod form outside that list (a programming error, not bad input).
 */
export function zodToJsonSchema(schema: z.ZodType): JsonSchema {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return { type: 'string' };
    case 'number':
      // `z.number().int()` is a number with an integer format
      return { type: (schema as { isInt?: boolean }).isInt === true ? 'integer' : 'number' };
    case 'bigint':
    case 'int':
      return { type: 'integer' };
    case 'boolean':
      return { type: 'boolean' };
    case 'null':
      return { type: 'null' };
    case 'any':
    case 'unknown':
      return {};
    case 'enum':
      return { type: 'string', enum: Object.values(def.entries ?? {}) };
    case 'literal': {
      const values = def.values ?? [];
      return values.length === 1 ? { const: values[0] } : { enum: [...values] };
    }
    case 'array':
      return { type: 'array', items: zodToJsonSchema(def.element as z.ZodType) };
    case 'map':
      return { type: 'object', additionalProperties: zodToJsonSchema(def.valueType as z.ZodType) };
    case 'object': {
      const shape = def.shape ?? {};
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [key, field] of Object.entries(shape)) {
        properties[key] = zodToJsonSchema(field);
        if (defOf(field).type !== 'optional') required.push(key);
      }
      return { type: 'object', properties, required, additionalProperties: false };
    }
    case 'union':
      return union((def.options ?? []).map(zodToJsonSchema));
    case 'optional':
      return zodToJsonSchema(def.innerType as z.ZodType);
    case 'nullable':
      return nullable(zodToJsonSchema(def.innerType as z.ZodType));
    case 'pipe': {
      // preprocess: (transform → schema), the schema checks; transform after a check: the check's side
      const out = def.out as z.ZodType;
      return defOf(out).type === 'transform' ? zodToJsonSchema(def.in as z.ZodType) : zodToJsonSchema(out);
    }
    default:
      throw new Error(`zodToJsonSchema: zod type '${def.type}' is not supported`);
  }
}
