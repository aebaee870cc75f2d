import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { runCove } from './cli.js';
import { pgQuery, startWorker, storeUrl, type WorkerProcess } from './dist-services.js';

const BIN = fileURLToPath(new URL('../../bin/cove.js', import.meta.url));

/** What a fault-injection run does: workers SIGKILLed and restarted, the coordinator killed once and restarted. */
export interface ChaosPlan {
  readonly dir: string;
  readonly n: number;
  readonly redisUrl: string;
  readonly prefix: string;
  readonly schema: string;
  readonly workers: number;
  /** Workers SIGKILLed (each at a random point of the run, then restarted). */
  readonly workerKills: number;
  /** Kill the coordinator once (SIGKILL) and start it again with the same command. */
  readonly killCoordinator: boolean;
  readonly seed: number;
  /** Told when something happens (for the test log). */
  readonly note?: (message: string) => void;
  /** Called once the run is under way (e.g. to restart Redis); awaited. */
  readonly midRun?: () => Promise<void>;
}

async function storedCount(schema: string): Promise<number> {
  try {
    const rows = await pgQuery<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.cove_trajectories`);
    return Number(rows[0]?.n ?? 0);
  } catch {
    return 0; // the schema is made by the coordinator's first connection
  }
}

function coordinator(
  plan: ChaosPlan,
  out: string,
): { child: ChildProcess; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'generate',
      '--n',
      String(plan.n),
      '--out',
      out,
      '--quiet',
      '--queue',
      plan.redisUrl,
      '--queue-prefix',
      plan.prefix,
      '--store',
      storeUrl(plan.schema),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr })),
  );
  return { child, done };
}

/**
 * Runs `cove generate --queue --store` with workers that are SIGKILLed and restarted at random points (drawn from
 * `seed`), kills the coordinator once and restarts it, then checks the end state: every episode stored exactly
 * once, no torn line, and sft.jsonl byte-identical to the single-process run of the same command.
 */
export async function chaosRun(plan: ChaosPlan): Promise<void> {
  const rng = new Rng(plan.seed);
  const single = runCove(['generate', '--n', String(plan.n), '--out', join(plan.dir, 'single'), '--quiet'], {
    timeoutMs: 1_800_000,
  });
  expect(single.status, single.stderr).toBe(0);
  const workerArgs = [
    '--queue',
    plan.redisUrl,
    '--queue-prefix',
    plan.prefix,
    '--concurrency',
    '4',
    '--stall-ms',
    '2000',
  ];
  const workers: WorkerProcess[] = [];
  for (let i = 0; i < plan.workers; i++) workers.push(await startWorker(workerArgs));
  // points of the run (stored episodes) at which to strike
  type Strike = { at: number; what: 'worker' | 'coordinator' | 'mid-run' };
  const strikes: Strike[] = Array.from({ length: plan.workerKills }, () => ({
    at: Math.floor(plan.n * (0.1 + 0.7 * rng.float())),
    what: 'worker' as const,
  }));
  if (plan.killCoordinator) strikes.push({ at: Math.floor(plan.n * 0.45), what: 'coordinator' });
  if (plan.midRun !== undefined) strikes.push({ at: Math.floor(plan.n * 0.3), what: 'mid-run' });
  strikes.sort((a, b) => a.at - b.at);
  const out = join(plan.dir, 'distributed');
  let current = coordinator(plan, out);
  try {
    for (const strike of strikes) {
      for (;;) {
        const stored = await storedCount(plan.schema);
        if (stored >= strike.at) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      if (strike.what === 'mid-run') {
        await plan.midRun?.();
        plan.note?.(`mid-run step done at ${strike.at} stored episodes`);
      } else if (strike.what === 'worker') {
        const i = Math.floor(rng.float() * workers.length);
        const victim = workers[i] as WorkerProcess;
        victim.child.kill('SIGKILL');
        await victim.exited;
        plan.note?.(`killed worker ${i} at ${strike.at} stored episodes`);
        workers[i] = await startWorker(workerArgs);
      } else {
        current.child.kill('SIGKILL');
        await current.done;
        plan.note?.(`killed the coordinator at ${strike.at} stored episodes`);
        current = coordinator(plan, out);
      }
    }
    const end = await current.done;
    expect(end.code, end.stderr).toBe(0);
    const stored = await storedCount(plan.schema);
    // every strike happened before the end of the run
    expect(strikes.every((s) => s.at < plan.n)).toBe(true);
    plan.note?.(`run ended with ${stored} stored episodes`);
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    if (current.child.exitCode === null) current.child.kill('SIGKILL');
  }
  const rows = await pgQuery<{ n: string; ids: string }>(
    `SELECT count(*) AS n, count(DISTINCT trajectory_id) AS ids FROM ${plan.schema}.cove_trajectories`,
  );
  expect(rows[0]).toEqual({ n: String(plan.n), ids: String(plan.n) });
  const text = readFileSync(join(out, 'trajectories.jsonl'), 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const ids = text
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { id: string }).id);
  expect(new Set(ids).size).toBe(plan.n);
  expect(ids.length).toBe(plan.n);
  expect(
    readFileSync(join(out, 'sft.jsonl')).equals(readFileSync(join(plan.dir, 'single', 'sft.jsonl'))),
  ).toBe(true);
}
