import { type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { type ChatModelOptions, EndpointPool } from '../llm/chat-model.js';
import { UsageMeter } from '../llm/usage-meter.js';
import { type RunContext, runTaskEpisode } from '../run/episode-runner.js';
import { createRoleFactory } from '../run/roles.js';
import { redisConnection } from './connection.js';
import { type EpisodeJobData, type EpisodeJobResult, returnedRecord } from './episode-job.js';
import {
  checkDefinition,
  loadRunBase,
  queueName,
  type RunDefinition,
  registeredRun,
  registeredRunIds,
} from './run-definition.js';
import { SharedLimits } from './shared-limits.js';
import { RecordStore } from './store.js';

/** How `cove worker` runs. */
export interface WorkerOptions {
  readonly queueUrl: string;
  /** BullMQ key prefix (several cove installations can share one Redis). */
  readonly prefix: string;
  /** Episodes at once per run served. */
  readonly concurrency: number;
  /** Serve only this run (default: every registered run). */
  readonly run?: string;
  readonly coveVersion: string;
  /** Where API keys are read (`api_key_env` of each model role). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Milliseconds a job's lock lasts without renewal; a worker that dies loses its jobs to the others after about
   * this long (BullMQ's stalled-job check runs at the same interval). @defaultValue 30000
   */
  readonly stallMs?: number;
  /** How often the registry is read for new runs. @defaultValue 1000 */
  readonly pollMs?: number;
  readonly log?: (message: string) => void;
}

interface Served {
  readonly connection: Redis;
  readonly worker: Worker<EpisodeJobData, EpisodeJobResult>;
  readonly definition: RunDefinition;
  context?: Promise<{ context: RunContext; store?: RecordStore }> | undefined;
}

/**
 * A distributed worker (docs/distributed.md): reads the run registry on the queue's Redis, and for every run it
 * may serve starts a BullMQ worker on that run's queue that runs episodes exactly as one process would
 * ({@link runTaskEpisode} over the run's stored definition) and stores each record in PostgreSQL (insert-or-
 * ignore) or returns it through the queue. Runs made by another cove version are refused (logged once; with
 * `run` given, `start` throws).
 */
export class CoveWorker {
  readonly #options: WorkerOptions;
  readonly #redis: Redis;
  readonly #served = new Map<string, Served>();
  readonly #refused = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #closing = false;
  #completed = 0;

  constructor(options: WorkerOptions) {
    this.#options = options;
    this.#redis = redisConnection(options.queueUrl);
    this.#redis.on('error', () => {}); // reconnects by itself; BullMQ's connections report their own state
  }

  /** Episodes this worker finished. */
  get completed(): number {
    return this.#completed;
  }

  /** Run ids being served. */
  get runs(): string[] {
    return [...this.#served.keys()];
  }

  /** Reads the registry now and then every `pollMs`. @throws {ConfigError} when `run` is refused. */
  async start(): Promise<void> {
    await this.#sync(true);
    const poll = () => {
      this.#timer = setTimeout(() => {
        this.#sync(false)
          .catch((e) => this.#options.log?.(`reading the run registry failed: ${(e as Error).message}`))
          .finally(() => {
            if (!this.#closing) poll();
          });
      }, this.#options.pollMs ?? 1000);
    };
    poll();
  }

  async #sync(first: boolean): Promise<void> {
    // the ids every poll; a definition (tens of kB) is read only for a run not yet served or refused
    const ids = new Set(await registeredRunIds(this.#redis, this.#options.prefix));
    for (const id of ids) {
      if (this.#options.run !== undefined && id !== this.#options.run) continue;
      if (this.#closing || this.#served.has(id) || this.#refused.has(id)) continue;
      const definition = await registeredRun(this.#redis, this.#options.prefix, id);
      if (definition === undefined || this.#closing || this.#served.has(id)) continue;
      try {
        checkDefinition(definition, this.#options.coveVersion);
      } catch (e) {
        this.#refused.add(definition.run_id);
        if (first && this.#options.run !== undefined) throw e;
        this.#options.log?.(`refused: ${(e as Error).message}`);
        continue;
      }
      this.#serve(definition);
    }
    for (const [id, served] of this.#served) {
      if (!ids.has(id)) {
        this.#served.delete(id);
        await this.#release(served);
        this.#options.log?.(`run ${id} was removed from the registry: no longer served`);
      }
    }
  }

  #serve(definition: RunDefinition): void {
    const stallMs = this.#options.stallMs ?? 30_000;
    const connection = redisConnection(this.#options.queueUrl);
    const served: Served = {
      definition,
      connection,
      worker: new Worker<EpisodeJobData, EpisodeJobResult>(
        queueName(definition.run_id),
        (job) => this.#process(served, job),
        {
          connection,
          prefix: this.#options.prefix,
          concurrency: this.#options.concurrency,
          lockDuration: stallMs,
          stalledInterval: stallMs,
          maxStalledCount: 20,
          autorun: true,
        },
      ),
    };
    served.worker.on('error', (e) => this.#options.log?.(`run ${definition.run_id}: ${e.message}`));
    served.worker.on('completed', () => this.#completed++);
    this.#served.set(definition.run_id, served);
    this.#options.log?.(`serving run ${definition.run_id}`);
  }

  async #process(served: Served, job: Job<EpisodeJobData, EpisodeJobResult>): Promise<EpisodeJobResult> {
    served.context ??= this.#context(served.definition).catch((e) => {
      served.context = undefined;
      throw e;
    });
    const { context, store } = await served.context;
    const { task, index, trial, attempt } = job.data;
    const record = await runTaskEpisode(context, { task, index }, trial, attempt);
    if (store === undefined) return { stored: false, record: returnedRecord(record) };
    await store.putRecord(served.definition.run_id, record);
    return { stored: true, id: record.id };
  }

  async #context(definition: RunDefinition): Promise<{ context: RunContext; store?: RecordStore }> {
    const { domain, base } = await loadRunBase(this.#redis, this.#options.prefix, definition);
    const models: ChatModelOptions = {
      env: this.#options.env,
      prices: definition.prices,
      meter: new UsageMeter(),
      endpoints: new EndpointPool(
        new SharedLimits(this.#redis, `${this.#options.prefix}:cove:limit:${definition.run_id}`),
      ),
    };
    const roles = createRoleFactory(domain, definition.roles, {
      agentContext: definition.agent_context,
      userGuidelines: definition.user_guidelines,
      models,
    });
    const context: RunContext = {
      run: definition.run_name,
      domain,
      base,
      dbSha256: definition.db_sha256,
      benchmarkData: definition.benchmark_data,
      seed: definition.seed,
      settings: definition.settings,
      agentContext: definition.agent_context,
      roles,
      limits: definition.limits,
      coveVersion: definition.cove_version,
    };
    if (definition.store === undefined) return { context };
    const store = new RecordStore(definition.store);
    await store.ready();
    return { context, store };
  }

  async #release(served: Served, force = false): Promise<void> {
    await served.worker.close(force);
    served.connection.disconnect();
    const ready = await served.context?.catch(() => undefined);
    ready?.context.base.close();
    await ready?.store?.close();
  }

  /**
   * Stops taking jobs. Graceful (default): the episodes in hand finish and are delivered first. `force`: they
   * are dropped; the queue gives them to another worker once their lock runs out.
   */
  async close(force = false): Promise<void> {
    this.#closing = true;
    clearTimeout(this.#timer);
    await Promise.all([...this.#served.values()].map((s) => this.#release(s, force)));
    this.#served.clear();
    this.#redis.disconnect();
  }
}
