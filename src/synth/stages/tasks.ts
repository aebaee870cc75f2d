import Database from 'better-sqlite3';
import { z } from 'zod';
import { loadDbFile } from '../../domains/load-db.js';
import { loadSqlDomain, type SqlDomain } from '../../domains/sql/load-spec.js';
import { toolSchema } from '../../env/openai-tools.js';
import { readSqliteImage } from '../../env/sql-collections.js';
import { type DescriptiveDifficulty, DIFFICULTIES } from '../../tasks/descriptive-block.js';
import { dataView } from '../descriptive/data-view.js';
import {
  type DescriptiveTaskRecord,
  descriptiveTaskRecordSchema,
  hardest,
} from '../descriptive/descriptive-task.js';
import {
  readTaskReply,
  TASK_PROMPT,
  TASK_WRITER_SYSTEM,
  taskWriterRequest,
} from '../descriptive/task-prompt.js';
import { contentId } from '../records.js';
import type { Stage } from '../stage.js';

/**
 * The `tasks` stage (docs/descriptive-tasks.md): descriptive tasks for a SQL domain, written by a model from the
 * spec's schema, its tools and policy, and a limited view of the rows (a few per table, drawn from the seed). Its
 * input is one slot per task to write (index, difficulty, number of goals), made from the settings
 * (`--spec`, `--n`, `--goals`, `--difficulty`) or read from a file; its output the descriptive task records that
 * `cove generate --tasks` runs.
 */

const settingsSchema = z.object({
  /** The SQL domain spec (`cove synth tools --db …`). */
  spec: z.string().min(1),
  /** The SQLite database the tasks are written against (default: the spec's own). */
  db: z.string().min(1).optional(),
  n: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Goals per session (several give a high-density trajectory). */
  goals: z.coerce.number().int().min(1).max(8).default(2),
  difficulty: z.enum([...DIFFICULTIES, 'mixed']).default('mixed'),
  /** Rows shown per table. */
  view_rows: z.coerce.number().int().min(0).max(50).default(3),
  json_retries: z.coerce.number().int().min(0).max(10).default(2),
});
type TasksSettings = z.output<typeof settingsSchema>;

/** One task to write. */
const slotSchema = z.strictObject({
  id: z.string().min(1),
  index: z.number().int().min(0),
  /** `mixed`: drawn per task from the run's seed and the slot. */
  difficulty: z.enum([...DIFFICULTIES, 'mixed']),
  goals: z.number().int().min(1).max(8),
});
type TaskSlot = z.output<typeof slotSchema>;

/** A loaded spec and its database, once per process (every unit of a run shares them). */
interface Loaded {
  readonly sql: SqlDomain;
  readonly image: Buffer;
  readonly dbSha256: string;
}
const loadedSpecs = new Map<string, Loaded>();

function load(settings: TasksSettings): Loaded {
  const key = `${settings.spec}\u0000${settings.db ?? ''}`;
  let loaded = loadedSpecs.get(key);
  if (loaded === undefined) {
    const sql = loadSqlDomain(settings.spec);
    const dbFile = settings.db ?? sql.dbFile;
    const image = settings.db === undefined ? sql.image : readSqliteImage(settings.db);
    const db = loadDbFile(sql.domain, dbFile);
    const dbSha256 = db.hashes.canonical_sha256;
    db.base.close();
    loaded = { sql, image, dbSha256 };
    loadedSpecs.set(key, loaded);
  }
  return loaded;
}

export const tasksStage: Stage<TaskSlot, DescriptiveTaskRecord> = {
  name: 'tasks',
  description:
    'write descriptive tasks (goals, difficulty, rubric) for a SQL domain from its schema and a few rows',
  pathSettings: ['spec', 'db'],
  flags: [
    { flag: '--spec <spec.json>', setting: 'spec', description: 'SQL domain spec (from `cove synth tools`)' },
    {
      flag: '--db <sqlite>',
      setting: 'db',
      description: 'database the tasks are written against (default: the spec’s)',
    },
    { flag: '--n <count>', setting: 'n', description: 'tasks to write (default 10)', type: 'int' },
    { flag: '--goals <n>', setting: 'goals', description: 'goals per session (default 2)', type: 'int' },
    {
      flag: '--difficulty <level>',
      setting: 'difficulty',
      description: 'easy, medium, hard or mixed (default)',
    },
    {
      flag: '--view-rows <n>',
      setting: 'view_rows',
      description: 'rows shown per table (default 3)',
      type: 'int',
    },
  ],
  input: slotSchema,
  output: descriptiveTaskRecordSchema,
  settings: settingsSchema as unknown as z.ZodType<Record<string, unknown>>,
  sourceRecords(raw) {
    const settings = raw as TasksSettings;
    const { sql, dbSha256 } = load(settings);
    return Array.from({ length: settings.n }, (_, index) => {
      const content = {
        domain: sql.spec.json.name,
        db: dbSha256,
        index,
        difficulty: settings.difficulty,
        goals: settings.goals,
      };
      return {
        id: contentId('slot', content),
        index,
        difficulty: settings.difficulty,
        goals: settings.goals,
      };
    });
  },
  units: (records) => records.map((r) => ({ key: r.id, label: `task-${r.index}`, records: [r] })),
  async run(unit, ctx) {
    const settings = ctx.settings as TasksSettings;
    const slot = unit.records[0] as TaskSlot;
    const { sql, image, dbSha256 } = load(settings);
    // a mixed level is drawn from the unit's stream (the run's seed and the slot): same seed, same level
    const wanted: DescriptiveDifficulty =
      slot.difficulty === 'mixed'
        ? (ctx.rng.child('difficulty').pick(DIFFICULTIES) as DescriptiveDifficulty)
        : slot.difficulty;
    const db = new Database(image, { readonly: true });
    let view: string;
    try {
      view = dataView(db, sql.tables, ctx.rng.child('view'), settings.view_rows);
    } finally {
      db.close();
    }
    const request = taskWriterRequest({
      domain: sql.spec.json.name,
      policy: sql.domain.policy.cove,
      view,
      tools: sql.domain.tools.map(toolSchema),
      goals: slot.goals,
      difficulty: wanted,
    });
    const { value } = await ctx.chatJson(
      [
        { role: 'system', content: TASK_WRITER_SYSTEM },
        { role: 'user', content: request },
      ],
      z.unknown(),
      {
        check: (v) => {
          try {
            readTaskReply(JSON.stringify(v), slot.goals);
            return undefined;
          } catch (e) {
            return (e as Error).message;
          }
        },
      },
    );
    const reply = readTaskReply(JSON.stringify(value), slot.goals);
    const difficulty = hardest(reply.goals);
    if (difficulty !== wanted) ctx.count('difficulty_differs');
    const record = {
      kind: 'descriptive' as const,
      index: slot.index,
      domain: sql.spec.json.name,
      db_sha256: dbSha256,
      difficulty,
      ...(reply.persona === undefined ? {} : { persona: reply.persona }),
      goals: reply.goals,
      prompt: TASK_PROMPT,
    };
    ctx.count('goals', reply.goals.length);
    return [{ id: contentId('dtask', record), ...record }];
  },
};
