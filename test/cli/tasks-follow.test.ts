import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCove } from '../helpers/cli.js';
import { RETAIL_DB } from '../helpers/paths.js';
import { readJson, readRecords } from '../helpers/run-files.js';

/**
 * A tasks file made by `cove tasks` carries its DB (sandbox seed or a path) with its hash, and its semantics:
 * `cove generate --tasks` and `cove replay` use both, and refuse a different explicit `--semantics` or `--db`.
 */

const root = mkdtempSync(join(tmpdir(), 'cove-tasks-follow-'));
const fixedTasks = join(root, 'fixed.json');
const parityTasks = join(root, 'parity.json');

beforeAll(() => {
  for (const [out, semantics] of [
    [fixedTasks, 'fixed'],
    [parityTasks, 'parity'],
  ] as const) {
    const r = runCove([
      'tasks',
      '--domain',
      'retail',
      '--sandbox-seed',
      '3',
      '--n',
      '12',
      '--seed',
      '4',
      '--semantics',
      semantics,
      '--out',
      out,
    ]);
    if (r.status !== 0) throw new Error(r.stderr);
  }
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('generate --tasks follows the tasks', () => {
  it('runs fixed-semantics tasks under fixed semantics, every episode passing', () => {
    const out = join(root, 'run-fixed');
    const r = runCove(['generate', '--tasks', fixedTasks, '--out', out, '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    const records = readRecords(out);
    expect(records).toHaveLength(12);
    for (const rec of records) {
      expect(rec.settings.semantics).toBe('fixed');
      expect(rec.verification?.score).toBe(1);
      expect(rec.verification?.stateMatch).toBe(true);
    }
    expect(
      readJson<{ fingerprint: { semantics: string } }>(join(out, 'run.json')).fingerprint.semantics,
    ).toBe('fixed');
  });

  it('refuses an explicit --semantics that differs from the tasks’ (exit 2, names both)', () => {
    const out = join(root, 'run-mismatch');
    const r = runCove(['generate', '--tasks', fixedTasks, '--semantics', 'parity', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--semantics parity');
    expect(r.stderr).toContain('made under fixed');
  });

  it('refuses a --db that is not the DB the tasks were made from (exit 2, both hashes)', () => {
    const r = runCove(['generate', '--tasks', parityTasks, '--db', RETAIL_DB, '--out', join(root, 'x')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/is not the DB the tasks in .* were made from \(canonical hash [0-9a-f]{12}…/);
  });
});

describe('replay of cove tasks', () => {
  it('rebuilds their sandbox without --db: every gold action succeeds', () => {
    const r = runCove(['replay', '--tasks', fixedTasks]);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { errors: boolean[] });
    expect(lines).toHaveLength(12);
    expect(lines.flatMap((l) => l.errors).filter(Boolean)).toEqual([]);
    expect(lines.flatMap((l) => l.errors).length).toBeGreaterThan(12);
  });

  it('refuses τ²’s DB for tasks made on a sandbox', () => {
    const r = runCove(['replay', '--tasks', parityTasks, '--db', RETAIL_DB]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('is not the DB the tasks in');
  });

  it('finds a DB file by its path relative to the tasks file', () => {
    const dir = join(root, 'moved');
    const db = join(dir, 'sandbox.json');
    expect(runCove(['sandbox', '--domain', 'retail', '--seed', '3', '--out', db]).status).toBe(0);
    const tasks = join(dir, 'tasks.json');
    const made = runCove(['tasks', '--db', db, '--n', '3', '--seed', '4', '--out', tasks]);
    expect(made.status, made.stderr).toBe(0);
    const written = JSON.parse(readFileSync(tasks, 'utf8')) as { cove: { db: { path: string } } }[];
    expect(written[0]?.cove.db.path).toBe('sandbox.json');
    const r = runCove(['replay', '--tasks', tasks], { cwd: root });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    // moved away from its DB: says where it looked and how to point at the DB
    const away = join(root, 'tasks-alone.json');
    writeFileSync(away, readFileSync(tasks));
    const lost = runCove(['replay', '--tasks', away]);
    expect(lost.status).toBe(2);
    expect(lost.stderr).toContain(
      `cove: ${away}: its tasks were made from the DB sandbox.json (relative to the tasks file), which is not at ${join(root, 'sandbox.json')}; pass it with --db`,
    );
    expect(runCove(['replay', '--tasks', away, '--db', db]).stdout).toBe(r.stdout);
  });
});
