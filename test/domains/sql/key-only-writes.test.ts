import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCove } from '../../helpers/cli.js';

/**
 * A write tool whose only parameter is the key (`cancel_visit(visit_id)`: a status flip fixed by its SQL) and a
 * delete by key: their requests name the action ("cancel the visit whose …", "… removed"), and the oracle makes them.
 */
const dir = mkdtempSync(join(tmpdir(), 'cove-sql-key-only-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, 'clinic.sql'),
  'CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, reason TEXT NOT NULL, fee REAL NOT NULL, status TEXT NOT NULL);',
);
const reasons = ['checkup', 'vaccination', 'dental', 'surgery', 'grooming', 'xray'];
writeFileSync(
  join(dir, 'clinic.rows.json'),
  JSON.stringify({
    visit: Array.from({ length: 18 }, (_, i) => ({
      visit_id: i + 1,
      reason: reasons[i % 6],
      fee: 50 + i * 13.25,
      status: i % 3 === 0 ? 'done' : 'booked',
    })),
  }),
);
const spec = join(dir, 'clinic.json');
writeFileSync(
  spec,
  JSON.stringify({
    name: 'clinic',
    database: { ddl: 'clinic.sql', rows: 'clinic.rows.json' },
    policy: 'Look visits up before changing them; confirm every change.',
    tools: [
      {
        name: 'search_visit_by_reason',
        description: 'Visits whose reason contains the text.',
        kind: 'read',
        sql: "SELECT * FROM visit WHERE reason LIKE '%' || :reason || '%' ORDER BY visit_id LIMIT 20",
        returns: 'rows',
      },
      {
        name: 'cancel_visit',
        description: 'Cancel one visit.',
        kind: 'write',
        sql: [
          "UPDATE visit SET status = 'cancelled' WHERE visit_id = :visit_id AND status <> 'cancelled'",
          'SELECT * FROM visit WHERE visit_id = :visit_id',
        ],
        returns: 'row',
      },
      {
        name: 'delete_visit',
        description: 'Delete one visit.',
        kind: 'write',
        sql: 'DELETE FROM visit WHERE visit_id = :visit_id',
        returns: 'count',
      },
    ],
  }),
);

describe('write tools whose parameters are only the key', () => {
  it('ask for the action by the verb of the tool, and every oracle episode scores 1', () => {
    const tasksFile = join(dir, 'tasks.json');
    const made = runCove(['tasks', '--domain-spec', spec, '--n', '12', '--seed', '4', '--out', tasksFile]);
    expect(made.status, made.stderr).toBe(0);
    const tasks = JSON.parse(readFileSync(tasksFile, 'utf8')) as {
      cove: { fuzz: { goals: { kind: string; text: string }[] } };
    }[];
    const goals = tasks.flatMap((t) => t.cove.fuzz.goals);
    const cancels = goals.filter((g) => g.kind === 'cancel_visit').map((g) => g.text);
    const deletes = goals.filter((g) => g.kind === 'delete_visit').map((g) => g.text);
    expect(cancels.length).toBeGreaterThan(0);
    expect(deletes.length).toBeGreaterThan(0);
    // e.g. `You want to cancel the visit whose reason is "dental" and whose fee is 76.5.`
    for (const t of cancels)
      expect(t).toMatch(/^You want to cancel the visit whose reason is "[a-z]+" .*\.$/);
    for (const t of deletes) expect(t).toMatch(/^You want the visit whose reason is "[a-z]+" .* removed\.$/);
    const run = join(dir, 'run');
    const gen = runCove(['generate', '--domain-spec', spec, '--tasks', tasksFile, '--out', run, '--quiet']);
    expect(gen.status, gen.stderr).toBe(0);
    const episodes = readFileSync(join(run, 'trajectories.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            verification: { score: number; stateMatch: boolean };
            messages: { role: string; content?: string | null }[];
          },
      );
    expect(episodes.map((e) => [e.verification.score, e.verification.stateMatch])).toEqual(
      tasks.map(() => [1, true]),
    );
    // the agent proposes the action itself: "Shall I make this change: cancel the visit whose …?"
    const proposals = episodes.flatMap((e) =>
      e.messages.filter(
        (m) => m.role === 'assistant' && /change: cancel the visit whose /.test(m.content ?? ''),
      ),
    );
    expect(proposals.length).toBe(cancels.length);
  });
});

/**
 * A tag table whose only write is an insert of a label, with four labels to draw from: three goals of one session
 * often draw the same label. The oracle acts on a goal once its words are said, so two goals in the same words would
 * be taken for one another; no task may hold them.
 */
describe('goals of one session', () => {
  it('are never asked for in the same words', () => {
    writeFileSync(
      join(dir, 'tags.sql'),
      'CREATE TABLE tag (tag_id INTEGER PRIMARY KEY, label TEXT NOT NULL);',
    );
    writeFileSync(
      join(dir, 'tags.rows.json'),
      JSON.stringify({ tag: ['red', 'green', 'blue', 'gold'].map((label, i) => ({ tag_id: i + 1, label })) }),
    );
    const tagSpec = join(dir, 'tags.json');
    writeFileSync(
      tagSpec,
      JSON.stringify({
        name: 'tags',
        database: { ddl: 'tags.sql', rows: 'tags.rows.json' },
        policy: 'Confirm every change.',
        tools: [
          {
            name: 'create_tag',
            description: 'A new tag.',
            kind: 'write',
            sql: [
              'INSERT INTO tag (label) VALUES (:label)',
              'SELECT * FROM tag WHERE rowid = last_insert_rowid()',
            ],
            returns: 'row',
          },
        ],
      }),
    );
    const run = join(dir, 'tags-run');
    const gen = runCove([
      'generate',
      '--domain-spec',
      tagSpec,
      '--goals',
      '3',
      '--n',
      '10',
      '--out',
      run,
      '--quiet',
    ]);
    expect(gen.status, gen.stderr).toBe(0);
    const tasks = JSON.parse(readFileSync(join(run, 'tasks.json'), 'utf8')) as {
      cove: { fuzz: { goals: { text: string }[] } };
    }[];
    for (const t of tasks) {
      const texts = t.cove.fuzz.goals.map((g) => g.text);
      expect(new Set(texts).size).toBe(texts.length);
    }
    const scores = readFileSync(join(run, 'trajectories.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { verification: { score: number } }).verification.score);
    expect(scores).toEqual(tasks.map(() => 1));
  });
});
