import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { agentContext } from '../src/domains/agent-context.js';
import type { Domain } from '../src/domains/domain.js';
import { sandboxSize } from '../src/domains/domain.js';
import { baseFromValue } from '../src/domains/load-db.js';
import { type RunContext, runTaskEpisode } from '../src/run/episode-runner.js';
import { scriptedRoles } from '../src/run/roles.js';
import { synthesizeTasks } from '../src/tasks/synthesize-tasks.js';
import { round } from './stats.js';

const BIN = fileURLToPath(new URL('../bin/cove.js', import.meta.url));

function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** `cove serve` in its own process; resolves with its URL. */
function startServe(tasksFile: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--tasks', tasksFile, '--max-steps', '1000000'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout
      .setEncoding('utf8')
      .once('data', (line: string) => resolve({ url: line.trim(), stop: () => child.kill('SIGTERM') }));
    child.once('exit', (code) => reject(new Error(`cove serve exited (${code})`)));
  });
}

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const value = (await r.json()) as Record<string, unknown>;
  if (r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(value)}`);
  return value;
}

/**
 * The RL episode service on loopback, `cove serve` in its own process: a tool-call step (`get_order_details`,
 * a different order each time) timed one at a time (p50/p99 in ms) and sustained by 16 clients at once (steps/s);
 * `POST /reward` (a whole oracle conversation replayed and graded) by 8 clients at once (rewards/s).
 */
export async function benchServe(domain: Domain): Promise<Record<string, number>> {
  const sandbox = domain.sandbox;
  const synthesis = domain.synthesis;
  if (sandbox === undefined || synthesis === undefined) throw new Error('domain cannot generate');
  const { base, hashes } = baseFromValue(domain, sandbox.generate(1, sandboxSize(sandbox)), 'sandbox');
  const { tasks } = await synthesizeTasks(
    domain,
    base,
    {
      domain: domain.name,
      seed: 1,
      difficulty: 'mixed',
      fuzz: 2,
      semantics: 'parity',
      db: {
        sandbox: { domain: domain.name, seed: 1, size: sandboxSize(sandbox) },
        canonical_sha256: hashes.canonical_sha256,
      },
      coveVersion: 'bench',
    },
    16,
  );
  const fork = base.fork();
  const orders = (
    fork.sql.db.prepare('SELECT order_id FROM orders ORDER BY order_id LIMIT 200').all() as {
      order_id: string;
    }[]
  ).map((r) => r.order_id);
  fork.close();
  const context: RunContext = {
    run: 'bench',
    domain,
    base,
    dbSha256: hashes.canonical_sha256,
    benchmarkData: false,
    seed: 1,
    settings: { semantics: 'parity', text: 'cove', guidelines: 'scripted' },
    agentContext: agentContext(domain, 'cove'),
    roles: scriptedRoles(domain),
    limits: {},
    coveVersion: 'bench',
  };
  const conversations = await Promise.all(
    tasks.map(async (t) => ({
      id: t.id,
      messages: (await runTaskEpisode(context, { task: t, index: t.cove.index }, 0, 0)).messages,
    })),
  );
  const dir = mkdtempSync(join(tmpdir(), 'cove-bench-serve-'));
  const tasksFile = join(dir, 'tasks.json');
  writeFileSync(tasksFile, JSON.stringify(tasks));
  const serve = await startServe(tasksFile);
  try {
    let n = 0;
    const step = async (episode: string) => {
      const order = orders[n++ % orders.length];
      const args = JSON.stringify({ order_id: order });
      await post(`${serve.url}/episodes/${episode}/step`, {
        message: {
          content: null,
          tool_calls: [{ id: `c${n}`, function: { name: 'get_order_details', arguments: args } }],
        },
      });
    };
    const open = async (i: number) =>
      (await post(`${serve.url}/episodes`, { task_id: tasks[i % tasks.length]?.id, seed: i }))
        .episode_id as string;
    // latency: one client, one step at a time
    const solo = await open(0);
    for (let i = 0; i < 100; i++) await step(solo); // warm-up
    const latencies: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const t = performance.now();
      await step(solo);
      latencies.push(performance.now() - t);
    }
    // throughput: 16 clients, each on its own episode
    const episodes = await Promise.all(Array.from({ length: 16 }, (_, i) => open(i + 1)));
    const perClient = 250;
    const started = performance.now();
    await Promise.all(
      episodes.map(async (e) => {
        for (let i = 0; i < perClient; i++) await step(e);
      }),
    );
    const stepRps = (episodes.length * perClient) / ((performance.now() - started) / 1000);
    // rewards: whole conversations replayed and graded, 8 at once
    const limit = pLimit(8);
    const rewards = 400;
    const rewardStart = performance.now();
    await Promise.all(
      Array.from({ length: rewards }, (_, i) =>
        limit(async () => {
          const c = conversations[i % conversations.length] as (typeof conversations)[number];
          const r = await post(`${serve.url}/reward`, { task_id: c.id, messages: c.messages });
          if (r.reward !== 1) throw new Error(`reward ${r.reward} for ${c.id}`);
        }),
      ),
    );
    const rewardRps = rewards / ((performance.now() - rewardStart) / 1000);
    return {
      serve_step_ms_p50: round(percentile(latencies, 0.5), 3),
      serve_step_ms_p99: round(percentile(latencies, 0.99), 3),
      serve_step_rps: round(stepRps, 1),
      reward_rps: round(rewardRps, 1),
    };
  } finally {
    serve.stop();
    base.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
