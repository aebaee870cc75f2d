import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RequestGate } from '../llm/chat-model.js';
import type { RoleConfig } from '../llm/config.js';

/**
 * One atomic admission step (Redis server time, so machines' clocks do not matter). KEYS: the endpoint's
 * holders (sorted set: token → lease expiry ms) and its recent starts (sorted set: token → start ms).
 * ARGV: token, max_concurrency, requests_per_minute (0 = none), lease ms. Returns 0 when admitted, else the
 * milliseconds to wait before trying again.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 20 end
local rpm = tonumber(ARGV[3])
if rpm > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
  if redis.call('ZCARD', KEYS[2]) >= rpm then
    local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
    return math.max(1, tonumber(oldest[2]) + 60000 - now)
  end
  redis.call('ZADD', KEYS[2], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[2], 61000)
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]) + 1000)
return 0
`;

/** The admission step as a command of the connection (sent by its SHA1, `EVALSHA`, not as the script's text). */
type Acquire = (
  active: string,
  starts: string,
  token: string,
  maxConcurrency: number,
  requestsPerMinute: number,
  leaseMs: number,
) => Promise<unknown>;
const ACQUIRE_COMMAND = 'coveAcquireSlot';

function acquireCommand(redis: Redis): Acquire {
  if (!(ACQUIRE_COMMAND in redis)) redis.defineCommand(ACQUIRE_COMMAND, { numberOfKeys: 2, lua: ACQUIRE });
  const command = (redis as unknown as Record<string, Acquire>)[ACQUIRE_COMMAND] as Acquire;
  return command.bind(redis);
}

/**
 * `max_concurrency` and `requests_per_minute` of each model endpoint held across every worker of a run, in Redis
 * (docs/distributed.md): a request waits until fewer than `max_concurrency` requests of the run are in flight on
 * that endpoint and fewer than `requests_per_minute` started in the last 60 s. A worker that dies holding a slot
 * loses it when its lease (the request timeout plus a margin) runs out.
 */
export class SharedLimits implements RequestGate {
  readonly #redis: Redis;
  readonly #scope: string;
  readonly #acquire: Acquire;

  /** @param scope key prefix of the run, e.g. `cove:cove:limit:<run id>` */
  constructor(redis: Redis, scope: string) {
    this.#redis = redis;
    this.#scope = scope;
    this.#acquire = acquireCommand(redis);
  }

  async run<T>(endpoint: string, config: RoleConfig, send: () => Promise<T>): Promise<T> {
    const id = createHash('sha256').update(endpoint).digest('hex').slice(0, 16);
    const keys = [`${this.#scope}:${id}:active`, `${this.#scope}:${id}:starts`];
    const token = randomUUID();
    const lease = config.timeout_ms + 30_000;
    for (;;) {
      const wait = Number(
        await this.#acquire(
          keys[0] as string,
          keys[1] as string,
          token,
          config.max_concurrency,
          config.requests_per_minute ?? 0,
          lease,
        ),
      );
      if (wait === 0) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 1000)));
    }
    try {
      return await send();
    } finally {
      // the slot is given back without waiting for Redis's answer (the request's result is not held up by a
      // round trip); should it be lost, the lease frees the slot
      this.#redis.zrem(keys[0] as string, token).catch(() => {});
    }
  }
}
