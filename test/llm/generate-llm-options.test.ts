import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { type CliResult, runCoveAsync } from '../helpers/cli.js';
import { type MockLlmProcess, mockRoleFlags, spawnCove, startMockLlm } from '../helpers/llm-mock-process.js';
import { countBy } from '../helpers/llm-run-check.js';
import { readJson, readJsonl, readRecords } from '../helpers/run-files.js';

// `cove generate` options for model roles, against `cove mock-llm` child processes on 127.0.0.1 (no faults).
// All runs start together in beforeAll; each test awaits its own (hence the long timeouts on a busy machine).
vi.setConfig({ testTimeout: 150_000 });

interface Summary {
  episodes: number;
  sft_trajectories: number;
  failures: Record<string, number>;
  usage: { prompt_tokens: number; completion_tokens: number; cost_usd: number };
}

const root = mkdtempSync(join(tmpdir(), 'cove-llm-options-'));
const tasksFile = join(root, 'tasks.json');
const servers: MockLlmProcess[] = [];
const dir = (name: string) => join(root, name);
const file = (name: string, value: unknown) => {
  const path = join(root, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

const roles = mockRoleFlags;

/** What the requests-per-minute run showed on the server. */
interface RpmObservation {
  readonly firstSeenAfterS: number;
  readonly requestsThen: number;
  readonly requestsAfterWait: number;
  readonly stillRunning: boolean;
  readonly result: CliResult;
}

let pending: Record<
  | 'budgetTokens'
  | 'budgetUsd'
  | 'budgetTight'
  | 'targetSft'
  | 'targetGrow'
  | 'attemptsFail'
  | 'attemptsPass'
  | 'badType'
  | 'badKey'
  | 'rolesFromConfig'
  | 'mockBadFault'
  | 'mockNoTasks',
  Promise<CliResult>
>;
let rpm: Promise<RpmObservation>;
const RPM = 4;

async function observeRpm(server: MockLlmProcess, config: string): Promise<RpmObservation> {
  const run = spawnCove([
    'generate',
    '--tasks',
    tasksFile,
    '--n',
    '1',
    '--config',
    config,
    '--out',
    dir('rpm'),
    ...roles(server.baseUrl),
  ]);
  try {
    const started = performance.now();
    let requests = 0;
    while (requests < RPM && performance.now() - started < 120_000 && run.running()) {
      await new Promise((r) => setTimeout(r, 100));
      requests = (await server.stats()).requests;
    }
    const firstSeenAfterS = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 1500));
    const requestsAfterWait = (await server.stats()).requests;
    const stillRunning = run.running();
    await run.kill();
    return {
      firstSeenAfterS,
      requestsThen: requests,
      requestsAfterWait,
      stillRunning,
      result: await run.result,
    };
  } finally {
    await run.kill();
  }
}

const BUDGET_USD = 4;

