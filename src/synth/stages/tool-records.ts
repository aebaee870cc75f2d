import { statSync } from 'node:fs';
import { z } from 'zod';
import { contentId } from '../records.js';
import type { StageUnit } from '../stage.js';

/**
 * The records the tool-making stages pass along (docs/synthesis-stages.md "Records"): a domain, its questions,
 * tools, tools with an output schema, tools with SQL. Each carries its domain, so every stage runs alone on its
 * own input file.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The domain a record belongs to: its name and SQLite file (as given; relative paths are to the working folder). */
export const DomainRef = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, 'must be lower-case letters, digits, - or _'),
  // checked here so that a record naming a missing file is reported with its file, line and field
  db: z
    .string()
    .min(1)
    .refine((db) => isFile(db), 'no such file (a relative path is read from the working folder)'),
  tables: z.array(z.string()).optional(),
});

const seenFiles = new Set<string>();

/** Whether `path` is an existing file (remembered once true: every record of a domain names the same one). */
function isFile(path: string): boolean {
  if (seenFiles.has(path)) return true;
  try {
    if (!statSync(path).isFile()) return false;
  } catch {
    return false;
  }
  seenFiles.add(path);
  return true;
}
export type DomainRef = z.output<typeof DomainRef>;

/** A tool as a seed for questions: name and description. */
const SeedTool = z.strictObject({ name: z.string().min(1), description: z.string() });

/** Input of `questions`: a domain, with optional words about it and seed tools. */
export const DomainRecord = z.strictObject({
  id: z.string(),
  domain: DomainRef,
  description: z.string().optional(),
  seed_tools: z.array(SeedTool).optional(),
});
export type DomainRecord = z.output<typeof DomainRecord>;

/** Output of `questions`, input of `tools`: one realistic user question; `n` is its rank in its domain. */
export const QuestionRecord = z.strictObject({
  id: z.string(),
  domain: DomainRef,
  n: z.number().int().min(0),
  question: z.string().min(1),
});
export type QuestionRecord = z.output<typeof QuestionRecord>;

/** A JSON Schema object of a tool's parameters (OpenAI function `parameters`). */
export const ParametersSchema = z.object({
  type: z.literal('object'),
  properties: z.record(z.string(), z.record(z.string(), z.unknown())),
  required: z.array(z.string()).optional(),
});

/** Output of `tools` and `expand`, input of `expand` and `schemas`: one tool's interface. */
export const ToolRecord = z.strictObject({
  id: z.string(),
  domain: DomainRef,
  name: z.string().regex(NAME, 'must be a letter or _ followed by letters, digits or _ (at most 64)'),
  description: z.string().min(1),
  kind: z.enum(['read', 'write']),
  parameters: ParametersSchema,
  /** `question` (made for a question by `tools`) or `expand`. */
  origin: z.enum(['question', 'expand']),
  /** Ids of the questions it was made for. */
  questions: z.array(z.string()),
});
export type ToolRecord = z.output<typeof ToolRecord>;

/** Output of `schemas`, input of `sql`: a tool with the JSON Schema of its result and how it returns. */
export const TypedToolRecord = ToolRecord.extend({
  output: z.record(z.string(), z.unknown()),
  returns: z.enum(['rows', 'row', 'count']),
});
export type TypedToolRecord = z.output<typeof TypedToolRecord>;

/** Output of `sql`: a tool with its SQL template(s), validated by execution. */
export const SqlToolRecord = TypedToolRecord.extend({
  sql: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
});
export type SqlToolRecord = z.output<typeof SqlToolRecord>;

/** A record with its content id set (`prefix-<hash of the other fields>`). */
export function withId<T extends { id: string }>(prefix: string, record: Omit<T, 'id'>): T {
  return { id: contentId(prefix, record), ...record } as T;
}

/** Verbs whose tools change data: `create_…`, `update_…`, … */
const WRITE_VERBS =
  /^(create|add|insert|new|update|set|change|edit|modify|rename|assign|move|delete|remove|cancel|archive|register|record|book|place)_/;

/** `write` for a tool whose name starts with a changing verb, `read` otherwise. */
export function kindOf(name: string): 'read' | 'write' {
  return WRITE_VERBS.test(name) ? 'write' : 'read';
}

/**
 * A reply that should be a JSON list, also accepted as an object holding just that list (`{"questions": […]}`,
 * `{"tools": […]}`), as models often wrap it.
 */
export function listReply<S extends z.ZodType>(schema: S) {
  return z.preprocess((v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const values = Object.values(v);
    return values.length === 1 && Array.isArray(values[0]) ? values[0] : v;
  }, schema);
}

/** The domain's records grouped by domain name, in first-seen order (the unit of `expand` and `schemas`). */
export function byDomain<T extends { domain: DomainRef }>(records: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of records) {
    const list = out.get(r.domain.name) ?? [];
    list.push(r);
    out.set(r.domain.name, list);
  }
  return out;
}

/** One unit per domain holding its records, keyed by their ids (the units of `expand` and `schemas`). */
export function domainUnits<T extends { id: string; domain: DomainRef }>(
  records: readonly T[],
): StageUnit<T>[] {
  return [...byDomain(records)].map(([name, list]) => ({
    key: contentId(
      'u',
      list.map((t) => t.id),
    ),
    label: name,
    records: list,
  }));
}
