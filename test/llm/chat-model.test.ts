import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { getDomain } from '../../src/domains/registry.js';
import type { OpenAiTool } from '../../src/env/openai-tools.js';
import { type ApiMessage, ChatModel, type ChatModelOptions, EndpointPool } from '../../src/llm/chat-model.js';
import { isLoopback, type RoleConfig, type RoleName, roleConfigSchema } from '../../src/llm/config.js';
import { callCost, UsageMeter } from '../../src/llm/usage-meter.js';
import { createMockLlmApp } from '../../src/server/mock-llm/app.js';
import { RoleSessions } from '../../src/server/mock-llm/sessions.js';
import { serveApp } from '../../src/server/serve.js';
import { RoleError } from '../../src/sim/roles.js';
import {
  type FakeLlm,
  type FakeReply,
  hang,
  startFakeLlm,
  status,
  text,
} from '../helpers/llm-fake-server.js';

/** Servers started by a test; closed after it. */
const servers: FakeLlm[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(reply: (n: number) => FakeReply | Promise<FakeReply>): Promise<FakeLlm> {
  const server = await startFakeLlm((r) => reply(r.n));
  servers.push(server);
  return server;
}

const roleConfig = (baseUrl: string, extra: Partial<Record<keyof RoleConfig, unknown>> = {}): RoleConfig =>
  roleConfigSchema.parse({ model: 'openai:fake-model', base_url: baseUrl, ...extra });

function modelOptions(extra: Partial<ChatModelOptions> = {}): ChatModelOptions {
  return { env: {}, prices: {}, meter: new UsageMeter(), endpoints: new EndpointPool(), ...extra };
}

function chat(
  baseUrl: string,
  extra: Partial<Record<keyof RoleConfig, unknown>> = {},
  options: Partial<ChatModelOptions> = {},
  role: RoleName = 'agent',
): ChatModel {
  return new ChatModel(role, roleConfig(baseUrl, extra), modelOptions(options));
}

const HELLO: ApiMessage[] = [
  { role: 'system', content: 'be brief' },
  { role: 'user', content: 'hello' },
];

async function roleError(promise: Promise<unknown>): Promise<RoleError> {
  const e = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RoleError);
  return e as RoleError;
}

const TOOL: OpenAiTool = {
  type: 'function',
  function: { name: 'ping', description: 'ping', parameters: { type: 'object', properties: {} } },
};

describe('requests', () => {
  it('carry x-cove-role and x-cove-task-id, the model name, temperature, seed and max_tokens', async () => {
    const server = await fake(() => text('hi'));
    const agent = chat(server.baseUrl, { temperature: 0.3, seed: 42, max_tokens: 77 });
    const done = await agent.complete(HELLO, 'retail-s1-7', [TOOL]);
    expect(done.content).toBe('hi');
    const user = chat(server.baseUrl, {}, {}, 'user');
    await user.complete(HELLO, 'retail-s1-8');

    const [a, u] = server.requests;
    expect(a?.headers['x-cove-role']).toBe('agent');
    expect(a?.headers['x-cove-task-id']).toBe('retail-s1-7');
    expect(a?.body).toMatchObject({
      model: 'fake-model',
      messages: HELLO,
      temperature: 0.3,
      seed: 42,
      max_tokens: 77,
      tools: [TOOL],
      tool_choice: 'auto',
    });
    expect(u?.headers['x-cove-role']).toBe('user');
    expect(u?.headers['x-cove-task-id']).toBe('retail-s1-8');
    // defaults: temperature 0, no seed, no max_tokens, no tools
    expect(u?.body.temperature).toBe(0);
    expect(u?.body).not.toHaveProperty('seed');
    expect(u?.body).not.toHaveProperty('max_tokens');
    expect(u?.body).not.toHaveProperty('tools');
    expect(u?.body).not.toHaveProperty('tool_choice');
  });

  it('defaults: key from OPENAI_API_KEY, 60 s timeout, 4 retries', () => {
    const c = roleConfigSchema.parse({ model: 'openai:m' });
    expect(c.api_key_env).toBe('OPENAI_API_KEY');
    expect(c.timeout_ms).toBe(60_000);
    expect(c.max_retries).toBe(4);
    expect(c.base_url).toBe('https://api.openai.com/v1');
  });
});

