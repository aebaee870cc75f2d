import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AIRLINE_DB, AIRLINE_TASKS } from '../helpers/airline-base.js';
import { runCove } from '../helpers/cli.js';
import { GOLDEN } from '../helpers/paths.js';

/** `cove replay --domain airline`: the same output contract as retail, checked against τ²'s golden file. */

const golden = JSON.parse(readFileSync(join(GOLDEN, 'airline.head.train.json'), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'cove-airline-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cove replay --domain airline', () => {
  it('prints one JSON line per task with τ²’s outputs, errors and both hashes', { timeout: 120_000 }, () => {
    const r = runCove(['replay', '--domain', 'airline', '--tasks', AIRLINE_TASKS, '--ids', '3,1,0,29']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.task_id)).toEqual(['0', '1', '3', '29']);
    for (const line of lines.slice(0, 3)) {
      const g = golden[line.task_id];
      expect(Object.keys(line)).toEqual(['task_id', 'outputs', 'errors', 'db_hash', 'canonical_sha256']);
      expect(line.outputs).toEqual(g.outputs);
      expect(line.errors).toEqual(g.errors);
      expect(line.db_hash).toBe(g.db_hash);
      expect(line.canonical_sha256).toBe(g.canonical_sha256);
    }
    // task 29 (test split, not in the golden file): cancel + book_reservation (HATHAT), tau2-spec.md §11
    expect(lines[3].db_hash.slice(0, 16)).toBe('55e7aa074a761cbd');
    expect(lines[3].canonical_sha256.slice(0, 16)).toBe('6eb0e02ad1135fa0');
  });

  it('gives the same lines from the disk cache of bases', { timeout: 120_000 }, () => {
    const cache = join(dir, 'cache');
    const env = { COVE_NO_CACHE: '0', COVE_CACHE_DIR: cache };
    const args = ['replay', '--domain', 'airline', '--tasks', AIRLINE_TASKS, '--ids', '0,1,3'];
    const fresh = runCove(args); // the test suite runs without the cache
    const miss = runCove(args, { env });
    const hit = runCove(args, { env });
    expect(readdirSync(cache).length).toBeGreaterThan(0);
    for (const r of [miss, hit]) {
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(fresh.stdout);
    }
    const line = JSON.parse(hit.stdout.split('\n')[2] as string);
    expect(line.task_id).toBe('3');
    expect(line.db_hash).toBe(golden['3'].db_hash);
    expect(line.canonical_sha256).toBe(golden['3'].canonical_sha256);
  });

  it('names the file and the JSON path of a malformed --db', { timeout: 120_000 }, () => {
    const db = JSON.parse(readFileSync(AIRLINE_DB, 'utf8'));
    db.reservations['4WQ150'].cabin = 'first';
    const file = join(dir, 'bad-db.json');
    writeFileSync(file, JSON.stringify(db));
    const r = runCove([
      'replay',
      '--domain',
      'airline',
      '--tasks',
      AIRLINE_TASKS,
      '--ids',
      '1',
      '--db',
      file,
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain('$.reservations["4WQ150"].cabin');
    expect(r.stdout).toBe('');
  });
});
