import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { runCove } from '../helpers/cli.js';
import { GOLDEN, RETAIL_DB, RETAIL_TASKS } from '../helpers/paths.js';

const golden = JSON.parse(readFileSync(join(GOLDEN, 'retail.head.train.json'), 'utf8'));

describe('cove CLI basics', () => {
  it('prints help and version right after install, with no build step', () => {
    const help = runCove(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('replay');
    const version = runCove(['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });
});

describe('cove replay', () => {
  it('prints one JSON line per selected task with τ²’s outputs, errors and hashes', () => {
    const r = runCove(['replay', '--domain', 'retail', '--tasks', RETAIL_TASKS, '--ids', '0,20,105']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.task_id)).toEqual(['0', '20', '105']);
    for (const line of lines) {
      const g = golden[line.task_id];
      expect(Object.keys(line)).toEqual(['task_id', 'outputs', 'errors', 'db_hash', 'canonical_sha256']);
      expect(line.outputs).toEqual(g.outputs);
      expect(line.errors).toEqual(g.errors);
      expect(line.db_hash).toBe(g.db_hash);
      expect(line.canonical_sha256).toBe(g.canonical_sha256);
    }
  });

  it('finds the τ² data directory from --tau2-data and from $COVE_TAU2_DATA', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cove-replay-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const tasks = join(dir, 'tasks.json');
    writeFileSync(tasks, JSON.stringify(JSON.parse(readFileSync(RETAIL_TASKS, 'utf8')).slice(0, 1)));
    const without = runCove(['replay', '--tasks', tasks]);
    expect(without.status).toBe(2);
    expect(without.stderr).toContain('cannot find the τ² data directory for retail');
    const tau2 = join(RETAIL_DB, '..', '..');
    const viaFlag = runCove(['replay', '--tasks', tasks, '--tau2-data', tau2]);
    expect(viaFlag.status).toBe(0);
    expect(JSON.parse(viaFlag.stdout).db_hash).toBe(golden['0'].db_hash);
    const viaEnv = runCove(['replay', '--tasks', tasks], { env: { COVE_TAU2_DATA: tau2 } });
    expect(viaEnv.stdout).toBe(viaFlag.stdout);
  });

  it('gives the same lines from the disk cache of bases (which loads only the asked domain’s environment)', () => {
    const cache = mkdtempSync(join(tmpdir(), 'cove-replay-cache-'));
    onTestFinished(() => rmSync(cache, { recursive: true, force: true }));
    const env = { COVE_NO_CACHE: '0', COVE_CACHE_DIR: cache };
    const args = ['replay', '--domain', 'retail', '--tasks', RETAIL_TASKS, '--ids', '0,20,105'];
    const fresh = runCove(args); // the test suite runs without the cache
    const miss = runCove(args, { env });
    expect(readdirSync(cache).length).toBeGreaterThan(0);
    const hit = runCove(args, { env });
    const inferred = runCove(
      args.filter((a, i) => a !== '--domain' && args[i - 1] !== '--domain'),
      { env },
    );
    for (const r of [miss, hit, inferred]) {
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(fresh.stdout);
    }
    const line = JSON.parse(hit.stdout.split('\n')[1] as string);
    expect(line.task_id).toBe('20');
    expect(line.db_hash).toBe(golden['20'].db_hash);
    expect(line.canonical_sha256).toBe(golden['20'].canonical_sha256);
  });

  it('refuses unknown --ids', () => {
    const r = runCove(['replay', '--tasks', RETAIL_TASKS, '--ids', '0,9999']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("no task with id '9999'");
  });
});

describe('bad input files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cove-bad-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const db = JSON.parse(readFileSync(RETAIL_DB, 'utf8'));

  it.each([
    ['not JSON', '{"products": ', 'not valid JSON: Expecting value (char 13)', 'line 1 column 14'],
    [
      'missing field',
      () => {
        const copy = structuredClone(db);
        delete copy.orders['#W2611340'].status;
        return JSON.stringify(copy);
      },
      'expected one of',
      '$.orders["#W2611340"].status',
    ],
    [
      'wrong type',
      () => {
        const copy = structuredClone(db);
        copy.users.noah_brown_6181.email = 42;
        return JSON.stringify(copy);
      },
      'expected string',
      '$.users.noah_brown_6181.email',
    ],
    ['extra top-level key', () => JSON.stringify({ ...db, flights: {} }), 'flights', '$'],
  ])(
    'a malformed db.json (%s) is one error naming the file and the JSON path',
    (_name, make, reason, path) => {
      const file = write('db.json', typeof make === 'function' ? make() : make);
      const r = runCove(['replay', '--tasks', RETAIL_TASKS, '--ids', '0', '--db', file]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`${file}: ${path}`);
      expect(lines[0]).toContain(reason);
    },
  );

  it.each([
    ['not JSON', '[{"id": "0",', 'not valid JSON', 'line 1 column 13'],
    ['not a list', '{"id": "0"}', 'expected a JSON list of tasks', '$'],
    [
      'missing field',
      JSON.stringify([{ id: '0', evaluation_criteria: null }]),
      'expected object',
      '$[0].user_scenario',
    ],
    [
      'wrong type',
      () => {
        const tasks = JSON.parse(readFileSync(RETAIL_TASKS, 'utf8'));
        tasks[3].evaluation_criteria.actions[1].name = 7;
        return JSON.stringify(tasks);
      },
      'expected string',
      '$[3].evaluation_criteria.actions[1].name',
    ],
  ])(
    'a malformed tasks.json (%s) is one error naming the file and the JSON path',
    (_name, make, reason, path) => {
      const file = write('tasks.json', typeof make === 'function' ? make() : make);
      const r = runCove(['replay', '--tasks', file, '--db', RETAIL_DB]);
      expect(r.status).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`${file}: ${path}`);
      expect(lines[0]).toContain(reason);
    },
  );
});