describe('retries (counted on the server)', () => {
  it('retries 500, 429, 408 and 409, then succeeds', async () => {
    const plan = [status(500), status(429), status(408), status(409)];
    const server = await fake((n) => plan[n - 1] ?? text('finally'));
    const done = await chat(server.baseUrl, { max_retries: 4 }).complete(HELLO, 't');
    expect(done.content).toBe('finally');
    expect(server.requests).toHaveLength(5);
    expect(done.usage.retries).toBe(4); // the four failed attempts, reported with the completion
    const again = await chat(server.baseUrl, { max_retries: 4 }).complete(HELLO, 't');
    expect(again.usage.retries).toBe(0); // a first-time success counts none (nothing left over)
  });

  it('backs off (with jitter) between attempts when the server gives no Retry-After', async () => {
    const server = await fake((n) => (n === 1 ? status(500, false) : text('ok')));
    await chat(server.baseUrl, { max_retries: 1 }).complete(HELLO, 't');
    const [first, second] = server.requests;
    // the SDK waits 0.5 s × (0.75..1) before its first retry
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(350);
  });

  it('honours the Retry-After header of a 429, and x-should-retry: false on a 500', async () => {
    const server = await fake((n) =>
      n === 1 ? { kind: 'status', status: 429, headers: { 'retry-after': '2' } } : text('ok'),
    );
    await chat(server.baseUrl, { max_retries: 1 }).complete(HELLO, 't');
    const [first, second] = server.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1900);
    const noRetry = await fake(() => ({
      kind: 'status',
      status: 500,
      headers: { 'x-should-retry': 'false' },
    }));
    await roleError(chat(noRetry.baseUrl, { max_retries: 3 }).complete(HELLO, 't'));
    expect(noRetry.requests).toHaveLength(1);
  });

  it('gives up after max_retries with a RoleError carrying the status', async () => {
    const server = await fake(() => status(503));
    const e = await roleError(chat(server.baseUrl, { max_retries: 2 }).complete(HELLO, 't'));
    expect(server.requests).toHaveLength(3);
    expect(e.role).toBe('agent');
    expect(e.kind).toBe('infrastructure');
    expect(e.message).toMatch(/HTTP 503/);

    const userServer = await fake(() => status(429));
    const u = await roleError(chat(userServer.baseUrl, { max_retries: 1 }, {}, 'user').complete(HELLO, 't'));
    expect(userServer.requests).toHaveLength(2);
    expect(u.role).toBe('user');
    expect(u.message).toMatch(/HTTP 429/);
  });

  it('cove mock-llm (in process): an unknown task id is a 404 that is not retried', async () => {
    const { app, stats } = createMockLlmApp({
      mode: 'oracle',
      sessions: new RoleSessions(getDomain('retail'), new Map()),
    });
    const server = await serveApp(app, { port: 0 });
    try {
      const e = await roleError(chat(`${server.url}/v1`, { max_retries: 3 }).complete(HELLO, 'no-such-task'));
      expect(e.message).toMatch(/HTTP 404/);
      expect(e.message).toContain('no-such-task');
      expect(stats.requests).toBe(1);
      expect(stats.byRole).toEqual({ agent: 1 });
    } finally {
      await server.close();
    }
  });

  it('does not retry a 400', async () => {
    const server = await fake(() => status(400));
    const e = await roleError(chat(server.baseUrl, { max_retries: 3 }).complete(HELLO, 't'));
    expect(server.requests).toHaveLength(1);
    expect(e.message).toMatch(/HTTP 400/);
  });

  it('retries a request that timed out', async () => {
    const server = await fake((n) => (n === 1 ? hang(1500, text('late')) : text('ok')));
    const started = performance.now();
    const done = await chat(server.baseUrl, { timeout_ms: 300, max_retries: 2 }).complete(HELLO, 't');
    expect(done.content).toBe('ok');
    expect(server.requests).toHaveLength(2);
    expect(done.usage.retries).toBe(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('time spent waiting in the endpoint queue is not the request timing out (no retries)', async () => {
    const server = await fake(() => hang(200, text('ok')));
    const model = chat(server.baseUrl, { timeout_ms: 300, max_retries: 2, max_concurrency: 1 });
    // one at a time: the third waits ~400 ms in the queue, more than timeout_ms, then takes 200 ms
    const done = await Promise.all([1, 2, 3].map((i) => model.complete(HELLO, `t${i}`)));
    expect(done.map((d) => d.content)).toEqual(['ok', 'ok', 'ok']);
    expect(done.map((d) => d.usage.retries)).toEqual([0, 0, 0]);
    expect(server.requests).toHaveLength(3);
  });

  it('fails with a RoleError when every attempt times out', async () => {
    const server = await fake(() => hang(800, text('late')));
    const e = await roleError(chat(server.baseUrl, { timeout_ms: 150, max_retries: 1 }).complete(HELLO, 't'));
    expect(server.requests).toHaveLength(2);
    expect(e.kind).toBe('infrastructure');
    expect(e.message).toMatch(/timed out/i);
  });

  it('retries a network error (connection dropped)', async () => {
    const server = await fake((n) => (n === 1 ? { kind: 'destroy' } : text('ok')));
    const done = await chat(server.baseUrl, { max_retries: 2 }).complete(HELLO, 't');
    expect(done.content).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });
});

describe('API keys', () => {
  it('a non-loopback base URL needs the key variable, named in the ConfigError', () => {
    // never contacted: the constructor fails (or succeeds) without any request
    const remote = 'https://llm.example.invalid/v1';
    expect(() => chat(remote)).toThrow(ConfigError);
    expect(() => chat(remote)).toThrow(/OPENAI_API_KEY/);
    expect(() => chat(remote, { api_key_env: 'MY_LLM_KEY' })).toThrow(/MY_LLM_KEY/);
    expect(() => chat(remote, { api_key_env: 'MY_LLM_KEY' }, { env: { MY_LLM_KEY: '' } })).toThrow(
      /MY_LLM_KEY/,
    );
    expect(() => chat(remote, { api_key_env: 'MY_LLM_KEY' }, { env: { MY_LLM_KEY: 'k' } })).not.toThrow();
    expect(() => chat(remote, {}, { env: { OPENAI_API_KEY: 'k' } })).not.toThrow();
  });

  it('a loopback base URL needs none', async () => {
    const server = await fake(() => text('ok'));
    expect((await chat(server.baseUrl).complete(HELLO, 't')).content).toBe('ok');
    expect(() => chat('http://localhost:9/v1')).not.toThrow();
    expect(() => chat('http://[::1]:9/v1')).not.toThrow();
  });

  it('isLoopback: 127.0.0.0/8, localhost and ::1 only', () => {
    for (const url of [
      'http://127.0.0.1:8000/v1',
      'http://127.5.6.7/v1',
      'http://localhost/v1',
      'http://[::1]:1/v1',
    ])
      expect(isLoopback(url), url).toBe(true);
    for (const url of [
      'https://api.openai.com/v1',
      'http://128.0.0.1/v1',
      'http://localhost.example.invalid/v1',
      'http://127.0.0.1.example.invalid/v1',
      'http://0.0.0.0:8000/v1',
      'http://10.0.0.1/v1',
    ])
      expect(isLoopback(url), url).toBe(false);
  });

  it('sends the key from api_key_env (and OPENAI_API_KEY by default) as a bearer token', async () => {
    const server = await fake(() => text('ok'));
    await chat(
      server.baseUrl,
      { api_key_env: 'COVE_TEST_KEY' },
      { env: { COVE_TEST_KEY: 'sk-test-123' } },
    ).complete(HELLO, 't');
    await chat(
      server.baseUrl,
      {},
      { env: { OPENAI_API_KEY: 'sk-default-456', COVE_TEST_KEY: 'x' } },
    ).complete(HELLO, 't');
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer sk-test-123',
      'Bearer sk-default-456',
    ]);
  });
});

