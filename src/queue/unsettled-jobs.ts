import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** Jobs asked about per pipeline (one round trip each). */
const BATCH = 1000;

/**
 * Of the jobs a coordinator waits on, those whose state needs a closer look: finished (completed or failed) or gone
 * from Redis (a restart without persistence). One pipelined round trip per 1,000 jobs of small commands on the
 * queue's own keys (BullMQ's `completed` and `failed` sets and the job hash), instead of reading every job and its
 * state one by one: the coordinator's periodic check (docs/distributed.md, "Missed events") then costs Redis and
 * the workers next to nothing while jobs are only waiting or running.
 */
export async function unsettledJobs(
  redis: Redis,
  queue: Queue,
  jobIds: readonly string[],
): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < jobIds.length; i += BATCH) {
    const ids = jobIds.slice(i, i + BATCH);
    const pipeline = redis.pipeline();
    for (const id of ids) {
      pipeline.zscore(queue.keys.completed as string, id);
      pipeline.zscore(queue.keys.failed as string, id);
      pipeline.exists(queue.toKey(id));
    }
    const replies = (await pipeline.exec()) ?? [];
    ids.forEach((id, k) => {
      const [completed, failed, exists] = replies.slice(3 * k, 3 * k + 3).map((r) => {
        if (r[0] !== null) throw r[0];
        return r[1];
      });
      if (completed !== null || failed !== null || exists === 0) out.push(id);
    });
  }
  return out;
}
