import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRoleConfig } from '../../src/llm/config.js';
import { SharedLimits } from '../../src/queue/shared-limits.js';
import { dropPrefix, REDIS_URL, uniqueName } from '../helpers/dist-services.js';

// The endpoint caps shared by the workers of a run through Redis (docs/distributed.md): two limiters on two
// connections stand for two worker processes.
describe('SharedLimits', () => {
  const prefix = uniqueName('lim');
  const a = new Redis(REDIS_URL);
  const b = new Redis(REDIS_URL);

  afterAll(async () => {
    a.disconnect();
    b.disconnect();
    await dropPrefix(REDIS_URL, prefix);
  });

  const config = (caps: { max_concurrency: number; requests_per_minute?: number }) =>
    resolveRoleConfig('agent', undefined, { model: 'openai:m', base_url: 'http://127.0.0.1:9/v1', ...caps });

  it('max_concurrency holds across limiters: never more than 2 requests in flight of 8', async () => {
    const scope = `${prefix}:cove:limit:c`;
    const limiters = [new SharedLimits(a, scope), new SharedLimits(b, scope)];
    const cfg = config({ max_concurrency: 2 });
    let inFlight = 0;
    let most = 0;
    const send = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 30));
      inFlight--;
      return 'ok';
    };
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (limiters[i % 2] as SharedLimits).run(cfg.base_url, cfg, send)),
    );
    expect(results).toEqual(Array(8).fill('ok'));
    expect(most).toBe(2);
  });

  it('requests_per_minute holds across limiters: the 4th request of a 3-per-minute endpoint waits', async () => {
    const scope = `${prefix}:cove:limit:r`;
    const limiters = [new SharedLimits(a, scope), new SharedLimits(b, scope)];
    const cfg = config({ max_concurrency: 10, requests_per_minute: 3 });
    let sent = 0;
    const send = async () => ++sent;
    await Promise.all([0, 1, 2].map((i) => (limiters[i % 2] as SharedLimits).run(cfg.base_url, cfg, send)));
    expect(sent).toBe(3);
    let fourth = false;
    void (limiters[1] as SharedLimits)
      .run(cfg.base_url, cfg, send)
      .then(() => {
        fourth = true;
      })
      .catch(() => {}); // its connection is closed at the end of the suite, while it still waits
    await new Promise((r) => setTimeout(r, 1500));
    // the window is 60 s: a 4th start within it would break the cap
    expect(fourth).toBe(false);
    expect(sent).toBe(3);
  });
});