describe('per-endpoint caps', () => {
  it('max_concurrency 2: never more than 2 requests in flight on the server', async () => {
    const server = await fake(() => hang(120, text('ok')));
    const model = chat(server.baseUrl, { max_concurrency: 2 });
    const done = await Promise.all(Array.from({ length: 7 }, (_, i) => model.complete(HELLO, `t${i}`)));
    expect(done.every((d) => d.content === 'ok')).toBe(true);
    expect(server.requests).toHaveLength(7);
    expect(server.maxInFlight()).toBe(2);
  });

  it('roles on the same endpoint share its queue (the caps of the first role)', async () => {
    const server = await fake(() => hang(80, text('ok')));
    const options = modelOptions();
    const agent = new ChatModel('agent', roleConfig(server.baseUrl, { max_concurrency: 1 }), options);
    const user = new ChatModel('user', roleConfig(server.baseUrl, { max_concurrency: 8 }), options);
    await Promise.all(
      [0, 1, 2].flatMap((i) => [agent.complete(HELLO, `a${i}`), user.complete(HELLO, `u${i}`)]),
    );
    expect(server.requests).toHaveLength(6);
    expect(server.maxInFlight()).toBe(1);
  });

  it('requests_per_minute 3: the 4th request is held back (still pending after 1 s)', async () => {
    const server = await fake(() => text('ok'));
    const endpoints = new EndpointPool();
    const config = roleConfig(server.baseUrl, { requests_per_minute: 3 });
    const model = new ChatModel('agent', config, modelOptions({ endpoints }));
    const settled: number[] = [];
    const calls = [0, 1, 2, 3].map((i) =>
      model.complete(HELLO, `t${i}`).then(
        () => settled.push(i),
        () => settled.push(-1),
      ),
    );
    await Promise.all(calls.slice(0, 3));
    await new Promise((r) => setTimeout(r, 1000));
    expect(server.requests).toHaveLength(3);
    expect(settled.sort()).toEqual([0, 1, 2]);
    // the same endpoint (base URL, no key): its queue holds the 4th call, rate-limited
    const { queue } = endpoints.get(config, 'cove-no-key');
    expect(queue.isRateLimited).toBe(true);
    expect(queue.size).toBe(1);
    expect(queue.pending).toBe(0);
    queue.clear(); // drops the held call (its promise never settles); nothing else is left running
    queue.pause();
  });
});

