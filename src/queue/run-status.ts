import { Queue } from 'bullmq';
import { checkRedis, redisConnection } from './connection.js';
import { queueName, registeredRun } from './run-definition.js';

/** What `cove runs status` reports about a distributed run. */
export interface RunStatus {
  readonly run: string;
  /** Whether the run is in the registry (workers serve it); a finished run is removed from it. */
  readonly registered: boolean;
  readonly cove_version?: string;
  readonly waiting: number;
  readonly active: number;
  /** Jobs waiting for a retry after a failed try. */
  readonly delayed: number;
  readonly done: number;
  readonly failed: number;
  /** Episodes finished per second over the last minute. */
  readonly episodes_per_s: number;
  /** Seconds until the jobs now queued are done at that rate (`null`: nothing finished in the last minute). */
  readonly eta_s: number | null;
  /** Reasons of up to 5 failed jobs. */
  readonly failures: readonly { readonly job: string; readonly reason: string; readonly tries: number }[];
}

/** Sample of recent completions used for the rate. */
const RATE_SAMPLE = 1000;

/**
 * Counts of a run's jobs on its queue, its throughput over the last minute (from the jobs' finish times) and an ETA.
 * @throws {ConfigError} when Redis cannot be reached.
 */
export async function runStatus(queueUrl: string, prefix: string, runId: string): Promise<RunStatus> {
  const redis = redisConnection(queueUrl);
  redis.on('error', () => {});
  const queue = new Queue(queueName(runId), { connection: redis, prefix });
  queue.on('error', () => {});
  try {
    await checkRedis(redis, queueUrl);
    const definition = await registeredRun(redis, prefix, runId);
    const counts = await queue.getJobCounts(
      'waiting',
      'prioritized',
      'active',
      'delayed',
      'completed',
      'failed',
    );
    const recent = await queue.getJobs(['completed'], 0, RATE_SAMPLE - 1, false);
    const now = Date.now();
    const lastMinute = recent.filter((j) => j !== undefined && (j.finishedOn ?? 0) >= now - 60_000).length;
    const rate = lastMinute / 60;
    const waiting = (counts.waiting ?? 0) + (counts.prioritized ?? 0);
    const queued = waiting + (counts.active ?? 0) + (counts.delayed ?? 0);
    const failed = await queue.getJobs(['failed'], 0, 4, true);
    return {
      run: runId,
      registered: definition !== undefined,
      ...(definition === undefined ? {} : { cove_version: definition.cove_version }),
      waiting,
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      done: counts.completed ?? 0,
      failed: counts.failed ?? 0,
      episodes_per_s: Number(rate.toFixed(3)),
      eta_s: queued === 0 ? 0 : rate > 0 ? Math.ceil(queued / rate) : null,
      failures: failed
        .filter((j) => j !== undefined)
        .map((j) => ({ job: String(j.id), reason: j.failedReason, tries: j.attemptsMade })),
    };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
