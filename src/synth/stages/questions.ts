import { basename } from 'node:path';
import { z } from 'zod';
import type { Stage } from '../stage.js';
import { domainSchemaView } from './db-view.js';
import { DomainRecord, listReply, QuestionRecord, withId } from './tool-records.js';

/**
 * Stage `questions`: realistic requests users of a domain would make, from its database schema and a limited view
 * of its rows (or from seed tools). One unit per domain record; the model answers a JSON list of strings.
 */

const settings = z.strictObject({
  /** SQLite file: makes the input record when no `--in` is given. */
  db: z.string().min(1).optional(),
  /** Domain name (default: from the file name). */
  name: z.string().optional(),
  tables: z.array(z.string()).optional(),
  /** Questions asked for per domain. */
  count: z.number().int().min(1).max(100).default(12),
  /** Rows of each table shown to the model. */
  rows_per_table: z.number().int().min(0).max(20).default(3),
  json_retries: z.number().int().min(0).max(10).default(2),
});

/** A domain name from a database file name: `Chinook_Sqlite.sqlite` → `chinook_sqlite`. */
export function domainNameOf(db: string): string {
  return (
    basename(db)
      .replace(/\.[^.]*$/, '')
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '_')
      .replace(/^[^a-z]+/, '') || 'sql'
  );
}

const SYSTEM = `You write the requests that real users bring to a support assistant of one organisation, to train
assistants that answer them with tools over the organisation's database.

Write requests that:
- sound like a person with a concrete need: name the things they mean (a title, a city, a customer's name, a date,
  an amount) using values that look like the data shown;
- vary: simple look-ups, requests that need several steps (find something, then act on it), comparisons and
  summaries, changes to records (adding, correcting, removing), and a few awkward cases (something that may not
  exist, an ambiguous name);
- come from different kinds of users (customers, staff, managers) and cover the whole database, not one table;
- each need tools the assistant could have (a search, a lookup, a listing, an update), so they inspire a toolset.

Never mention SQL, tables, columns or the database itself. Answer with a JSON list of strings and nothing else.`;

export const questionsStage: Stage<DomainRecord, QuestionRecord> = {
  name: 'questions',
  description: 'realistic user questions for a domain, from its schema and a limited view of rows',
  input: DomainRecord,
  output: QuestionRecord,
  settings,
  pathSettings: ['db'],
  flags: [
    { flag: '--db <sqlite>', setting: 'db', description: 'SQLite database (instead of --in)' },
    { flag: '--name <name>', setting: 'name', description: 'domain name (default: from the file name)' },
    { flag: '--count <n>', setting: 'count', description: 'questions per domain (default 12)', type: 'int' },
  ],
  sourceRecords(s) {
    const db = s.db as string | undefined;
    if (db === undefined) return [];
    const domain = {
      name: (s.name as string | undefined) ?? domainNameOf(db),
      db,
      ...(s.tables === undefined ? {} : { tables: s.tables as string[] }),
    };
    return [withId<DomainRecord>('d', { domain })];
  },
  units(records) {
    return records.map((r) => ({ key: r.id, label: r.domain.name, records: [r] }));
  },
  async run(unit, ctx) {
    const record = unit.records[0] as DomainRecord;
    const count = ctx.settings.count as number;
    const view = domainSchemaView(record.domain, ctx.settings.rows_per_table as number);
    const seeds =
      record.seed_tools === undefined || record.seed_tools.length === 0
        ? ''
        : `\n\nTools the assistant already has (write requests they and new tools would serve):\n${record.seed_tools.map((t) => `- ${t.name}: ${t.description}`).join('\n')}`;
    const about =
      record.description === undefined ? '' : `\n\nAbout this organisation: ${record.description}`;
    const reply = await ctx.chatJson(
      [
        { role: 'system', content: SYSTEM },
        {
          role: 'user',
          content: `The database of "${record.domain.name}" (its schema, and a few of its rows; there are more):\n\n${view}${about}${seeds}\n\nWrite ${count} requests.`,
        },
      ],
      listReply(z.array(z.string().trim().min(1)).min(1)),
    );
    const seen = new Set<string>();
    const questions = reply.value.filter((q) => {
      const k = q.toLowerCase();
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    if (questions.length < reply.value.length)
      ctx.count('duplicate_questions', reply.value.length - questions.length);
    return questions
      .slice(0, count)
      .map((question, n) => withId<QuestionRecord>('q', { domain: record.domain, n, question }));
  },
};
