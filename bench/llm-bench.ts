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
import { EndpointPool } from '../src/llm/chat-model.js';
import { resolveRoleConfig } from '../src/llm/config.js';
import { UsageMeter } from '../src/llm/usage-meter.js';
import { type RunContext, runTaskEpisode } from '../src/run/episode-runner.js';
import { createRoleFactory } from '../src/run/roles.js';
import { COVE_USER_GUIDELINES } from '../src/sim/user-guidelines.js';
import { synthesizeTasks } from '../src/tasks/synthesize-tasks.js';
import { round } from './stats.js';

const BIN = fileURLToPath(new URL('../bin/cove.js', import.meta.url));

/** Starts `cove mock-llm` in its own process and resolves its base URL. */
function startMock(tasksFile: string, latencyMs: number): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [BIN, 'mock-llm', '--port', '0', '--latency-ms', String(latencyMs), '--tasks', tasksFile],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout
      .setEncoding('utf8')
      .once('data', (line: string) => resolve({ url: line.trim(), stop: () => child.kill('SIGTERM') }));
    child.once('exit', (code) => reject(new Error(`mock-llm exited (${code})`)));
  });
}

/**
 * LLM-bound throughput: LLM agent and LLM user against `cove mock-llm` (its own process) answering after 100 ms,
 * 64 episodes at once. Efficiency = calls/s sustained while all 64 episodes run (until the last one starts)
 * ÷ (64 ÷ 0.1 s); `…_with_tail` counts the whole run, including the drain at the end. Also CPU per call.
 */
export async function benchLlmBound(domain: Domain, tasksCount = 384): Promise<Record<string, number>> {
  const sandbox = domain.sandbox;
  const synthesis = domain.synthesis;
  if (sandbox === undefined || synthesis === undefined) throw new Error('domain cannot generate');
  const { base, hashes } = baseFromValue(domain, sandbox.generate(2, sandboxSize(sandbox)), 'sandbox');
  const { tasks } = await synthesizeTasks(
    domain,
    base,
    {
      domain: domain.name,
      seed: 2,
      difficulty: 'mixed',
      fuzz: 2,
      semantics: 'parity',
      db: {
        sandbox: { domain: domain.name, seed: 2, size: { users: 500, orders: 1000 } },
        canonical_sha256: hashes.canonical_sha256,
      },
      coveVersion: 'bench',
    },
    tasksCount,
  );
  const dir = mkdtempSync(join(tmpdir(), 'cove-bench-'));
  const tasksFile = join(dir, 'tasks.json');
  writeFileSync(tasksFile, JSON.stringify(tasks));
  const latencyMs = 100;
  const concurrency = 64;
  const mock = await startMock(tasksFile, latencyMs);
  try {
    const meter = new UsageMeter();
    const role = (name: 'agent' | 'user') =>
      resolveRoleConfig(name, undefined, {
        model: 'openai:mock',
        base_url: mock.url,
        max_concurrency: concurrency,
      });
    const context = agentContext(domain, 'cove');
    const factory = createRoleFactory(
      domain,
      { agent: role('agent'), user: role('user') },
      {
        agentContext: context,
        userGuidelines: COVE_USER_GUIDELINES,
        models: { env: {}, prices: {}, meter, endpoints: new EndpointPool() },
      },
    );
    const run: RunContext = {
      run: 'bench',
      domain,
      base,
      dbSha256: hashes.canonical_sha256,
      benchmarkData: false,
      seed: 2,
      settings: { semantics: 'parity', text: 'cove', guidelines: 'cove-1' },
      agentContext: context,
      roles: factory,
      limits: {},
      coveVersion: 'bench',
    };
    base.warm(concurrency);
    const limit = pLimit(concurrency);
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    let passed = 0;
    let started = 0;
    // sustained window: from the start until the last episode starts (all 64 slots busy the whole time)
    let sustained = { calls: 0, seconds: 0 };
    await Promise.all(
      tasks.map((task) =>
        limit(async () => {
          if (++started === tasks.length)
            sustained = { calls: meter.calls, seconds: (performance.now() - start) / 1000 };
          const record = await runTaskEpisode(run, { task, index: task.cove.index }, 0, 0);
          if (record.verification?.score === 1) passed++;
        }),
      ),
    );
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    const serverStats = (await (await fetch(`${mock.url.replace(/\/v1$/, '')}/stats`)).json()) as {
      cpu_ms: number;
      requests: number;
    };
    const ideal = concurrency / (latencyMs / 1000);
    const sustainedRate = sustained.calls / sustained.seconds;
    return {
      llm_bound_calls: meter.calls,
      llm_bound_calls_per_s: round(sustainedRate, 1),
      llm_bound_efficiency: round(sustainedRate / ideal, 3),
      llm_bound_efficiency_with_tail: round(meter.calls / seconds / ideal, 3),
      llm_cpu_ms_per_call: round((cpu.user + cpu.system) / 1000 / meter.calls, 3),
      mock_llm_cpu_ms_per_call: round(serverStats.cpu_ms / serverStats.requests, 3),
      llm_bound_episodes_passed: passed,
      llm_bound_episodes: tasks.length,
    };
  } finally {
    mock.stop();
    base.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
