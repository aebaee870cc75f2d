import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';

const BIN = fileURLToPath(new URL('../../bin/cove.js', import.meta.url));
export const REDIS_URL = 'redis://127.0.0.1:6379';
export const PG_BASE = 'postgres://root@127.0.0.1:5432/test';

/** A key prefix / schema name of its own for one test, so tests sharing the machine's services never collide. */
export function uniqueName(tag: string): string {
  return `t_${tag}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** The store URL of a test schema. */
export function storeUrl(schema: string): string {
  return `${PG_BASE}?schema=${schema}`;
}

/** Deletes every Redis key under a prefix. */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Runs SQL on the test database. */
export async function pgQuery<T extends pg.QueryResultRow>(
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: PG_BASE });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A `cove worker` child process. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly log: () => string;
  readonly exited: Promise<number | null>;
}

/** Starts `cove worker` and waits until it says it is ready. */
export function startWorker(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [BIN, 'worker', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      log += d.toString('utf8');
      if (log.includes('ready on')) resolve({ child, log: () => log, exited });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    exited.then((code) => reject(new Error(`worker exited with ${code} before it was ready: ${log}`)));
  });
}
