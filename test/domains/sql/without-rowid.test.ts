import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { readSchema } from '../../../src/domains/sql/schema-info.js';
import { runCove } from '../../helpers/cli.js';

/**
 * A database whose project and assignment tables are `WITHOUT ROWID` (SQLite: such a table has no `rowid`
 * column, and always a primary key). Projects are keyed by code, assignments by (staff, project).
 */
const dir = mkdtempSync(join(tmpdir(), 'cove-sql-worowid-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dbFile = join(dir, 'w.sqlite');
{
  const db = new Database(dbFile);
  db.exec(`
    CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, name TEXT NOT NULL, team TEXT NOT NULL);
    CREATE TABLE project (code TEXT PRIMARY KEY, title TEXT NOT NULL, budget INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE assignment (staff INTEGER NOT NULL REFERENCES staff(staff_id),
      project TEXT NOT NULL REFERENCES project(code), role TEXT, PRIMARY KEY (staff, project)) WITHOUT ROWID;
  `);
  const names = ['Ada', 'Brook', 'Cyril', 'Dana', 'Emil', 'Fern', 'Gus', 'Hana'];
  const teams = ['north', 'south', 'east', 'west'];
  const titles = ['Harbour', 'Lighthouse', 'Orchard', 'Quarry', 'Rampart', 'Tannery'];
  const staff = db.prepare('INSERT INTO staff VALUES (?, ?, ?)');
  const project = db.prepare('INSERT INTO project VALUES (?, ?, ?)');
  const assignment = db.prepare('INSERT INTO assignment VALUES (?, ?, ?)');
  for (const [i, n] of names.entries()) staff.run(i + 1, n, teams[i % 4] as string);
  for (const [i, t] of titles.entries()) project.run(`P${i + 1}`, t, 1000 * (i + 2));
  for (let s = 1; s <= 8; s++) assignment.run(s, `P${(s % 6) + 1}`, s % 2 ? 'lead' : 'helper');
  db.close();
}

describe('WITHOUT ROWID tables', () => {
  it('are read as such (and their INTEGER key is not a rowid alias)', () => {
    const db = new Database(dbFile, { readonly: true });
    const tables = readSchema(db);
    db.close();
    expect(tables.map((t) => [t.name, t.withoutRowid, t.rowidKey])).toEqual([
      ['assignment', true, false],
      ['project', true, false],
      ['staff', false, true],
    ]);
  });

  it('synth tools → tasks → generate works: writes to them are drawn and every oracle episode scores 1', () => {
    const spec = join(dir, 'spec.json');
    const synth = runCove(['synth', 'tools', '--db', dbFile, '--out', spec]);
    expect(synth.status, synth.stderr).toBe(0);
    const tools = (JSON.parse(readFileSync(spec, 'utf8')) as { tools: { name: string; sql: unknown }[] })
      .tools;
    // the new assignment is read back by its key, not by a rowid it does not have
    const create = tools.find((t) => t.name === 'create_assignment');
    expect((create?.sql as string[] | undefined)?.[1]).toBe(
      'SELECT * FROM "assignment" WHERE "staff" = :staff AND "project" = :project',
    );
    const tasksFile = join(dir, 'tasks.json');
    const made = runCove(['tasks', '--domain-spec', spec, '--n', '12', '--seed', '5', '--out', tasksFile]);
    expect(made.status, made.stderr).toBe(0);
    const tasks = JSON.parse(readFileSync(tasksFile, 'utf8')) as {
      cove: { constraints: { kind: string }[] };
    }[];
    const kinds = new Set(tasks.flatMap((t) => t.cove.constraints.map((c) => c.kind)));
    expect(kinds.has('update_project_budget')).toBe(true);
    const run = join(dir, 'run');
    const gen = runCove(['generate', '--domain-spec', spec, '--tasks', tasksFile, '--out', run, '--quiet']);
    expect(gen.status, gen.stderr).toBe(0);
    const scores = readFileSync(join(run, 'trajectories.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { verification: { score: number } }).verification.score);
    expect(scores).toEqual(tasks.map(() => 1));
  });
});
