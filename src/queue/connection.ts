import { Redis } from 'ioredis';
import pg from 'pg';
import { ConfigError } from '../core/errors.js';

/** A URL with its password (and user name's secret part) replaced by `***`, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

function checkScheme(flag: string, url: string, schemes: readonly string[]): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ConfigError(`${flag} must be a URL like ${schemes[0]}//host:port, not '${redactUrl(url)}'`);
  }
  if (!schemes.includes(u.protocol)) {
    throw new ConfigError(
      `${flag} ${redactUrl(url)}: the scheme must be ${schemes.map((s) => s.replace(/:$/, '')).join(' or ')}`,
    );
  }
  return u;
}

/**
 * A Redis connection for BullMQ (`maxRetriesPerRequest: null`, so commands wait across a reconnect instead of
 * failing). It reconnects forever with a backoff capped at 2 s. @throws {ConfigError} for a URL that is not
 * `redis://` or `rediss://`.
 */
export function redisConnection(url: string): Redis {
  checkScheme('--queue', url, ['redis:', 'rediss:']);
  return new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    lazyConnect: true,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
}

/**
 * Connects `redis` and checks it answers a PING within `timeoutMs`.
 * @throws {ConfigError} naming the URL (without its password) and what to check.
 */
export async function checkRedis(redis: Redis, url: string, timeoutMs = 5000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const errors: string[] = [];
  const onError = (e: Error) => errors.push(e.message);
  redis.on('error', onError);
  try {
    await Promise.race([
      (async () => {
        if (redis.status === 'wait') await redis.connect();
        await redis.ping();
      })(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (e) {
    const cause = errors[0] ?? (e as Error).message;
    throw new ConfigError(
      `cannot reach Redis at ${redactUrl(url)} (${cause}): check that redis-server is running and listening ` +
        'on that host and port, that a firewall lets this machine through, and the password in the URL',
    );
  } finally {
    clearTimeout(timer);
    redis.off('error', onError);
  }
}

/**
 * A PostgreSQL pool for `--store`. @throws {ConfigError} for a URL that is not `postgres://` or `postgresql://`.
 */
export function postgresPool(url: string): pg.Pool {
  checkScheme('--store', url, ['postgres:', 'postgresql:']);
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {}); // an idle client lost (server restart): the next query reconnects
  return pool;
}

/** Runs `SELECT 1`. @throws {ConfigError} naming the URL (without its password) and what to check. */
export async function checkPostgres(pool: pg.Pool, url: string): Promise<void> {
  try {
    await pool.query('SELECT 1');
  } catch (e) {
    throw new ConfigError(
      `cannot reach PostgreSQL at ${redactUrl(url)} (${(e as Error).message}): check that the server is running ` +
        'and listening on that host and port (pg_hba.conf lets this machine in), that the database and user in ' +
        'the URL exist, and the password',
    );
  }
}
