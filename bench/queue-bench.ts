import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { queueName } from '../src/queue/run-definition.js';
import { round } from './stats.js';

const BIN = fileURLToPath(new URL('../bin/cove.js', import.meta.url));
const REDIS_URL = process.env.COVE_BENCH_REDIS ?? 'redis://127.0.0.1:6379';

function cove(args: readonly string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stderr: r.stderr };
}

function startProcess(
  args: readonly string[],
  ready: string,
): Promise<{ child: ChildProcess; first: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString('utf8');
      if (out.includes(ready)) resolve({ child, first: out.trim().split('\n')[0] ?? '' });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`cove ${args[0]} exited (${code}): ${out}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Episodes per second of a finished run's jobs: count ÷ (last finish − first start), from BullMQ's timestamps. */
async function jobRate(
  prefix: string,
  runId: string,
): Promise<{ episodes: number; perS: number; spanS: number }> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(queueName(runId), { connection: redis, prefix });
  try {
    const jobs = (await queue.getJobs(['completed'], 0, -1)).filter((j) => j !== undefined);
    const startMs = Math.min(...jobs.map((j) => j.processedOn ?? Infinity));
    const endMs = Math.max(...jobs.map((j) => j.finishedOn ?? 0));
    const spanS = (endMs - startMs) / 1000;
    return { episodes: jobs.length, perS: jobs.length / spanS, spanS };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 on Linux). */
function clockTicks(): number {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(r.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
}

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
function processCpuMs(pid: number | undefined, ticks: number): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // the fields after the command name: state is field 3, utime and stime are fields 14 and 15
    const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
  } catch {
    return undefined;
  }
}

async function dropPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
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

/** Mean `timing_ms` (the episode itself, grading included) of a run's records. */
function meanTiming(file: string): number {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return lines.reduce((sum, l) => sum + (JSON.parse(l) as { timing_ms: number }).timing_ms, 0) / lines.length;
}

/** Runs one distributed `cove generate` with `workers` worker processes; returns the jobs' episode rate. */
async function queueRun(
  dir: string,
  name: string,
  generateArgs: readonly string[],
  workers: number,
  perWorker: number,
): Promise<{ episodes: number; perS: number; spanS: number; workerCpuMs?: number }> {
  const prefix = `bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const started: ChildProcess[] = [];
  try {
    for (let i = 0; i < workers; i++) {
      const w = await startProcess(
        ['worker', '--queue', REDIS_URL, '--queue-prefix', prefix, '--concurrency', String(perWorker)],
        'ready on',
      );
      started.push(w.child);
    }
    const ticks = clockTicks();
    const cpuBefore = started.map((c) => processCpuMs(c.pid, ticks));
    const r = cove([
      'generate',
      ...generateArgs,
      '--out',
      join(dir, name),
      '--quiet',
      '--queue',
      REDIS_URL,
      '--queue-prefix',
      prefix,
      '--concurrency',
      '1024',
    ]);
    if (r.status !== 0) throw new Error(`distributed generate failed: ${r.stderr}`);
    const runId = /run (\S+) registered/.exec(r.stderr)?.[1];
    if (runId === undefined) throw new Error(`no run id in: ${r.stderr}`);
    // the workers' CPU over the run (their start-up left out), while they are still alive to be read
    const cpuAfter = started.map((c) => processCpuMs(c.pid, ticks));
    const spent = cpuAfter.map((after, i) => {
      const before = cpuBefore[i];
      return after === undefined || before === undefined ? undefined : after - before;
    });
    const rate = await jobRate(prefix, runId);
    if (spent.some((ms) => ms === undefined)) return rate;
    return { ...rate, workerCpuMs: spent.reduce((a: number, b) => a + (b as number), 0) };
  } finally {
    for (const c of started) await stop(c);
    await dropPrefix(prefix);
  }
}

/**
 * Distributed generation (docs/distributed.md) on the machine's Redis, workers as `cove worker` processes (the
 * built dist/):
 * - LLM-bound episodes/s against `cove mock-llm` answering after 100 ms, with 1, 2 and 4 workers at 16 episodes
 *   each, from the jobs' start and finish times; efficiency = rate ÷ (workers × the 1-worker rate);
 * - the queue's overhead per episode: scripted episodes one at a time through one worker; the jobs' span per
 *   episode minus the episode's own time (`timing_ms`: running and grading it, what one process spends too);
 *   and the worker's CPU time per episode over that run (Linux /proc; left out elsewhere).
 */
export async function benchQueue(): Promise<Record<string, number>> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
  } catch {
    process.stderr.write(`bench: no Redis at ${REDIS_URL}: the queue_* keys are left out\n`);
    return {};
  } finally {
    probe.disconnect();
  }
  const dir = mkdtempSync(join(tmpdir(), 'cove-bench-queue-'));
  try {
    // the tasks: made by a single-process scripted run, then played by model roles against the mock
    const tasksCount = 96;
    const seedRun = cove([
      'generate',
      '--n',
      String(tasksCount),
      '--seed',
      '2',
      '--out',
      join(dir, 'tasks'),
      '--quiet',
    ]);
    if (seedRun.status !== 0) throw new Error(`generate failed: ${seedRun.stderr}`);
    const tasksFile = join(dir, 'tasks', 'tasks.json');
    const mock = await startProcess(
      ['mock-llm', '--port', '0', '--latency-ms', '100', '--tasks', tasksFile],
      'http',
    );
    const results: Record<string, number> = {};
    try {
      const url = mock.first;
      const llmArgs = [
        '--tasks',
        tasksFile,
        '--agent',
        'openai:mock',
        '--agent-base-url',
        url,
        '--user',
        'openai:mock',
        '--user-base-url',
        url,
      ];
      const perWorker = 16;
      let one = 0;
      for (const workers of [1, 2, 4]) {
        const r = await queueRun(dir, `llm-w${workers}`, llmArgs, workers, perWorker);
        if (workers === 1) one = r.perS;
        results[`queue_llm_episodes_per_s_w${workers}`] = round(r.perS, 2);
        results[`queue_llm_efficiency_w${workers}`] = round(r.perS / (workers * one), 3);
      }
      results.queue_llm_episodes = tasksCount;
      results.queue_llm_concurrency_per_worker = perWorker;
    } finally {
      await stop(mock.child);
    }
    // overhead: scripted episodes one at a time through one worker; the time between episodes is the queue's
    const n = 200;
    const queued = await queueRun(dir, 'overhead', ['--n', String(n), '--seed', '3'], 1, 1);
    const episodeMs = meanTiming(join(dir, 'overhead', 'trajectories.jsonl'));
    const queueMs = (queued.spanS * 1000) / queued.episodes;
    results.queue_scripted_episode_ms = round(episodeMs, 3);
    results.queue_ms_per_episode = round(queueMs, 3);
    results.queue_overhead_ms_per_episode = round(queueMs - episodeMs, 3);
    // CPU, less noisy than wall time on a loaded machine: the worker's per episode, the episode itself included
    if (queued.workerCpuMs !== undefined)
      results.queue_worker_cpu_ms_per_episode = round(queued.workerCpuMs / queued.episodes, 3);
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
