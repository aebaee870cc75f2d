import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { runCove, runCoveAsync } from '../helpers/cli.js';
import {
  dropPrefix,
  REDIS_URL,
  startWorker,
  uniqueName,
  type WorkerProcess,
} from '../helpers/dist-services.js';

/** A TCP port nothing listens on (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function status(prefix: string, run: string): Record<string, unknown> {
  const r = runCove([
    'runs',
    'status',
    '--queue',
    REDIS_URL,
    '--queue-prefix',
    prefix,
    '--run',
    run,
    '--json',
  ]);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('distributed runs: operability', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cove-ops-'));
  const prefixes: string[] = [];
  const workers: WorkerProcess[] = [];
  const prefix = (tag: string) => {
    const p = uniqueName(tag);
    prefixes.push(p);
    return p;
  };

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    for (const p of prefixes) await dropPrefix(REDIS_URL, p);
    rmSync(dir, { recursive: true, force: true });
  });

  it('an unreachable Redis or PostgreSQL is named without its password, with what to check', async () => {
    const port = await closedPort();
    const g = runCove([
      'generate',
      '--n',
      '2',
      '--out',
      join(dir, 'x'),
      '--queue',
      `redis://:s3cret@127.0.0.1:${port}`,
    ]);
    expect(g.status).toBe(2);
    expect(g.stderr).toContain(`cannot reach Redis at redis://:***@127.0.0.1:${port}`);
    expect(g.stderr).toContain('check that redis-server is running');
    expect(g.stderr).not.toContain('s3cret');
    const e = runCove([
      'runs',
      'export',
      '--store',
      `postgres://root:pw9@127.0.0.1:${port}/test`,
      '--run',
      'r',
      '--out',
      join(dir, 'y'),
    ]);
    expect(e.status).toBe(2);
    expect(e.stderr).toContain(`cannot reach PostgreSQL at postgres://root:***@127.0.0.1:${port}/test`);
    expect(e.stderr).not.toContain('pw9');
    const bad = runCove(['worker', '--queue', 'http://127.0.0.1:6379']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('the scheme must be redis or rediss');
  });

  it('a worker of another cove version refuses the run', async () => {
    const p = prefix('v');
    const redis = new Redis(REDIS_URL);
    await redis.hset(
      `${p}:cove:runs`,
      'r1-old',
      JSON.stringify({ format: 1, run_id: 'r1-old', cove_version: '0.0.1-other', domain: 'retail' }),
    );
    redis.disconnect();
    const r = runCove(['worker', '--queue', REDIS_URL, '--queue-prefix', p, '--run', 'r1-old']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('run r1-old was made by cove 0.0.1-other');
  });

  it('`cove runs status` follows a live run; a job failing on infrastructure is retried, then recorded with its reason', async () => {
    const p = prefix('st');
    const out = join(dir, 'live');
    const coordinator = runCoveAsync(
      ['generate', '--n', '3', '--out', out, '--quiet', '--queue', REDIS_URL, '--queue-prefix', p],
      { timeoutMs: 600_000 },
    );
    // no worker yet: every episode waits
    const redis = new Redis(REDIS_URL);
    const runId = await until(async () => {
      const ids = await redis.hkeys(`${p}:cove:runs`);
      return ids[0];
    }, 'the run to be registered');
    const waiting = await until(() => {
      const s = status(p, runId);
      return s.waiting === 3 ? s : undefined;
    }, 'three waiting jobs');
    expect(waiting).toMatchObject({ registered: true, active: 0, done: 0, failed: 0, eta_s: null });
    // the run's DB image disappears: every try of every job fails for an infrastructure reason
    await redis.del(`${p}:cove:db:${runId}`);
    redis.disconnect();
    const w = await startWorker(['--queue', REDIS_URL, '--queue-prefix', p, '--concurrency', '2']);
    workers.push(w);
    const result = await coordinator;
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('failed on all 5 tries');
    expect(result.stderr).toContain('its DB is missing from Redis');
    expect(result.stderr).toContain('incomplete: 3 episode job(s) failed on every try');
    const s = status(p, runId);
    expect(s).toMatchObject({ failed: 3, done: 0, waiting: 0 });
    expect((s.failures as { tries: number; reason: string }[])[0]).toMatchObject({ tries: 5 });
    expect(readFileSync(join(out, 'trajectories.jsonl'), 'utf8')).toBe('');
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
  });
});
