import { z } from 'zod';
import type { ApiMessage } from '../../llm/chat-model.js';
import { type Stage, StageJsonError } from '../stage.js';
import { domainSchemaView } from './db-view.js';
import { mergeByName } from './expand.js';
import {
  domainUnits,
  type ToolRecord,
  ToolRecord as ToolRecordSchema,
  TypedToolRecord,
  withId,
} from './tool-records.js';

/**
 * Stage `schemas`: the JSON Schema of each tool's result, asked one tool at a time in one growing conversation per
 * domain, so that an entity named by several tools (an `album_id`, a `customer`) keeps the type it was first given.
 * A tool whose schema stays unusable after the JSON retries is dropped (counted as `dropped`); the conversation goes
 * on without it.
 */

type JsonSchema = Record<string, unknown>;

const Property = z.record(z.string(), z.unknown());
const ObjectSchema = z.object({
  type: z.literal('object'),
  properties: z.record(z.string(), Property).refine((p) => Object.keys(p).length > 0, 'has no properties'),
});
/** What a result schema may be: an object (one record), an array of objects (a list), or an integer (a count). */
const ResultSchema = z.union([
  ObjectSchema.passthrough(),
  z.object({ type: z.literal('array'), items: ObjectSchema.passthrough() }).passthrough(),
  z.object({ type: z.literal('integer') }).passthrough(),
]);

/** `rows` for an array, `row` for an object, `count` for an integer. */
export function returnsOf(schema: JsonSchema): 'rows' | 'row' | 'count' {
  return schema.type === 'array' ? 'rows' : schema.type === 'object' ? 'row' : 'count';
}

/** The schema as a spec keeps it: every property of a record required (a SQL row has every column). */
export function normaliseResultSchema(schema: JsonSchema): JsonSchema {
  const record = (s: JsonSchema): JsonSchema => {
    const properties = s.properties as Record<string, JsonSchema>;
    return { type: 'object', properties, required: Object.keys(properties) };
  };
  if (schema.type === 'array') return { type: 'array', items: record(schema.items as JsonSchema) };
  if (schema.type === 'object') return record(schema);
  return { type: 'integer' };
}

const SYSTEM = `You specify the data a database-backed API returns. You are given the tools of one API, one at a
time; for each, answer the JSON Schema of its return value (not of its parameters):
- a tool that returns one record: {"type": "object", "properties": {…}};
- a tool that returns a list: {"type": "array", "items": {"type": "object", "properties": {…}}};
- a tool that only reports how many records it changed: {"type": "integer"}.
A tool that creates or updates a record returns that record as it is afterwards.
Give every property a precise "type" ("integer", "number", "string", "boolean", with "null" in a list when a value
may be missing, e.g. ["string", "null"]) and a snake_case name. Stay consistent: a field or entity that an earlier
tool already defined (an id, a name, a price) keeps the same name and type in every later schema.
Answer with the JSON Schema only.`;

export const schemasStage: Stage<ToolRecord, TypedToolRecord> = {
  name: 'schemas',
  description: 'the JSON Schema of each tool’s result, one tool at a time in one conversation per domain',
  input: ToolRecordSchema,
  output: TypedToolRecord,
  settings: z.strictObject({
    rows_per_table: z.number().int().min(0).max(20).default(2),
    json_retries: z.number().int().min(0).max(10).default(2),
  }),
  units: domainUnits,
  async run(unit, ctx) {
    const { merged, duplicates } = mergeByName(unit.records);
    if (duplicates > 0) ctx.count('duplicate_names', duplicates);
    const domain = (unit.records[0] as ToolRecord).domain;
    const view = domainSchemaView(domain, ctx.settings.rows_per_table as number);
    // no primer turn: the n-th reply of the conversation is the n-th tool's schema (scripts rely on it)
    let history: ApiMessage[] = [
      { role: 'system', content: `${SYSTEM}\n\nThe database behind the API:\n\n${view}` },
    ];
    const out: TypedToolRecord[] = [];
    for (const tool of merged) {
      const ask: ApiMessage = {
        role: 'user',
        content: `Tool ${tool.name} (${tool.kind === 'write' ? 'changes data' : 'reads data'}): ${JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters })}`,
      };
      try {
        const reply = await ctx.chatJson([...history, ask], ResultSchema);
        history = [...reply.messages.slice(0, history.length + 1), reply.messages.at(-1) as ApiMessage];
        const output = normaliseResultSchema(reply.value as JsonSchema);
        const { id: _, ...rest } = tool;
        out.push(withId<TypedToolRecord>('s', { ...rest, output, returns: returnsOf(output) }));
      } catch (e) {
        if (!(e instanceof StageJsonError)) throw e;
        ctx.count('dropped');
        ctx.note(`schemas ${domain.name}: ${tool.name} dropped: ${e.message}`);
      }
    }
    return out;
  },
};
