import { z } from 'zod';
import type { Stage, UnitContext } from '../stage.js';
import { domainSchemaView } from './db-view.js';
import {
  type DomainRef,
  kindOf,
  listReply,
  ParametersSchema,
  QuestionRecord,
  ToolRecord,
  withId,
} from './tool-records.js';

/**
 * Stage `tools`: for each question, the tools (OpenAI function specs) an assistant would need to answer it over the
 * domain's database. One unit per question; the model answers a JSON list of function specs.
 */

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** One function spec as a model writes it: bare, or wrapped as `{type: "function", function: {…}}`. */
export const FunctionSpec = z.preprocess(
  (v) => (v !== null && typeof v === 'object' && 'function' in v ? (v as { function: unknown }).function : v),
  z.object({
    name: z.string().regex(NAME, 'must be snake_case: a lower-case letter, then letters, digits or _'),
    description: z.string().trim().min(1),
    parameters: ParametersSchema.default({ type: 'object', properties: {} }),
  }),
);
export type FunctionSpec = z.output<typeof FunctionSpec>;

/** A function spec's parameters as a tool record keeps them: every property required, in order. */
export function cleanParameters(p: FunctionSpec['parameters']): ToolRecord['parameters'] {
  const properties = Object.fromEntries(
    Object.entries(p.properties).map(([k, v]) => {
      const {
        type,
        description,
        enum: choices,
      } = v as { type?: unknown; description?: unknown; enum?: unknown };
      return [
        k,
        {
          ...(type === undefined ? {} : { type }),
          ...(typeof description === 'string' ? { description } : {}),
          ...(Array.isArray(choices) ? { enum: choices } : {}),
        },
      ];
    }),
  );
  return { type: 'object', properties, required: Object.keys(properties) };
}

/** A tool record from a function spec. */
export function toolRecord(
  domain: DomainRef,
  spec: FunctionSpec,
  origin: ToolRecord['origin'],
  questions: readonly string[],
): ToolRecord {
  return withId<ToolRecord>('t', {
    domain,
    name: spec.name,
    description: spec.description,
    kind: kindOf(spec.name),
    parameters: cleanParameters(spec.parameters),
    origin,
    questions: [...questions],
  });
}

/** The rules of a good tool, shared by `tools` and `expand`. */
export const TOOL_RULES = `Each tool is one operation on the database that a SQL query (or a short sequence of statements) can do:
- name: snake_case, starting with a verb that says what it does (get_, search_, list_, create_, update_, delete_);
  a tool that changes data starts with create_, add_, update_, set_, delete_, remove_ or cancel_;
- description: one or two sentences saying what it returns or changes;
- parameters: a JSON Schema object; each property has a "type" (string, integer, number or boolean) and a
  "description"; use "enum" only for a closed set of values; ask only for what the operation needs — ids that an
  earlier tool returns, or values a user can say (a name, a title fragment, a date);
- tools chain: a search returns the ids that a lookup or a change takes.
Do not write helpers that need no data (arithmetic, formatting, unit conversion) or tools that wrap another tool.`;

const SYSTEM = `You design the tools (functions) an assistant calls to serve users of one organisation's database.

${TOOL_RULES}

Answer with a JSON list of function specs, each {"name": …, "description": …, "parameters": {"type": "object",
"properties": {…}, "required": […]}}, and nothing else.`;

/** Asks for the tools of one question; shared by the stage and tests. */
async function toolsFor(ctx: UnitContext, question: QuestionRecord, view: string): Promise<FunctionSpec[]> {
  const reply = await ctx.chatJson(
    [
      { role: 'system', content: SYSTEM },
      {
        role: 'user',
        content: `The database:\n\n${view}\n\nA user asks: "${question.question}"\n\nWhich tools does the assistant need to answer it? List them all, in the order they would be called.`,
      },
    ],
    listReply(z.array(FunctionSpec).min(1)),
  );
  const seen = new Set<string>();
  return reply.value.filter((t) => !seen.has(t.name) && seen.add(t.name));
}

export const toolsStage: Stage<QuestionRecord, ToolRecord> = {
  name: 'tools',
  description: 'the tools (function specs) each question needs',
  input: QuestionRecord,
  output: ToolRecord,
  settings: z.strictObject({
    /** Rows of each table shown with the schema. */
    rows_per_table: z.number().int().min(0).max(20).default(0),
    json_retries: z.number().int().min(0).max(10).default(2),
  }),
  units(records) {
    return records.map((r) => ({ key: r.id, label: `${r.domain.name}-q${r.n}`, records: [r] }));
  },
  async run(unit, ctx) {
    const question = unit.records[0] as QuestionRecord;
    const view = domainSchemaView(question.domain, ctx.settings.rows_per_table as number);
    const specs = await toolsFor(ctx, question, view);
    return specs.map((s) => toolRecord(question.domain, s, 'question', [question.id]));
  },
};