describe('usage and cost', () => {
  it('callCost uses the price table per million tokens (0 for unknown models)', () => {
    const prices = { mock: { prompt_per_mtok: 2.5, completion_per_mtok: 10 } };
    // 1000 × 2.5 / 1e6 + 200 × 10 / 1e6 = 0.0025 + 0.002
    expect(callCost(prices, 'mock', 1000, 200)).toBeCloseTo(0.0045, 12);
    expect(callCost(prices, 'openai:mock', 1000, 200)).toBeCloseTo(0.0045, 12);
    // 2,000,000 × 2.5 / 1e6 = 5; 500,000 × 10 / 1e6 = 5
    expect(callCost(prices, 'mock', 2_000_000, 500_000)).toBeCloseTo(10, 12);
    expect(callCost(prices, 'other', 1000, 200)).toBe(0);
  });

  it('each completion reports its tokens and cost and adds them to the meter', async () => {
    const server = await fake((n) => ({
      kind: 'message',
      message: { content: `reply ${n}` },
      usage:
        n === 1
          ? { prompt_tokens: 1234, completion_tokens: 56 }
          : { prompt_tokens: 4000, completion_tokens: 1000 },
    }));
    const meter = new UsageMeter();
    const prices = { 'fake-model': { prompt_per_mtok: 2.5, completion_per_mtok: 10 } };
    const model = chat(server.baseUrl, {}, { meter, prices });
    const a = await model.complete(HELLO, 't');
    // 1234 × 2.5 / 1e6 + 56 × 10 / 1e6 = 0.003085 + 0.00056
    expect(a.usage).toEqual({
      prompt_tokens: 1234,
      completion_tokens: 56,
      cost_usd: expect.closeTo(0.003645, 12),
      retries: 0,
    });
    const b = await model.complete(HELLO, 't');
    // 4000 × 2.5 / 1e6 + 1000 × 10 / 1e6 = 0.01 + 0.01
    expect(b.usage.cost_usd).toBeCloseTo(0.02, 12);
    expect(meter.calls).toBe(2);
    expect(meter.promptTokens).toBe(5234);
    expect(meter.completionTokens).toBe(1056);
    expect(meter.costUsd).toBeCloseTo(0.023645, 12);
  });

  it('UsageMeter: a token budget or a cost budget is exhausted once reached', () => {
    const tokens = new UsageMeter({ max_tokens: 100 });
    expect(tokens.exhausted()).toBe(false);
    tokens.add({ prompt_tokens: 50, completion_tokens: 10, cost_usd: 1, retries: 0 });
    expect(tokens.exhausted()).toBe(false);
    tokens.add({ prompt_tokens: 30, completion_tokens: 10, cost_usd: 1, retries: 0 });
    expect(tokens.exhausted()).toBe(true); // 100 ≥ 100

    const cost = new UsageMeter({ max_cost_usd: 0.05 });
    cost.add({ prompt_tokens: 10_000_000, completion_tokens: 0, cost_usd: 0.049, retries: 0 });
    expect(cost.exhausted()).toBe(false);
    cost.add({ prompt_tokens: 0, completion_tokens: 0, cost_usd: 0.001, retries: 0 });
    expect(cost.exhausted()).toBe(true);

    const none = new UsageMeter();
    none.add({ prompt_tokens: 1e9, completion_tokens: 1e9, cost_usd: 1e6, retries: 0 });
    expect(none.exhausted()).toBe(false);
    expect(none.calls).toBe(1);
  });
});

