import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { runCoveAsync } from '../helpers/cli.js';
import { type MockLlmProcess, mockRoleFlags, spawnCove, startMockLlm } from '../helpers/llm-mock-process.js';
import { readJson, readRecords } from '../helpers/run-files.js';

// Resuming model-role runs against `cove mock-llm` child processes: the budget spans resumes, episodes that
// ended on an infrastructure failure are run again, and Ctrl-C (SIGINT) stops cleanly with exit 130.
vi.setConfig({ testTimeout: 150_000 });

const root = mkdtempSync(join(tmpdir(), 'cove-llm-resume-'));
const tasksFile = join(root, 'tasks.json');
const servers: MockLlmProcess[] = [];
let oracle: MockLlmProcess;
let failing: MockLlmProcess;
let slow: MockLlmProcess;

const file = (name: string, value: unknown) => {
  const path = join(root, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};
const roles = mockRoleFlags;
let slice: (from: number, to: number) => string;

beforeAll(async () => {
  const made = await runCoveAsync([
    'tasks',
    '--domain',
    'retail',
    '--sandbox-seed',
    '1',
    '--n',
    '21',
    '--out',
    tasksFile,
  ]);
  if (made.status !== 0) throw new Error(`cove tasks failed: ${made.stderr}`);
  const all = JSON.parse(readFileSync(tasksFile, 'utf8')) as CoveTask[];
  slice = (from, to) => file(`tasks-${from}-${to}.json`, all.slice(from, to));
  [oracle, failing, slow] = await Promise.all([
    startMockLlm(['--tasks', tasksFile]),
    startMockLlm(['--tasks', tasksFile, '--fault-rate', '1', '--faults', '500']),
    startMockLlm(['--tasks', tasksFile, '--latency-ms', '150']),
  ]);
  servers.push(oracle, failing, slow);
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});

describe('resuming model-role runs', () => {
  it('a token budget counts the episodes already in the run folder', async () => {
    const out = join(root, 'budget');
    const args = (budget: string) => [
      'generate',
      '--tasks',
      slice(0, 10),
      '--concurrency',
      '1',
      '--budget-tokens',
      budget,
      '--out',
      out,
      ...roles(oracle.baseUrl),
    ];
    const first = await runCoveAsync(args('1000'));
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/budget reached/);
    const before = readRecords(out).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(10);
    // the same budget again: already spent, so nothing new starts
    const again = await runCoveAsync(args('1000'));
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/budget reached/);
    expect(again.stderr).toMatch(/\(0 new\)/);
    expect(readRecords(out)).toHaveLength(before);
    // a larger budget finishes the run, keeping the first episodes
    const more = await runCoveAsync(args('100000000'));
    expect(more.status, more.stderr).toBe(0);
    const records = readRecords(out);
    expect(records).toHaveLength(10);
    expect(new Set(records.map((r) => r.id)).size).toBe(10);
  });

  it('episodes that ended on an infrastructure failure run again, and their new record replaces the old', async () => {
    const out = join(root, 'infra');
    const noRetry = file('no-retry.json', {
      roles: { agent: { max_retries: 0 }, user: { max_retries: 0 } },
    });
    const args = (url: string) => [
      'generate',
      '--tasks',
      slice(10, 13),
      '--config',
      noRetry,
      '--out',
      out,
      ...roles(url),
    ];
    const down = await runCoveAsync(args(failing.baseUrl));
    // every episode lost to the endpoint: not a finished run (exit 1), said on stderr
    expect(down.status, down.stderr).toBe(1);
    expect(down.stderr).toContain('incomplete: 3 episode(s) ended on an infrastructure failure');
    const failed = readRecords(out);
    expect(failed).toHaveLength(3);
    for (const r of failed) {
      expect(r.termination_reason).toBe('infrastructure_error');
      expect(r.termination_detail).toMatch(/HTTP 500/);
    }
    expect(readJson<{ failures: Record<string, number> }>(join(out, 'summary.json')).failures).toEqual({
      infrastructure: 3,
    });
    const up = await runCoveAsync(args(oracle.baseUrl));
    expect(up.status, up.stderr).toBe(0);
    const records = readRecords(out);
    expect(records.map((r) => r.id).sort()).toEqual(failed.map((r) => r.id).sort());
    for (const r of records) expect(r.verification?.score, r.id).toBe(1);
    const summary = readJson<{ episodes: number; sft_trajectories: number; failures: object }>(
      join(out, 'summary.json'),
    );
    expect(summary).toMatchObject({ episodes: 3, sft_trajectories: 3, failures: {} });
    // the finished run leaves one line per episode: the re-run ones replaced the failed ones
    expect(readFileSync(join(out, 'trajectories.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('an unreachable endpoint is told at once with its URL and cause; after 5 failed episodes none are started; the same command resumes', async () => {
    // a port nobody listens on: taken from the system, then released
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const dead = `http://127.0.0.1:${port}/v1`;
    const out = join(root, 'unreachable');
    const oneRetry = file('one-retry.json', {
      roles: { agent: { max_retries: 1 }, user: { max_retries: 1 } },
    });
    const args = (url: string) => [
      'generate',
      '--tasks',
      slice(0, 8),
      '--concurrency',
      '1',
      '--config',
      oneRetry,
      '--out',
      out,
      ...roles(url),
    ];
    const down = await runCoveAsync(args(dead));
    expect(down.status, down.stderr).toBe(1);
    const lines = down.stderr.trim().split('\n');
    const first = lines.findIndex((l) =>
      new RegExp(
        `^warning: (agent|user) model call to ${dead.replaceAll('.', '\\.')} failed after 1 retries: .*ECONNREFUSED`,
      ).test(l),
    );
    // told before the run's last line, not only inside trajectories.jsonl at the end
    expect(first, down.stderr).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(lines.findIndex((l) => l.startsWith('wrote ')));
    expect(down.stderr).toContain(
      'warning: stopping early: the first 5 episodes all failed on the infrastructure',
    );
    expect(down.stderr).toContain('incomplete: stopped early with 3 of 8 task(s) not run');
    expect(down.stderr).toContain(`run the same command again to continue: cove ${args(dead).join(' ')}`);
    const failed = readRecords(out);
    expect(failed).toHaveLength(5);
    for (const r of failed) expect(r.termination_reason).toBe('infrastructure_error');
    // the endpoint is up again (same model name, another URL): the same run resumes and completes
    const up = await runCoveAsync(args(oracle.baseUrl));
    expect(up.status, up.stderr).toBe(0);
    const records = readRecords(out);
    expect(records).toHaveLength(8);
    for (const r of records) expect(r.verification?.score, r.id).toBe(1);
  });

  it('Ctrl-C lets the episodes under way finish, writes the derived files and exits 130; a rerun completes', async () => {
    const out = join(root, 'sigint');
    const args = [
      'generate',
      '--tasks',
      slice(13, 21),
      '--concurrency',
      '2',
      '--out',
      out,
      ...roles(slow.baseUrl),
    ];
    const run = spawnCove(args);
    const log = join(out, 'trajectories.jsonl');
    const started = performance.now();
    while (run.running() && performance.now() - started < 120_000) {
      if (existsSync(log) && readFileSync(log, 'utf8').length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(run.running()).toBe(true);
    run.signal('SIGINT');
    const stopped = await run.result;
    expect(stopped.status, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/stopping: finishing the episodes under way/);
    const partial = readRecords(out);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(8);
    expect(readJson<{ episodes: number }>(join(out, 'summary.json')).episodes).toBe(partial.length);
    const rerun = await runCoveAsync(args);
    expect(rerun.status, rerun.stderr).toBe(0);
    const records = readRecords(out);
    expect(records).toHaveLength(8);
    expect(new Set(records.map((r) => r.id)).size).toBe(8);
    for (const r of partial) expect(records.find((x) => x.id === r.id)).toEqual(r);
  });
});

describe('cove mock-llm refuses bad input before listening', () => {
  it('a script of the wrong shape: exit 2 naming the file and the field', async () => {
    const script = file('bad-script.json', { agent: [{ content: 5 }] });
    const r = await runCoveAsync(['mock-llm', '--port', '0', '--mode', 'script', '--script', script]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${script}: $.agent[0].content`);
    expect(r.stdout).toBe('');
  });

  it('a port in use: exit 2 saying so', async () => {
    const port = new URL(oracle.baseUrl).port;
    const r = await runCoveAsync(['mock-llm', '--port', port, '--tasks', tasksFile]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
  });
});
