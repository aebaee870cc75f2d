import { z } from 'zod';
import type { Stage } from '../stage.js';
import { domainSchemaView } from './db-view.js';
import {
  domainUnits,
  listReply,
  type ToolRecord,
  ToolRecord as ToolRecordSchema,
  withId,
} from './tool-records.js';
import { FunctionSpec, TOOL_RULES, toolRecord } from './tools.js';

/**
 * Stage `expand`: per domain, the toolset so far (tools of the same name merged, their questions joined) and up to
 * `max_new` complementary tools the model proposes for what the toolset misses. Helpers that need no data are
 * refused.
 */

/** Names of helpers that touch no data (arithmetic, formatting, conversion): never kept. */
const TRIVIAL =
  /^(calculate|compute|format|convert|add_numbers|sum|multiply|divide|round|parse|validate)(_|$)/;

/** Tools of the same name merged: the first one's interface, the questions of all (in order). */
export function mergeByName(tools: readonly ToolRecord[]): { merged: ToolRecord[]; duplicates: number } {
  const byName = new Map<string, ToolRecord>();
  let duplicates = 0;
  for (const t of tools) {
    const first = byName.get(t.name);
    if (first === undefined) {
      byName.set(t.name, t);
      continue;
    }
    duplicates++;
    const questions = [...first.questions, ...t.questions.filter((q) => !first.questions.includes(q))];
    const { id: _, ...rest } = first;
    byName.set(t.name, withId<ToolRecord>('t', { ...rest, questions }));
  }
  return { merged: [...byName.values()], duplicates };
}

const SYSTEM = `You review the toolset of an assistant that serves users of one organisation's database, and propose
the tools it is missing.

Look at the entities of the database and how they relate, at what users would want to do with them (look up,
search, list, compare, add, correct, remove), and at the steps a workflow needs that no tool covers. Propose only
tools that add real value and fit the existing ones: the same naming, the same parameter names for the same things
(an id keeps its name and type everywhere), tools that consume what existing tools return.

${TOOL_RULES}

Answer with a JSON list of the new function specs only (an empty list if nothing is missing), and nothing else.`;

export const expandStage: Stage<ToolRecord, ToolRecord> = {
  name: 'expand',
  description: 'complementary tools for each domain’s toolset (at most --max-new per domain)',
  input: ToolRecordSchema,
  output: ToolRecordSchema,
  settings: z.strictObject({
    max_new: z.number().int().min(0).max(50).default(10),
    rows_per_table: z.number().int().min(0).max(20).default(0),
    json_retries: z.number().int().min(0).max(10).default(2),
  }),
  flags: [
    {
      flag: '--max-new <n>',
      setting: 'max_new',
      description: 'most tools added per domain (default 10)',
      type: 'int',
    },
  ],
  units: domainUnits,
  async run(unit, ctx) {
    const { merged, duplicates } = mergeByName(unit.records);
    if (duplicates > 0) ctx.count('duplicate_names', duplicates);
    const max = ctx.settings.max_new as number;
    if (max === 0) return merged;
    const domain = (unit.records[0] as ToolRecord).domain;
    const view = domainSchemaView(domain, ctx.settings.rows_per_table as number);
    const current = merged.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    }));
    const reply = await ctx.chatJson(
      [
        { role: 'system', content: SYSTEM },
        {
          role: 'user',
          content: `The database:\n\n${view}\n\nThe current tools:\n${JSON.stringify(current, null, 1)}\n\nPropose at most ${max} new tools.`,
        },
      ],
      listReply(z.array(FunctionSpec)),
    );
    const names = new Set(merged.map((t) => t.name));
    const added: ToolRecord[] = [];
    for (const spec of reply.value) {
      if (names.has(spec.name)) {
        ctx.count('duplicate_names');
        continue;
      }
      if (TRIVIAL.test(spec.name)) {
        ctx.count('trivial_dropped');
        ctx.note(`expand ${domain.name}: ${spec.name} dropped: a helper that needs no data`);
        continue;
      }
      if (added.length >= max) {
        ctx.count('over_limit');
        continue;
      }
      names.add(spec.name);
      added.push(toolRecord(domain, spec, 'expand', []));
    }
    ctx.count('added', added.length);
    return [...merged, ...added];
  },
};
