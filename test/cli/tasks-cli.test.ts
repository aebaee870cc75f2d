import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDbFile } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { REPO, runCove } from '../helpers/cli.js';
import { RETAIL_DB } from '../helpers/paths.js';
import { bruteForceViolations, taskStrategies } from '../helpers/synthesis-brute-force.js';

/**
 * `cove tasks` end to end: files written (tasks + report beside them), the report agrees with the tasks, runs are
 * byte-identical, `cove replay` replays every gold action without error, τ² data is labelled, bad flags exit 2.
 */

interface Task {
  id: string;
  evaluation_criteria: { actions: { name: string; arguments: Record<string, unknown> }[] };
  user_scenario: unknown;
  cove: {
    constraints: { id: string; kind: string; args: Record<string, unknown> }[];
    difficulty: string;
    db: Record<string, unknown>;
    fuzz: { level: number };
    references: { user: string; constraints: string[][] };
  };
}
interface Report {
  tasks: number;
  by_kind: Record<string, number>;
  by_k: Record<string, number>;
  by_strategy: Record<string, number>;
  by_difficulty: Record<string, number>;
  uniqueness_violations: number;
  solvability: number;
  coverage: { cells: number; covered: number; share: number };
  benchmark_data: boolean;
}

const dir = mkdtempSync(join(tmpdir(), 'cove-tasks-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = (file: string): string => readFileSync(join(dir, file), 'utf8');
const bump = (m: Record<string, number>, k: string) => {
  m[k] = (m[k] ?? 0) + 1;
};

/** The report's counts, recomputed from the tasks file (strategies read off the references themselves). */
function countsOf(tasks: readonly Task[]) {
  const byKind: Record<string, number> = {};
  const byK: Record<string, number> = {};
  const byStrategy: Record<string, number> = {};
  const byDifficulty: Record<string, number> = {};
  const cells = new Set<string>();
  const ks = new Set<number>();
  const perKind = new Map<string, Set<string>>();
  for (const t of tasks) {
    const k = t.cove.constraints.length;
    ks.add(k);
    bump(byK, String(k));
    bump(byDifficulty, t.cove.difficulty);
    const s = taskStrategies(t.cove.fuzz);
    bump(byStrategy, s.user);
    t.cove.constraints.forEach((c, i) => {
      bump(byKind, c.kind);
      const seen = perKind.get(c.kind) ?? new Set<string>();
      perKind.set(c.kind, seen);
      for (const x of s.requests[i] ?? []) {
        bump(byStrategy, x);
        seen.add(x);
        cells.add(`${c.kind}|${k}|${x}`);
      }
    });
  }
  const total = [...perKind.values()].reduce((n, seen) => n + seen.size * ks.size, 0);
  return { byKind, byK, byStrategy, byDifficulty, cells: total, covered: cells.size };
}

describe('cove tasks --sandbox-seed', () => {
  const args = ['tasks', '--domain', 'retail', '--sandbox-seed', '2', '--n', '40', '--seed', '3'];
  let first: ReturnType<typeof runCove>;
  beforeAll(() => {
    first = runCove([...args, '--out', join(dir, 't.json')]);
  });

  it('exits 0 and writes t.json and t.report.json', () => {
    expect(first.stderr).toContain('uniqueness violations: 0; solvability: 100.0%');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('problem:');
    expect(existsSync(join(dir, 't.json'))).toBe(true);
    expect(existsSync(join(dir, 't.report.json'))).toBe(true);
  });

  it('the report agrees with the tasks file', () => {
    const tasks = JSON.parse(read('t.json')) as Task[];
    const report = JSON.parse(read('t.report.json')) as Report;
    const mine = countsOf(tasks);
    expect(tasks).toHaveLength(40);
    expect(report.tasks).toBe(40);
    expect(report.uniqueness_violations).toBe(0);
    expect(report.solvability).toBe(1);
    expect(report.benchmark_data).toBe(false);
    expect(report.by_kind).toEqual(mine.byKind);
    expect(report.by_k).toEqual(mine.byK);
    expect(report.by_strategy).toEqual(mine.byStrategy);
    expect(report.by_difficulty).toEqual(mine.byDifficulty);
    expect(report.coverage).toEqual({
      cells: mine.cells,
      covered: mine.covered,
      share: mine.cells === 0 ? 0 : mine.covered / mine.cells,
    });
    expect(Object.values(report.by_difficulty).reduce((a, b) => a + b, 0)).toBe(40);
    // defaults: fuzz 2, the sandbox recorded as the task's DB
    expect(tasks.every((t) => t.cove.fuzz.level === 2)).toBe(true);
    expect(tasks[0]?.cove.db).toMatchObject({
      sandbox: { domain: 'retail', seed: 2, size: { users: 500, orders: 1000 } },
    });
    expect(tasks[0]?.cove.db.canonical_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('running it twice gives byte-identical files', () => {
    const again = runCove([...args, '--out', join(dir, 'again', 't.json')]);
    expect(again.status, again.stderr).toBe(0);
    expect(read('again/t.json')).toBe(read('t.json'));
    expect(read('again/t.report.json')).toBe(read('t.report.json'));
  });
});

describe('cove sandbox → cove tasks --db → cove replay', () => {
  let tasks: Task[];
  beforeAll(() => {
    const sandbox = runCove(['sandbox', '--domain', 'retail', '--seed', '2', '--out', join(dir, 'db.json')]);
    expect(sandbox.status, sandbox.stderr).toBe(0);
    const r = runCove([
      'tasks',
      '--db',
      join(dir, 'db.json'),
      '--n',
      '40',
      '--seed',
      '3',
      '--out',
      join(dir, 'db-tasks.json'),
    ]);
    expect(r.stderr).toContain('uniqueness violations: 0');
    expect(r.status, r.stderr).toBe(0);
    tasks = JSON.parse(read('db-tasks.json'));
  });

  it('gives the same tasks as --sandbox-seed 2 (only the db block differs)', () => {
    const fromSeed = JSON.parse(read('t.json')) as Task[];
    const strip = (ts: Task[]) => ts.map((t) => ({ ...t, cove: { ...t.cove, db: null } }));
    expect(strip(tasks)).toEqual(strip(fromSeed));
    expect(tasks[0]?.cove.db).toMatchObject({ path: 'db.json', benchmark: false });
  });

  it('cove replay runs every gold action without error', () => {
    const r = runCove([
      'replay',
      '--domain',
      'retail',
      '--tasks',
      join(dir, 'db-tasks.json'),
      '--db',
      join(dir, 'db.json'),
    ]);
    expect(r.stderr).toBe('');
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { task_id: string; errors: boolean[]; outputs: string[] });
    expect(lines.map((l) => l.task_id)).toEqual(tasks.map((t) => t.id));
    let actions = 0;
    for (const [i, line] of lines.entries()) {
      expect(line.errors).toHaveLength(tasks[i]?.evaluation_criteria.actions.length ?? -1);
      expect(
        line.errors.every((e) => e === false),
        `${line.task_id}: ${line.outputs.join(' | ')}`,
      ).toBe(true);
      actions += line.errors.length;
    }
    expect(actions).toBeGreaterThan(20);
  });

  it('the written tasks pass the independent brute-force uniqueness check', () => {
    const loaded = loadDbFile(retailDomain, join(dir, 'db.json'));
    try {
      for (const t of tasks)
        expect(bruteForceViolations(loaded.base, t, { alsoInitialState: true })).toEqual([]);
    } finally {
      loaded.base.close();
    }
  });
});

describe('cove tasks on τ² data', () => {
  it('labels tasks made from τ²’s DB as benchmark data', () => {
    const db = relative(REPO, RETAIL_DB); // ../shared/tau2/retail/db.json
    const r = runCove([
      'tasks',
      '--db',
      db,
      '--n',
      '8',
      '--difficulty',
      'easy',
      '--out',
      join(dir, 'tau2.json'),
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('made from τ² benchmark data');
    const report = JSON.parse(read('tau2.report.json')) as Report;
    expect(report.benchmark_data).toBe(true);
    expect(report.by_k).toEqual({ 1: 8 });
    const tasks = JSON.parse(read('tau2.json')) as Task[];
    for (const t of tasks)
      expect(t.cove.db).toMatchObject({
        path: relative(dir, RETAIL_DB),
        benchmark: true,
      });
  });
});

describe('bad flags', () => {
  afterAll(() => {
    expect(existsSync(join(dir, 'bad.json'))).toBe(false);
    expect(existsSync(join(dir, 'bad.report.json'))).toBe(false);
  });
  it.each([
    [['--sandbox-seed', '1', '--fuzz', '3'], "--fuzz must be 0, 1 or 2, not '3'"],
    [
      ['--sandbox-seed', '1', '--difficulty', 'extreme'],
      "--difficulty must be easy, medium, hard or mixed, not 'extreme'",
    ],
    [[], 'give --db <db.json> or --sandbox-seed N'],
    [['--sandbox-seed', '1', '--db', RETAIL_DB], 'give either --db or --sandbox-seed, not both'],
    [['--sandbox-seed', '1', '--n', '0'], "--n must be an integer from 1 to 50000, not '0'"],
    [['--sandbox-seed', '1', '--mix', 'tau3'], '--mix tau3: this domain has the mixes uniform, tau2'],
  ])('%j exits 2: %s', (flags, message) => {
    const r = runCove(['tasks', '--domain', 'retail', '--n', '2', ...flags, '--out', join(dir, 'bad.json')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`cove: ${message}`);
    expect(r.stdout).toBe('');
  });
});
