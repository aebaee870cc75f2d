import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCove, runCoveAsync } from '../helpers/cli.js';
import {
  dropPrefix,
  pgQuery,
  REDIS_URL,
  startWorker,
  storeUrl,
  uniqueName,
  type WorkerProcess,
} from '../helpers/dist-services.js';

// Distributed generation (docs/distributed.md) on the machine's real Redis and PostgreSQL: a coordinator and two
// `cove worker` child processes over the default sandbox's oracle/scripted episodes must give the same sft.jsonl,
// byte for byte, as the single-process `cove generate --n 20`.
describe('cove generate --queue with two workers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cove-dist-'));
  const prefix = uniqueName('q');
  const schema = uniqueName('s');
  const workers: WorkerProcess[] = [];
  let single: Buffer;

  beforeAll(async () => {
    const r = runCove(['generate', '--n', '20', '--out', join(dir, 'single'), '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    single = readFileSync(join(dir, 'single', 'sft.jsonl'));
    for (let i = 0; i < 2; i++) {
      workers.push(
        await startWorker([
          '--queue',
          REDIS_URL,
          '--queue-prefix',
          prefix,
          '--concurrency',
          '3',
          '--stall-ms',
          '5000',
        ]),
      );
    }
  });

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await dropPrefix(REDIS_URL, prefix);
    await pgQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('records return through the queue: sft.jsonl is byte-identical to the single-process run', async () => {
    const out = join(dir, 'queue-only');
    const r = await runCoveAsync([
      'generate',
      '--n',
      '20',
      '--out',
      out,
      '--quiet',
      '--queue',
      REDIS_URL,
      '--queue-prefix',
      prefix,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('20 episodes (20 new), 20 SFT trajectories');
    expect(readFileSync(join(out, 'sft.jsonl')).equals(single)).toBe(true);
    const lines = readFileSync(join(out, 'trajectories.jsonl'), 'utf8').trim().split('\n');
    expect(new Set(lines.map((l) => (JSON.parse(l) as { id: string }).id)).size).toBe(20);
  });

  it('records stored in PostgreSQL once each; `cove runs export` rewrites the same sft.jsonl', async () => {
    const out = join(dir, 'stored');
    const store = storeUrl(schema);
    const r = await runCoveAsync([
      'generate',
      '--n',
      '20',
      '--out',
      out,
      '--quiet',
      '--queue',
      REDIS_URL,
      '--queue-prefix',
      prefix,
      '--store',
      store,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'sft.jsonl')).equals(single)).toBe(true);
    const runId = /run (\S+) registered/.exec(r.stderr)?.[1];
    expect(runId).toBeDefined();
    const rows = await pgQuery<{ n: string; ids: string }>(
      `SELECT count(*) AS n, count(DISTINCT trajectory_id) AS ids FROM ${schema}.cove_trajectories WHERE run_id = $1`,
      [runId],
    );
    expect(rows[0]).toEqual({ n: '20', ids: '20' });
    const status = await pgQuery<{ status: string }>(
      `SELECT status FROM ${schema}.cove_runs WHERE run_id = $1`,
      [runId],
    );
    expect(status[0]?.status).toBe('done');
    const migrations = await pgQuery<{ version: number }>(`SELECT version FROM ${schema}.cove_migrations`);
    expect(migrations.map((m) => m.version)).toEqual([1]);

    const exported = join(dir, 'exported');
    const e = runCove(['runs', 'export', '--store', store, '--run', String(runId), '--out', exported]);
    expect(e.status, e.stderr).toBe(0);
    expect(readFileSync(join(exported, 'sft.jsonl')).equals(single)).toBe(true);
    // a worker served it (whether the second one also found the run before the first took all 20 jobs depends
    // on timing; test/queue/faults.test.ts runs several workers that must share a run)
    const served = workers.filter((w) => w.log().includes(`serving run ${runId}`)).length;
    expect(served).toBeGreaterThanOrEqual(1);
  });

  it('`cove runs status` counts the jobs of a finished run', () => {
    const runs = runCove([
      'runs',
      'status',
      '--queue',
      REDIS_URL,
      '--queue-prefix',
      prefix,
      '--run',
      'nope',
      '--json',
    ]);
    expect(runs.status, runs.stderr).toBe(0);
    expect(JSON.parse(runs.stdout)).toMatchObject({ registered: false, waiting: 0, done: 0, failed: 0 });
  });

  it('--target-sft grows the task list through the queue as results arrive, as one process does', async () => {
    const flags = ['--n', '6', '--target-sft', '9', '--seed', '4', '--quiet'];
    const one = runCove(['generate', ...flags, '--out', join(dir, 'target-single')]);
    expect(one.status, one.stderr).toBe(0);
    const out = join(dir, 'target-queue');
    const r = await runCoveAsync([
      'generate',
      ...flags,
      '--out',
      out,
      '--queue',
      REDIS_URL,
      '--queue-prefix',
      prefix,
    ]);
    expect(r.status, r.stderr).toBe(0);
    // every oracle episode passes, so 9 tasks are needed for 9 SFT trajectories: 3 more than --n
    expect(r.stderr).toContain('9 episodes (9 new), 9 SFT trajectories');
    const sft = readFileSync(join(out, 'sft.jsonl'));
    expect(sft.toString('utf8').trim().split('\n')).toHaveLength(9);
    expect(sft.equals(readFileSync(join(dir, 'target-single', 'sft.jsonl')))).toBe(true);
  }, 600_000);

  it('SIGTERM stops a worker gracefully (exit code 0)', async () => {
    const w = workers[0] as WorkerProcess;
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    expect(w.log()).toContain('SIGTERM: finishing the episodes in hand');
  });
});
