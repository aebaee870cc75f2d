import { basename } from 'node:path';
import type { Redis } from 'ioredis';
import { ConfigError } from '../core/errors.js';
import type { Domain } from '../domains/domain.js';
import { getDomain } from '../domains/registry.js';
import { EnvironmentBase } from '../env/environment-base.js';
import { SqlConnection } from '../env/sql.js';
import type { StateHashes } from '../env/state-digest.js';
import type { PriceTable } from '../llm/config.js';
import type { RoleChoice } from '../run/roles.js';
import { runIdOf } from '../run/run-identity.js';
import type { TrajectorySettings } from '../run/trajectory.js';
import type { AgentContext } from '../sim/agent-context.js';
import type { EpisodeLimits } from '../sim/episode-session.js';

/** Version of the definition's shape; a worker refuses shapes it does not know. */
export const DEFINITION_FORMAT = 1;

/**
 * Everything a worker needs to run a run's episodes exactly as one process would (docs/distributed.md): the
 * domain, the loaded DB (as a SQLite image, stored beside it), the roles (model configs without keys: a worker
 * reads each key from its own environment variable `api_key_env`), settings, limits, and where records go.
 * Tasks travel in the jobs.
 */
export interface RunDefinition {
  readonly format: number;
  /** `<fingerprint hash>-<out folder name>`: also the name of the run's BullMQ queue. */
  readonly run_id: string;
  /** The records' `run` field: the fingerprint's hash, as in a single-process run. */
  readonly run_name: string;
  readonly cove_version: string;
  readonly domain: string;
  readonly db_sha256: string;
  readonly db_hashes: StateHashes;
  readonly benchmark_data: boolean;
  readonly seed: number;
  readonly settings: TrajectorySettings;
  readonly agent_context: AgentContext;
  readonly user_guidelines: string;
  readonly roles: RoleChoice;
  readonly prices: PriceTable;
  readonly limits: EpisodeLimits;
  /** PostgreSQL URL where workers store records; absent: records return through the queue. */
  readonly store?: string;
  readonly fingerprint: Readonly<Record<string, unknown>>;
  readonly created_at: string;
}

/**
 * The run id of a distributed run: the fingerprint's hash plus the `--out` folder's name, so two runs with the
 * same settings into different folders never share jobs or records. Only `[A-Za-z0-9_.-]` is kept.
 */
export function distributedRunId(fingerprint: Readonly<Record<string, unknown>>, out: string): string {
  const name = basename(out)
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .slice(0, 80);
  return `${runIdOf(fingerprint)}-${name === '' ? 'run' : name}`;
}

/** Redis keys of the run registry, under the queue prefix. */
export function registryKeys(prefix: string) {
  return {
    /** hash: run id → definition JSON */
    runs: `${prefix}:cove:runs`,
    /** SQLite image of a run's base DB */
    db: (runId: string) => `${prefix}:cove:db:${runId}`,
  };
}

/** The BullMQ queue name of a run: its id. */
export function queueName(runId: string): string {
  return runId;
}

/** Registers a run (its definition and its DB image) in Redis; a re-registration replaces it. */
export async function registerRun(
  redis: Redis,
  prefix: string,
  definition: RunDefinition,
  base: EnvironmentBase,
): Promise<void> {
  const keys = registryKeys(prefix);
  await redis
    .multi()
    .set(keys.db(definition.run_id), base.sql.db.serialize())
    .hset(keys.runs, definition.run_id, JSON.stringify(definition))
    .exec();
}

/** The ids of every registered run (without reading their definitions). */
export function registeredRunIds(redis: Redis, prefix: string): Promise<string[]> {
  return redis.hkeys(registryKeys(prefix).runs);
}

/** One registered run, or undefined. */
export async function registeredRun(
  redis: Redis,
  prefix: string,
  runId: string,
): Promise<RunDefinition | undefined> {
  const text = await redis.hget(registryKeys(prefix).runs, runId);
  return text === null ? undefined : (JSON.parse(text) as RunDefinition);
}

/** Removes a run from the registry (workers stop serving it). */
export async function unregisterRun(redis: Redis, prefix: string, runId: string): Promise<void> {
  const keys = registryKeys(prefix);
  await redis.multi().hdel(keys.runs, runId).del(keys.db(runId)).exec();
}

/**
 * Checks that this cove can run a definition. @throws {ConfigError} when it was made by another cove version or
 * in a shape this cove does not know (records would differ from a single-process run).
 */
export function checkDefinition(definition: RunDefinition, coveVersion: string): void {
  if (definition.format !== DEFINITION_FORMAT) {
    throw new ConfigError(
      `run ${definition.run_id}: its definition has format ${definition.format}, this worker knows ${DEFINITION_FORMAT}; run a worker of cove ${definition.cove_version}`,
    );
  }
  if (definition.cove_version !== coveVersion) {
    throw new ConfigError(
      `run ${definition.run_id} was made by cove ${definition.cove_version}, this worker is cove ${coveVersion}: ` +
        `its episodes would not match a single-process run; run workers of cove ${definition.cove_version} for it`,
    );
  }
}

/** The base DB of a registered run, rebuilt from its SQLite image. @throws {ConfigError} when the image is gone. */
export async function loadRunBase(
  redis: Redis,
  prefix: string,
  definition: RunDefinition,
): Promise<{ domain: Domain; base: EnvironmentBase }> {
  const domain = getDomain(definition.domain);
  const image = await redis.getBuffer(registryKeys(prefix).db(definition.run_id));
  if (image === null) {
    throw new ConfigError(`run ${definition.run_id}: its DB is missing from Redis (the run was removed)`);
  }
  const base = new EnvironmentBase(domain, SqlConnection.open(image));
  base.presetHashes(definition.db_hashes);
  return { domain, base };
}
