import { z } from 'zod';
import type { ApiMessage } from '../../llm/chat-model.js';
import type { Stage } from '../stage.js';
import { openDomainDb, schemaView } from './db-view.js';
import { checkSqlTool } from './sql-check.js';
import { SqlToolRecord, TypedToolRecord, withId } from './tool-records.js';

/**
 * Stage `sql`: a SQL template per tool, validated by execution (see sql-check.ts). A template that fails goes back
 * to the model with the reason, up to `repairs` times; then the tool is dropped (`dropped` in the summary, the
 * reason in `notes`). One unit per tool, labelled by the tool's name.
 */

const SqlReply = z.strictObject({
  sql: z.union([z.string().trim().min(1), z.array(z.string().trim().min(1)).min(1)]),
});

const SYSTEM = `You implement API tools as SQLite SQL templates over the database below.
- Refer to the tool's parameters as :name placeholders, exactly the tool's parameter names, each at least once; never
  put a value in the SQL text. Compare each parameter with a column (col = :p), or use it in LIKE
  ('%' || :p || '%') or LIMIT.
- A tool that reads is one SELECT. A tool that changes data is a list of statements: the INSERT, UPDATE or DELETE,
  then, when it returns a record, a SELECT of that record as it is afterwards (for an insert:
  WHERE rowid = last_insert_rowid()).
- The last SELECT returns exactly the columns of the output schema, with the schema's property names (alias with AS).
- Use only the tables and columns of the schema. No PRAGMA, ATTACH, DDL or transaction statements.
Answer with JSON only: {"sql": "<one statement>"} or {"sql": ["<statement>", …]}.`;

export const sqlStage: Stage<TypedToolRecord, SqlToolRecord> = {
  name: 'sql',
  description: 'a SQL template per tool, run on a scratch copy and repaired with the model until it works',
  input: TypedToolRecord,
  output: SqlToolRecord,
  settings: z.strictObject({
    /** Times a failing template goes back to the model before the tool is dropped. */
    repairs: z.number().int().min(0).max(10).default(2),
    /** Argument sets sampled from the data per check. */
    samples: z.number().int().min(1).max(200).default(40),
    rows_per_table: z.number().int().min(0).max(20).default(3),
    json_retries: z.number().int().min(0).max(10).default(2),
  }),
  flags: [
    {
      flag: '--repairs <n>',
      setting: 'repairs',
      description: 'times a failing template goes back to the model (default 2)',
      type: 'int',
    },
  ],
  units(records) {
    return records.map((r) => ({ key: r.id, label: r.name, records: [r] }));
  },
  async run(unit, ctx) {
    const tool = unit.records[0] as TypedToolRecord;
    const repairs = ctx.settings.repairs as number;
    const db = openDomainDb(tool.domain);
    try {
      const view = schemaView(db, ctx.settings.rows_per_table as number);
      let messages: ApiMessage[] = [
        { role: 'system', content: `${SYSTEM}\n\nThe database:\n\n${view}` },
        {
          role: 'user',
          content: `Tool: ${JSON.stringify({ name: tool.name, description: tool.description, kind: tool.kind, parameters: tool.parameters })}\nOutput schema: ${JSON.stringify(tool.output)}`,
        },
      ];
      for (let attempt = 0; ; attempt++) {
        const reply = await ctx.chatJson(messages, SqlReply);
        const candidate = {
          name: tool.name,
          description: tool.description,
          kind: tool.kind,
          sql: reply.value.sql,
          parameters: tool.parameters,
          output: tool.output,
          returns: tool.returns,
        };
        const check = checkSqlTool(
          candidate,
          db.image,
          db.scratch,
          db.tables,
          ctx.rng,
          ctx.settings.samples as number,
        );
        if (check.ok) {
          if (check.empty) ctx.count('empty_results');
          if (attempt > 0) ctx.count('repaired');
          ctx.count('validated');
          const { id: _, ...rest } = tool;
          return [withId<SqlToolRecord>('x', { ...rest, sql: reply.value.sql })];
        }
        if (attempt >= repairs) {
          ctx.count('dropped');
          ctx.note(`sql ${tool.domain.name}: ${tool.name} dropped after ${repairs} repair(s): ${check.why}`);
          return [];
        }
        ctx.count('repairs');
        messages = [
          ...reply.messages,
          {
            role: 'user',
            content: `That template fails: ${check.why}. Fix it and answer with the JSON only.`,
          },
        ];
      }
    } finally {
      db.scratch.close();
    }
  },
};