beforeAll(async () => {
  // the tasks `cove generate --sandbox-seed 1` synthesizes (same seed and defaults), enough for --target-sft
  const made = await runCoveAsync([
    'tasks',
    '--domain',
    'retail',
    '--sandbox-seed',
    '1',
    '--n',
    '150',
    '--out',
    tasksFile,
  ]);
  if (made.status !== 0) throw new Error(`cove tasks failed: ${made.stderr}`);
  // a script whose agent only ever talks (never looks anything up or writes): every episode fails
  const script = file('script.json', {
    agent: [{ content: 'I am sorry, I cannot help with that.' }],
    user: [
      { content: 'Hi, I need to change something on my order.' },
      { content: 'Okay, thanks. ###STOP###' },
    ],
  });
  const [oracle, oracleRpm, scripted, leaky] = await Promise.all([
    startMockLlm(['--tasks', tasksFile]),
    startMockLlm(['--tasks', tasksFile]),
    startMockLlm(['--mode', 'script', '--script', script]),
    // a third or more of the episodes leak an id (and fail), so --target-sft has to add tasks
    startMockLlm(['--tasks', tasksFile, '--faults', 'leak', '--fault-rate', '0.15', '--seed', '3']),
  ]);
  servers.push(oracle, oracleRpm, scripted, leaky);
  // Runs that share a server play disjoint tasks: `cove mock-llm` mixes up concurrent conversations of one task
  // (see mock-llm-e2e.test.ts, "oracle sessions"). --target-sft on `oracle` synthesizes tasks 0, 1, …
  const all = JSON.parse(readFileSync(tasksFile, 'utf8')) as CoveTask[];
  const slice = (from: number, to: number) => file(`tasks-${from}-${to}.json`, all.slice(from, to));
  const withTasks = (from: number, to: number, out: string, extra: string[], url = oracle.baseUrl) => [
    'generate',
    '--tasks',
    slice(from, to),
    '--out',
    dir(out),
    ...roles(url),
    ...extra,
  ];
  // `--target-sft 15` from 5 synthesized tasks
  const targetRun = (out: string, url: string) => [
    'generate',
    '--sandbox-seed',
    '1',
    '--n',
    '5',
    '--target-sft',
    '15',
    '--out',
    dir(out),
    ...roles(url),
  ];
  const costBudget = file('budget-usd.json', {
    prices: { mock: { prompt_per_mtok: 2.5, completion_per_mtok: 10 } },
    budget: { max_cost_usd: 0.001 },
  });
  const tightBudget = file('budget-tight.json', {
    prices: { mock: { prompt_per_mtok: 2.5, completion_per_mtok: 10 } },
    budget: { max_cost_usd: BUDGET_USD },
  });
  const badType = file('bad-type.json', { roles: { agent: { temperature: 'hot' } } });
  const badKey = file('bad-key.json', { roles: { user: { tempurature: 0.5 } } });
  // roles from the file alone; the agent's base URL there is a closed loopback port, overridden by the flag
  const rolesConfig = file('roles.json', {
    roles: {
      agent: { model: 'openai:mock', base_url: 'http://127.0.0.1:9/v1', max_retries: 0 },
      user: { model: 'openai:mock', base_url: oracle.baseUrl, temperature: 0.7, seed: 3 },
    },
  });
  const rpmConfig = file('rpm.json', {
    roles: { agent: { requests_per_minute: RPM }, user: { requests_per_minute: RPM } },
  });
  pending = {
    budgetTokens: runCoveAsync(
      withTasks(40, 50, 'budget-tokens', ['--concurrency', '2', '--budget-tokens', '1000']),
    ),
    budgetUsd: runCoveAsync(withTasks(50, 60, 'budget-usd', ['--concurrency', '2', '--config', costBudget])),
    budgetTight: runCoveAsync(
      withTasks(70, 150, 'budget-tight', ['--concurrency', '64', '--config', tightBudget]),
    ),
    targetSft: runCoveAsync(targetRun('target', oracle.baseUrl)),
    targetGrow: runCoveAsync(targetRun('target-grow', leaky.baseUrl)),
    attemptsFail: runCoveAsync(withTasks(0, 3, 'attempts-fail', ['--attempts', '3'], scripted.baseUrl)),
    attemptsPass: runCoveAsync(withTasks(60, 63, 'attempts-pass', ['--attempts', '3'])),
    badType: runCoveAsync(withTasks(0, 2, 'bad-type', ['--config', badType])),
    badKey: runCoveAsync(withTasks(0, 2, 'bad-key', ['--config', badKey])),
    // both fail before listening on anything
    mockBadFault: runCoveAsync(['mock-llm', '--port', '0', '--tasks', tasksFile, '--faults', '429,bogus']),
    mockNoTasks: runCoveAsync(['mock-llm', '--port', '0']),
    rolesFromConfig: runCoveAsync([
      'generate',
      '--tasks',
      slice(63, 65),
      '--config',
      rolesConfig,
      '--agent-base-url',
      oracle.baseUrl,
      '--out',
      dir('roles-from-config'),
      '--quiet',
    ]),
  };
  rpm = observeRpm(oracleRpm, rpmConfig);
}, 180_000);

