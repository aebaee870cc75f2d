import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLibraryDb } from '../../src/testing/tiny-domain/index.js';
import { runCove } from '../helpers/cli.js';

/**
 * `--goals N` (issue 18 item 5, docs/sql-domains.md): N goals per session — N user requests, one constraint each,
 * in one conversation on one DB copy — on `cove tasks` and `cove generate`, for Retail and for SQL domains.
 */
const dir = mkdtempSync(join(tmpdir(), 'cove-goals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Task {
  id: string;
  cove: { goals?: number; difficulty: string; constraints: { kind: string }[] };
}
interface Episode {
  task_id: string;
  verification: { score: number; stateMatch: boolean };
  messages: { role: string; content: string | null }[];
  enacted_events: string[];
}

const tasksOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Task[];

describe('--goals', () => {
  it.each([
    [['tasks', '--domain', 'retail', '--goals', '0'], "--goals must be an integer from 1 to 5, not '0'"],
    [['tasks', '--domain', 'retail', '--goals', '6'], "--goals must be an integer from 1 to 5, not '6'"],
    [['generate', '--goals', 'two'], "--goals must be an integer from 1 to 5, not 'two'"],
    [['tasks', '--domain', 'retail', '--goals', '2', '--k', '2'], 'give either --goals or --k, not both'],
    [['generate', '--goals', '2', '--difficulty', 'hard'], 'give either --goals or --difficulty, not both'],
  ])('%j is refused: %s', (args, message) => {
    const out = join(dir, 'refused');
    const r = runCove([...args, '--n', '2', '--out', args[0] === 'tasks' ? `${out}.json` : out]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(message);
  });

  it('generate --tasks refuses --goals: the tasks are already made', () => {
    const file = join(dir, 'two.json');
    expect(
      runCove(['tasks', '--domain', 'retail', '--sandbox-seed', '1', '--n', '1', '--out', file]).status,
    ).toBe(0);
    const r = runCove(['generate', '--tasks', file, '--goals', '2', '--out', join(dir, 'r')]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('--goals cannot be used with --tasks');
  });

  it('tasks without --goals record no goal count; with it, each task holds that many constraints', () => {
    const retail = ['tasks', '--domain', 'retail', '--sandbox-seed', '1', '--n', '3', '--seed', '4'];
    const plain = join(dir, 'plain.json');
    expect(runCove([...retail, '--out', plain]).status).toBe(0);
    expect(tasksOf(plain).map((t) => 'goals' in t.cove)).toEqual([false, false, false]);
    const four = join(dir, 'four.json');
    const r = runCove([...retail, '--goals', '4', '--out', four]);
    expect(r.status, r.stderr).toBe(0);
    // 4 goals: difficulty hard (4-6 constraints), by the table of docs/design.md
    expect(tasksOf(four).map((t) => [t.cove.goals, t.cove.constraints.length, t.cove.difficulty])).toEqual([
      [4, 4, 'hard'],
      [4, 4, 'hard'],
      [4, 4, 'hard'],
    ]);
  });

  it('Retail --goals 3: every oracle episode scores 1 with a state match; the user brings up one or two requests a turn and stops last', () => {
    const out = join(dir, 'retail3');
    const r = runCove(['generate', '--goals', '3', '--n', '8', '--seed', '5', '--out', out, '--quiet'], {
      timeoutMs: 300_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(tasksOf(join(out, 'tasks.json')).map((t) => [t.cove.goals, t.cove.constraints.length])).toEqual(
      Array.from({ length: 8 }, () => [3, 3]),
    );
    const episodes = readFileSync(join(out, 'trajectories.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Episode);
    expect(episodes).toHaveLength(8);
    for (const e of episodes) {
      expect([e.task_id, e.verification.score, e.verification.stateMatch]).toEqual([e.task_id, 1, true]);
      const users = e.messages.filter((m) => m.role === 'user').map((m) => m.content ?? '');
      // the stop comes once, in the last user message, after every goal was met (score 1)
      expect(users.filter((u) => u.includes('###STOP###'))).toHaveLength(1);
      expect(users.at(-1)).toContain('###STOP###');
      // three requests need at least two user turns besides the stop: at most two requests in one turn
      expect(users.length).toBeGreaterThanOrEqual(3);
    }
  }, 300_000);

  it('a SQL domain: --goals 2 gives sessions of two goals, recorded in the task', () => {
    const db = join(dir, 'library.sqlite');
    createLibraryDb(db, { seed: 9, members: 25 });
    const spec = join(dir, 'library.json');
    expect(runCove(['synth', 'tools', '--db', db, '--out', spec]).status).toBe(0);
    const file = join(dir, 'library.tasks.json');
    const r = runCove(['tasks', '--domain-spec', spec, '--n', '4', '--goals', '2', '--out', file]);
    expect(r.status, r.stderr).toBe(0);
    const tasks = tasksOf(file);
    expect(tasks.map((t) => [t.cove.goals, t.cove.constraints.length, t.cove.difficulty])).toEqual(
      Array.from({ length: 4 }, () => [2, 2, 'medium']),
    );
    const run = join(dir, 'library.run');
    const g = runCove(['generate', '--domain-spec', spec, '--tasks', file, '--out', run, '--quiet']);
    expect(g.status, g.stderr).toBe(0);
    const episodes = readFileSync(join(run, 'trajectories.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Episode);
    expect(episodes.map((e) => [e.verification.score, e.verification.stateMatch])).toEqual(
      Array.from({ length: 4 }, () => [1, true]),
    );
  }, 300_000);
});