/** The requests-per-minute limit counts what the endpoint sees: a sliding window, retries included. */
describe('requests_per_minute as the endpoint sees it', () => {
  it('no more than N requests start in any rolling 60 s window (p-queue fixed windows allow 2N−1)', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { queue } = new EndpointPool().get(
      roleConfig('http://127.0.0.1:9/v1', { requests_per_minute: 3 }),
      'k',
    );
    const starts: number[] = [];
    const task = async () => {
      starts.push(Date.now());
    };
    void queue.add(task); // opens a 60 s window
    await vi.advanceTimersByTimeAsync(59_000);
    for (let i = 0; i < 5; i++) void queue.add(task); // 59 s later
    await vi.advanceTimersByTimeAsync(2_000);
    // a sliding window: 2 more at 59 s, the next when the first leaves the window, the rest a minute later
    expect(starts.map((t) => t - 1_000_000)).toEqual([0, 59_000, 59_000, 60_000]);
    const worst = Math.max(...starts.map((t) => starts.filter((s) => s >= t && s < t + 60_000).length));
    queue.clear();
    expect(worst, `start times (ms): ${starts.map((t) => t - 1_000_000).join(', ')}`).toBeLessThanOrEqual(3);
  });

  it('retried attempts count against requests_per_minute', async () => {
    // every call fails twice (fast 500s) before it succeeds
    const server = await fake((n) => (n % 3 === 0 ? text('ok') : status(500)));
    const model = chat(server.baseUrl, { requests_per_minute: 3, max_retries: 2 });
    await model.complete(HELLO, 't1').catch(() => undefined);
    const pending = model.complete(HELLO, 't2').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    const seen = server.requests.length;
    void pending;
    expect(seen, 'HTTP requests the endpoint received within the first minute').toBeLessThanOrEqual(3);
  });
});
