import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chaosRun } from '../helpers/chaos-run.js';
import { dropPrefix, pgQuery, REDIS_URL, uniqueName } from '../helpers/dist-services.js';

// Issue 21's large fault test (outside `npm test`'s budget): 3 workers over 3,000 scripted episodes while workers are
// SIGKILLed and restarted at random (5 kills) and the coordinator is killed once and restarted; every episode must
// be stored exactly once and sft.jsonl must equal the single-process run's, byte for byte.
describe('distributed run at scale under faults', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cove-scale-faults-'));
  const prefix = uniqueName('sf');
  const schema = uniqueName('sfs');

  afterAll(async () => {
    await dropPrefix(REDIS_URL, prefix);
    await pgQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('3 workers, 3,000 episodes, 5 worker kills and a coordinator kill', async () => {
    const notes: string[] = [];
    await chaosRun({
      dir,
      prefix,
      schema,
      n: 3000,
      redisUrl: REDIS_URL,
      workers: 3,
      workerKills: 5,
      killCoordinator: true,
      seed: 21,
      note: (m) => notes.push(m),
    });
    expect(notes.filter((m) => m.startsWith('killed worker')).length).toBe(5);
    expect(notes.filter((m) => m.startsWith('killed the coordinator')).length).toBe(1);
  }, 3_600_000);
});
