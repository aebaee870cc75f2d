import { readFileSync } from 'node:fs';
import { type Job, Queue, QueueEvents } from 'bullmq';
import type { PriceTable } from '../llm/config.js';
import { episodeId } from '../run/episode-runner.js';
import { type EpisodeExecutor, EpisodeNotRunError } from '../run/generate.js';
import type { RoleChoice } from '../run/roles.js';
import { runPaths } from '../run/run-folder.js';
import { type GenerateRunOptions, type GenerateRunResult, runGenerate, runId } from '../run/run-generate.js';
import type { TrajectoryRecord } from '../run/trajectory.js';
import { checkRedis, redisConnection } from './connection.js';
import {
  EPISODE_JOB,
  type EpisodeJobData,
  type EpisodeJobResult,
  JOB_TRIES,
  restoredRecord,
} from './episode-job.js';
import {
  DEFINITION_FORMAT,
  distributedRunId,
  queueName,
  type RunDefinition,
  registerRun,
  registryKeys,
  unregisterRun,
} from './run-definition.js';
import { RecordStore } from './store.js';
import { unsettledJobs } from './unsettled-jobs.js';

/** Where a distributed run's jobs and records go. */
export interface DistributedSettings {
  /** `redis://host:port` of the BullMQ queue and the run registry. */
  readonly queueUrl: string;
  /** `postgres://…` where workers store records; absent: records return through the queue. */
  readonly storeUrl?: string;
  /** BullMQ key prefix. @defaultValue `cove` */
  readonly prefix?: string;
  /** How the roles are played (model configs carry no keys: workers read their own). */
  readonly roles: RoleChoice;
  readonly userGuidelines: string;
  readonly prices: PriceTable;
  /** How often jobs not heard of are checked (a missed event, a Redis restart). @defaultValue 3000 */
  readonly checkMs?: number;
  /** Told the run id once the run is registered (workers can take its jobs from then on). */
  readonly onRegistered?: (runId: string) => void;
}

interface Waiter {
  readonly resolve: (record: TrajectoryRecord) => void;
  readonly reject: (error: Error) => void;
  readonly data: EpisodeJobData;
}

/**
 * Runs `cove generate --queue …` (docs/distributed.md): registers the run's definition in Redis, then drives
 * {@link runGenerate} with an executor that enqueues each episode as a BullMQ job (the trajectory id is the job id,
 * so an episode is never queued twice, and a restarted coordinator waits on the jobs already there) and waits for
 * its record from the workers. `--attempts` and `--target-sft` work as in one process because runGenerate decides
 * what to enqueue next from the records as they arrive; the run folder is written as usual.
 * @throws {ConfigError} when Redis or PostgreSQL cannot be reached (naming the URL and what to check).
 */