afterAll(async () => {
  await Promise.allSettled([...Object.values(pending ?? {}), rpm]);
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});

const ok = (r: CliResult) => {
  expect(r.stderr).not.toMatch(/^cove: /m);
  expect(r.status).toBe(0);
};

describe('budget', () => {
  it('--budget-tokens: the run stops starting episodes once the budget is spent (exit 0)', async () => {
    const r = await pending.budgetTokens;
    ok(r);
    expect(r.stderr).toMatch(/budget reached/);
    const records = readRecords(dir('budget-tokens'));
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThan(10);
    const summary = readJson<Summary>(join(dir('budget-tokens'), 'summary.json'));
    expect(summary.episodes).toBe(records.length);
    expect(summary.usage.prompt_tokens + summary.usage.completion_tokens).toBeGreaterThanOrEqual(1000);
  });

  it('a cost budget from --config (with its price table) does the same', async () => {
    const r = await pending.budgetUsd;
    ok(r);
    expect(r.stderr).toMatch(/budget reached/);
    const records = readRecords(dir('budget-usd'));
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThan(10);
    expect(readJson<Summary>(join(dir('budget-usd'), 'summary.json')).usage.cost_usd).toBeGreaterThanOrEqual(
      0.001,
    );
  });
});

describe('a budget at --concurrency 64', () => {
  it('stops close to the budget instead of a whole batch of 64 episodes past it', async () => {
    const r = await pending.budgetTight;
    ok(r);
    expect(r.stderr).toMatch(/budget reached/);
    const summary = readJson<Summary>(join(dir('budget-tight'), 'summary.json'));
    process.stdout.write(
      `[llm options] budget USD ${BUDGET_USD}: ${summary.episodes} episodes, spent USD ${summary.usage.cost_usd}\n`,
    );
    // an episode here costs about USD 0.1–0.5: 64 started at once would spend several times the budget
    expect(summary.usage.cost_usd).toBeGreaterThanOrEqual(BUDGET_USD);
    expect(summary.usage.cost_usd).toBeLessThanOrEqual(BUDGET_USD * 1.35);
    expect(summary.episodes).toBeLessThan(64);
  });
});

