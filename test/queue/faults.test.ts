import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chaosRun } from '../helpers/chaos-run.js';
import { dropPrefix, pgQuery, REDIS_URL, uniqueName } from '../helpers/dist-services.js';
import { PrivateRedis } from '../helpers/private-redis.js';

// Faults survived by a distributed run (docs/distributed.md), on the real services; the 3,000-episode version is in
// test/scale/distributed-faults.test.ts.
describe('distributed runs survive faults', () => {
  const dirs: string[] = [];
  const schemas: string[] = [];
  const prefixes: string[] = [];
  let redis: PrivateRedis | undefined;

  afterAll(async () => {
    await redis?.stop();
    for (const p of prefixes) await dropPrefix(REDIS_URL, p);
    for (const s of schemas) await pgQuery(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const names = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cove-faults-'));
    const prefix = uniqueName('f');
    const schema = uniqueName('fs');
    dirs.push(dir);
    prefixes.push(prefix);
    schemas.push(schema);
    return { dir, prefix, schema };
  };

  it('workers SIGKILLed and restarted, the coordinator killed once: each episode stored once, same sft.jsonl', async () => {
    const notes: string[] = [];
    await chaosRun({
      ...names(),
      n: 40,
      redisUrl: REDIS_URL,
      workers: 2,
      workerKills: 2,
      killCoordinator: true,
      seed: 7,
      note: (m) => notes.push(m),
    });
    // the faults struck while episodes were still to be run
    expect(notes.filter((m) => m.startsWith('killed worker')).length).toBe(2);
    expect(notes.filter((m) => m.startsWith('killed the coordinator')).length).toBe(1);
  }, 900_000);

  it('Redis restarted mid-run (a private server, nothing persisted): workers reconnect and the run completes', async () => {
    redis = await PrivateRedis.start();
    const server = redis;
    const notes: string[] = [];
    await chaosRun({
      ...names(),
      n: 30,
      redisUrl: server.url,
      workers: 2,
      workerKills: 0,
      killCoordinator: false,
      seed: 3,
      note: (m) => notes.push(m),
      midRun: () => server.restart(),
    });
    expect(notes.filter((m) => m.startsWith('mid-run step done')).length).toBe(1);
  }, 900_000);
});
