import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCove } from '../helpers/cli.js';
import { RETAIL_DB } from '../helpers/paths.js';

/**
 * User mistakes found by trying cove as a new user: each gets one line naming the flag or the file, exit 2, no
 * stack trace, and no work done or files left behind.
 */

const BIN = fileURLToPath(new URL('../../bin/cove.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'cove-mistakes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function expectUsageError(r: { status: number | null; stderr: string }, message: string): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toContain(`cove: ${message}`);
  expect(r.stderr).not.toMatch(/^\s+at /m); // no stack trace
}

describe('a k the DB cannot supply', () => {
  it('cove tasks --k 10: names the task and what to change', () => {
    const out = join(root, 'k10.json');
    const r = runCove([
      'tasks',
      '--domain',
      'retail',
      '--sandbox-seed',
      '1',
      '--n',
      '3',
      '--k',
      '10',
      '--out',
      out,
    ]);
    expectUsageError(r, 'task 0: no valid draw of 10 constraints in 500 attempts');
    expect(r.stderr).toContain('lower --k, --goals or --difficulty, or use a DB with more orders per user');
    expect(existsSync(out)).toBe(false);
  });

  it('cove generate on a one-order sandbox: the same error, no run folder written', () => {
    const db = join(root, 'tiny.json');
    expect(
      runCove(['sandbox', '--domain', 'retail', '--seed', '2', '--users', '1', '--orders', '1', '--out', db])
        .status,
    ).toBe(0);
    const out = join(root, 'tiny-run');
    const r = runCove(['generate', '--db', db, '--n', '5', '--k', '8', '--out', out, '--quiet']);
    expectUsageError(r, 'task 0: no valid draw of 8 constraints');
    expect(existsSync(join(out, 'run.json'))).toBe(false);
  });
});

describe('--out of the wrong kind', () => {
  it('cove generate --out <an existing file>', () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    expectUsageError(
      runCove(['generate', '--n', '2', '--out', file]),
      `--out: ${file} exists and is not a folder`,
    );
  });

  it('cove tasks --out <a folder>: refused before synthesis, no temporary file left', () => {
    const dir = join(root, 'a-folder');
    mkdirSync(dir);
    const r = runCove(['tasks', '--domain', 'retail', '--sandbox-seed', '1', '--n', '2', '--out', dir]);
    expectUsageError(r, `--out ${dir} is a folder`);
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(root).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('options that would be ignored are refused', () => {
  it('generate --db with --sandbox-seed', () => {
    const r = runCove(['generate', '--db', RETAIL_DB, '--sandbox-seed', '3', '--out', join(root, 'x')]);
    expectUsageError(r, 'give either --db or --sandbox-seed, not both');
  });

  it('generate --tasks with --difficulty, --fuzz or --k', () => {
    const tasks = join(root, 'made.json');
    expect(
      runCove(['tasks', '--domain', 'retail', '--sandbox-seed', '1', '--n', '2', '--out', tasks]).status,
    ).toBe(0);
    const r = runCove([
      'generate',
      '--tasks',
      tasks,
      '--difficulty',
      'hard',
      '--k',
      '2',
      '--out',
      join(root, 'y'),
    ]);
    expectUsageError(r, '--difficulty, --k cannot be used with --tasks');
    expect(existsSync(join(root, 'y', 'run.json'))).toBe(false);
  });
});

describe('a cost budget without a price', () => {
  it('is refused: it would count USD 0 forever', () => {
    const r = runCove([
      'generate',
      '--agent',
      'openai:gpt-4.1',
      '--agent-base-url',
      'http://127.0.0.1:9/v1',
      '--budget-usd',
      '1',
      '--out',
      join(root, 'unpriced'),
    ]);
    expectUsageError(r, 'a cost budget needs the price of gpt-4.1');
  });
});

describe('two cove generate on one run folder', () => {
  it('the second is refused while the first runs; a lock left by a killed process is taken over', async () => {
    const out = join(root, 'locked');
    const first = spawn(process.execPath, [BIN, 'generate', '--n', '3000', '--out', out, '--quiet'], {
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => first.on('exit', resolve));
    const lock = join(out, 'run.lock');
    while (!existsSync(lock)) await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(first.pid));
    const second = runCove(['generate', '--n', '3000', '--out', out, '--quiet']);
    expectUsageError(second, `${out} is being written by another cove generate (pid ${first.pid})`);
    first.kill('SIGKILL');
    await exited;
    expect(existsSync(lock)).toBe(true); // SIGKILL gave it no chance to clean up
    const third = runCove(['generate', '--n', '3', '--out', join(root, 'other-folder'), '--quiet']);
    expect(third.status).toBe(0);
    // the same folder again: the stale lock is taken over, and released at exit (a smaller --n is the same run:
    // it resumes the first 20 tasks, which keeps the test light on a busy machine)
    const resumed = runCove(['generate', '--n', '20', '--out', out, '--quiet'], { timeoutMs: 600_000 });
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/(wrote|resumed) \//);
    expect(existsSync(lock)).toBe(false);
  }, 900_000);
});

describe('a run folder holding another run', () => {
  it('is refused before any task is synthesized', () => {
    const out = join(root, 'other-run');
    expect(runCove(['generate', '--n', '3', '--out', out, '--quiet']).status).toBe(0);
    const r = runCove(['generate', '--n', '3', '--seed', '2', '--out', out]);
    expectUsageError(r, `${out} holds a different run`);
    expect(r.stderr).not.toContain('tasks:'); // no synthesis progress before the refusal
  });
});

describe('cove replay', () => {
  it('--ids with an empty or unknown id', () => {
    const tasks = join('..', 'shared', 'tau2', 'retail', 'tasks.json');
    expectUsageError(
      runCove(['replay', '--domain', 'retail', '--tasks', tasks, '--ids', '0,,1']),
      "--ids must be task ids separated by commas, not '0,,1'",
    );
    expectUsageError(
      runCove(['replay', '--domain', 'retail', '--tasks', tasks, '--ids', '0,abc']),
      "--ids: no task with id 'abc'",
    );
  });
});