describe('--target-sft and --attempts', () => {
  it('--target-sft 15 --n 5 keeps adding tasks until 15 trajectories pass', async () => {
    const r = await pending.targetSft;
    ok(r);
    expect(readJsonl(join(dir('target'), 'sft.jsonl')).length).toBeGreaterThanOrEqual(15);
    expect(readJson<CoveTask[]>(join(dir('target'), 'tasks.json')).length).toBeGreaterThan(5);
    expect(readJson<Summary>(join(dir('target'), 'summary.json')).sft_trajectories).toBeGreaterThanOrEqual(
      15,
    );
  });

  it('--target-sft 15 with failing episodes: adds tasks beyond the first 15 until 15 pass', async () => {
    const r = await pending.targetGrow;
    ok(r);
    const records = readRecords(dir('target-grow'));
    const summary = readJson<Summary>(join(dir('target-grow'), 'summary.json'));
    process.stdout.write(
      `[llm options] --target-sft 15 with leaks: ${records.length} episodes, ${summary.sft_trajectories} passed\n`,
    );
    expect(records.some((x) => x.failure === 'leak')).toBe(true);
    expect(records.length).toBeGreaterThan(15);
    // every record is of a task in tasks.json, once; tasks.json may hold a few more: episodes stop being started
    // as soon as the target is reached, and a resume would run those
    const tasks = readJson<CoveTask[]>(join(dir('target-grow'), 'tasks.json'));
    expect(new Set(records.map((x) => x.task_index)).size).toBe(records.length);
    expect(records.every((x) => x.task_index < tasks.length)).toBe(true);
    expect(tasks.length - records.length).toBeLessThan(64); // at most the episodes under way (--concurrency 64)
    expect(summary.sft_trajectories).toBeGreaterThanOrEqual(15);
    expect(readJsonl(join(dir('target-grow'), 'sft.jsonl'))).toHaveLength(summary.sft_trajectories);
  });

  it('--attempts 3 with an agent that always fails: 3 episodes per task, each with a failure', async () => {
    const r = await pending.attemptsFail;
    ok(r);
    const records = readRecords(dir('attempts-fail'));
    expect(records).toHaveLength(9);
    const byTask = new Map<string, number[]>();
    for (const rec of records) byTask.set(rec.task_id, [...(byTask.get(rec.task_id) ?? []), rec.attempt]);
    expect(byTask.size).toBe(3);
    for (const attempts of byTask.values()) expect(attempts.sort()).toEqual([0, 1, 2]);
    expect(new Set(records.map((x) => x.id)).size).toBe(9);
    for (const rec of records) {
      expect(rec.failure, rec.id).toBeDefined();
      expect(rec.termination_reason).toBe('user_stop');
    }
    const summary = readJson<Summary>(join(dir('attempts-fail'), 'summary.json'));
    expect(summary.failures).toEqual(countBy(records, 'failure'));
    expect(Object.values(summary.failures).reduce((a, b) => a + b, 0)).toBe(9);
    expect(summary.sft_trajectories).toBe(0);
  });

  it('--attempts 3 with a competent agent stops at the first episode that passes', async () => {
    const r = await pending.attemptsPass;
    ok(r);
    const records = readRecords(dir('attempts-pass'));
    expect(records.map((x) => x.attempt)).toEqual([0, 0, 0]);
    expect(records.every((x) => x.failure === undefined)).toBe(true);
  });
});

describe('--config validation', () => {
  it('a field of the wrong type: exit 2 naming the file and the field', async () => {
    const r = await pending.badType;
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(join(root, 'bad-type.json'));
    expect(r.stderr).toContain('$.roles.agent.temperature');
  });

  it('an unknown field: exit 2 naming the file and the field', async () => {
    const r = await pending.badKey;
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(join(root, 'bad-key.json'));
    expect(r.stderr).toContain('$.roles.user');
    expect(r.stderr).toContain('tempurature');
  });
});

describe('cove mock-llm flags', () => {
  it('an unknown fault name or oracle mode without --tasks: exit 2 with the reason', async () => {
    const bad = await pending.mockBadFault;
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown fault 'bogus'/);
    expect(bad.stdout).toBe('');
    const noTasks = await pending.mockNoTasks;
    expect(noTasks.status).toBe(2);
    expect(noTasks.stderr).toMatch(/--tasks/);
  });
});

describe('roles from --config', () => {
  it('a role given only in the file is used, and flags win over the file', async () => {
    const r = await pending.rolesFromConfig;
    ok(r);
    const records = readRecords(dir('roles-from-config'));
    expect(records).toHaveLength(2);
    for (const rec of records) {
      expect(rec).toMatchObject({ agent: 'openai:mock', user: 'openai:mock' });
      expect(rec.failure, `${rec.termination_reason}: ${rec.termination_detail}`).toBeUndefined();
    }
  });
});

describe('requests_per_minute from --config', () => {
  it(`holds the run at ${RPM} requests on the endpoint in its first minute`, async () => {
    const o = await rpm;
    process.stdout.write(
      `[llm options] rpm run: ${o.requestsThen} requests after ${o.firstSeenAfterS.toFixed(1)} s, ` +
        `${o.requestsAfterWait} 1.5 s later\n`,
    );
    expect(o.requestsThen).toBe(RPM);
    // an episode takes more than 4 model calls: the run is waiting for the next minute, not finished
    expect(o.requestsAfterWait).toBe(RPM);
    expect(o.stillRunning, o.result.stderr).toBe(true);
  });
});
