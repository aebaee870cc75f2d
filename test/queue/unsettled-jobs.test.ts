import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { unsettledJobs } from '../../src/queue/unsettled-jobs.js';
import { dropPrefix, REDIS_URL, uniqueName } from '../helpers/dist-services.js';

// The coordinator's periodic check (docs/distributed.md, "Missed events") on the machine's Redis: of the jobs it
// waits on, those finished or gone are read back; those still waiting are left alone.
describe('unsettledJobs', () => {
  const prefix = uniqueName('unsettled');
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('q', { connection: redis, prefix });
  const worker = new Worker('q', null, { connection: redis, prefix, autorun: false });

  afterAll(async () => {
    await worker.close();
    await queue.close();
    redis.disconnect();
    await dropPrefix(REDIS_URL, prefix);
  });

  it('names the completed, the failed and the missing jobs, not the waiting one', async () => {
    await queue.add('episode', {}, { jobId: 'done' });
    await queue.add('episode', {}, { jobId: 'broken' });
    await queue.add('episode', {}, { jobId: 'waiting' });
    // jobs are taken in the order they were added: the first is completed, the second failed (one try)
    const first = await worker.getNextJob('token');
    await first?.moveToCompleted({ ok: true }, 'token', false);
    const second = await worker.getNextJob('token');
    await second?.moveToFailed(new Error('down'), 'token', false);
    expect([first?.id, second?.id]).toEqual(['done', 'broken']);
    expect(await unsettledJobs(redis, queue, ['done', 'broken', 'waiting', 'never-added'])).toEqual([
      'done',
      'broken',
      'never-added',
    ]);
  });
});