export async function runDistributed(
  options: GenerateRunOptions,
  settings: DistributedSettings,
): Promise<GenerateRunResult & { readonly runId: string }> {
  const prefix = settings.prefix ?? 'cove';
  const id = distributedRunId(options.fingerprint, options.out);
  const redis = redisConnection(settings.queueUrl);
  redis.on('error', () => {});
  await checkRedis(redis, settings.queueUrl).catch((e) => {
    redis.disconnect();
    throw e;
  });
  const store = settings.storeUrl === undefined ? undefined : new RecordStore(settings.storeUrl);
  const loaded = options.source.loaded;
  const definition: RunDefinition = {
    format: DEFINITION_FORMAT,
    run_id: id,
    run_name: runId(options.fingerprint),
    cove_version: options.coveVersion,
    domain: options.domain.name,
    db_sha256: loaded.hashes.canonical_sha256,
    db_hashes: loaded.hashes,
    benchmark_data: loaded.isTau2Benchmark,
    seed: options.seed,
    settings: options.settings,
    agent_context: options.agentContext,
    user_guidelines: settings.userGuidelines,
    roles: settings.roles,
    prices: settings.prices,
    limits: options.limits,
    ...(settings.storeUrl === undefined ? {} : { store: settings.storeUrl }),
    fingerprint: options.fingerprint,
    created_at: new Date().toISOString(),
  };
  const definitionText = JSON.stringify(definition);
  // BullMQ leaves connections it is given open: they are closed below
  const queueRedis = redisConnection(settings.queueUrl);
  const eventsRedis = redisConnection(settings.queueUrl);
  const queue = new Queue<EpisodeJobData, EpisodeJobResult>(queueName(id), {
    connection: queueRedis,
    prefix,
  });
  queue.on('error', () => {});
  const events = new QueueEvents(queueName(id), { connection: eventsRedis, prefix });
  events.on('error', () => {});
  const waiters = new Map<string, Waiter>();
  const rerun = new Set<string>();

  const register = () => registerRun(redis, prefix, definition, loaded.base);
  const read = async (result: EpisodeJobResult, jobId: string): Promise<TrajectoryRecord> => {
    if (!result.stored) return restoredRecord(result.record, options.agentContext.tools);
    const record = await store?.record(id, result.id);
    if (record === undefined)
      throw new Error(`job ${jobId}: the store has no record ${result.id} of run ${id}`);
    return record;
  };
  /** Settles a waiter from its job's state; re-adds a job Redis lost (a restart without persistence). */
  const check = async (jobId: string): Promise<void> => {
    const waiter = waiters.get(jobId);
    if (waiter === undefined) return;
    const job = await queue.getJob(jobId);
    if (job === undefined || job === null) {
      if (!(await redis.hexists(registryKeys(prefix).runs, id))) await register();
      await add(jobId, waiter.data);
      return;
    }
    const state = await job.getState();
    if (state === 'completed') {
      const record = await read(job.returnvalue as EpisodeJobResult, jobId);
      if (waiters.get(jobId) !== waiter) return;
      waiters.delete(jobId);
      waiter.resolve(record);
    } else if (state === 'failed') {
      if (waiters.get(jobId) !== waiter) return;
      waiters.delete(jobId);
      waiter.reject(
        new EpisodeNotRunError(
          `episode ${jobId} (task index ${waiter.data.index}, attempt ${waiter.data.attempt}) failed on all ` +
            `${job.attemptsMade} tries: ${job.failedReason}; run the same command again to retry it`,
        ),
      );
    }
  };
  const add = (jobId: string, data: EpisodeJobData): Promise<Job> =>
    queue.add(EPISODE_JOB, data, {
      jobId,
      attempts: JOB_TRIES,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: false,
      removeOnFail: false,
    });
  const settle = (jobId: string) => {
    check(jobId).catch(() => {}); // the periodic check tries again
  };
  events.on('completed', ({ jobId, returnvalue }) => {
    // the event carries the result: no need to read the job back (the periodic check covers anything odd)
    const waiter = waiters.get(jobId);
    if (waiter === undefined) return;
    let result: EpisodeJobResult | undefined;
    try {
      const value: unknown = typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue;
      if (typeof value === 'object' && value !== null && 'stored' in value)
        result = value as EpisodeJobResult;
    } catch {
      result = undefined;
    }
    if (result === undefined) {
      settle(jobId);
      return;
    }
    read(result, jobId).then(
      (record) => {
        if (waiters.get(jobId) !== waiter) return;
        waiters.delete(jobId);
        waiter.resolve(record);
      },
      () => settle(jobId),
    );
  });
  events.on('failed', ({ jobId }) => settle(jobId));
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    (async () => {
      // only the jobs that finished or vanished are read back; a job still waiting or running is left alone
      const unsettled = await unsettledJobs(redis, queue, [...waiters.keys()]).catch(() => [
        ...waiters.keys(),
      ]);
      for (const jobId of unsettled) await check(jobId).catch(() => {});
    })().finally(() => {
      checking = false;
    });
  }, settings.checkMs ?? 3000);

  const runEpisode: EpisodeExecutor = async (context, task, trial, attempt) => {
    const jobId = episodeId(context, task.task, trial, attempt);
    const data: EpisodeJobData = { task: task.task, index: task.index, trial, attempt };
    const existing = await queue.getJob(jobId);
    let queued = existing !== undefined && existing !== null;
    if (existing !== undefined && existing !== null) {
      const state = await existing.getState();
      if (state === 'failed') {
        await existing.retry('failed'); // a rerun of the command tries a failed episode again
      } else if (state === 'completed' && !rerun.has(jobId)) {
        const result = existing.returnvalue as EpisodeJobResult;
        const record = await read(result, jobId).catch(() => undefined);
        if (record?.termination_reason === 'infrastructure_error') {
          // the run folder is running it again (a model server was down): a fresh job, not the old result
          rerun.add(jobId);
          await existing.remove();
          queued = false;
        }
      }
    }
    const done = new Promise<TrajectoryRecord>((resolve, reject) => {
      waiters.set(jobId, { resolve, reject, data });
    });
    // a job added now finishes after the events are being read (they were before the run started), so its
    // completion is heard; one that was already there may have finished before: its state is read now
    if (queued) settle(jobId);
    else await add(jobId, data);
    return done;
  };

  try {
    if (store !== undefined) {
      await store.ready();
      await store.saveRun(id, definitionText, 'running');
    }
    await register();
    await events.waitUntilReady();
    settings.onRegistered?.(id);
    const result = await runGenerate({ ...options, runEpisode });
    if (store !== undefined) {
      const paths = runPaths(options.out);
      await store.saveTasks(id, readFileSync(paths.tasksJson, 'utf8'));
      const complete = result.notRun === 0 && !(options.shouldStop?.() ?? false);
      await store.saveRun(id, definitionText, complete ? 'done' : 'incomplete');
    }
    if (result.notRun === 0) await unregisterRun(redis, prefix, id);
    return { ...result, runId: id };
  } finally {
    clearInterval(timer);
    for (const w of waiters.values()) w.reject(new Error('the coordinator stopped'));
    await events.close();
    await queue.close();
    await store?.close();
    for (const r of [redis, queueRedis, eventsRedis]) r.disconnect();
  }
}
