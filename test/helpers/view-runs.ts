import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCoveAsync } from './cli.js';
import { mockRoleFlags, startMockLlm } from './llm-mock-process.js';

/** Two runs over the same tasks made by the real CLI: one model-played through a faulty `cove mock-llm`, one oracle. */
export interface ViewRuns {
  readonly root: string;
  readonly tasksFile: string;
  /** Model agent and model user (`cove mock-llm`, a share of faulty answers): some episodes fail. */
  readonly model: string;
  /** Oracle agent and scripted user: every episode passes. */
  readonly oracle: string;
  remove(): void;
}

/** Parsed summary.json of a run. */
export interface RunSummaryFile {
  tasks: number;
  episodes: number;
  sft_trajectories: number;
  termination_reasons: Record<string, number>;
  failures: Record<string, number>;
  yield_by_difficulty: Record<string, { tasks: number; passed: number }>;
  usage: { prompt_tokens: number; completion_tokens: number; retries: number };
}

export function readSummary(dir: string): RunSummaryFile {
  return JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummaryFile;
}

/**
 * Makes `n` tasks with `cove tasks`, then runs them twice with `cove generate`: with the model roles played by a
 * `cove mock-llm` that answers a share of requests with faults (invalid JSON arguments, unknown tools, leaks, …),
 * and (unless `withOracle` is false) with the oracle agent and scripted user.
 * @throws when a command fails.
 */
export async function makeViewRuns(n: number, prefix: string, withOracle = true): Promise<ViewRuns> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const tasksFile = join(root, 'tasks.json');
  const tasks = await runCoveAsync([
    'tasks',
    '--domain',
    'retail',
    '--sandbox-seed',
    '1',
    '--n',
    String(n),
    '--seed',
    '3',
    '--out',
    tasksFile,
  ]);
  if (tasks.status !== 0) throw new Error(`cove tasks failed: ${tasks.stderr}`);
  const mock = await startMockLlm([
    '--tasks',
    tasksFile,
    '--fault-rate',
    '0.12',
    '--faults',
    'invalid_json,unknown_tool,object_args,leak,500',
    '--seed',
    '5',
  ]);
  const model = join(root, 'model');
  const oracle = join(root, 'oracle');
  try {
    const a = await runCoveAsync([
      'generate',
      '--tasks',
      tasksFile,
      ...mockRoleFlags(mock.baseUrl),
      '--out',
      model,
    ]);
    if (a.status !== 0) throw new Error(`cove generate (model) failed: ${a.stderr}`);
  } finally {
    await mock.close();
  }
  if (withOracle) {
    const b = await runCoveAsync(['generate', '--tasks', tasksFile, '--quiet', '--out', oracle]);
    if (b.status !== 0) throw new Error(`cove generate (oracle) failed: ${b.stderr}`);
  }
  return { root, tasksFile, model, oracle, remove: () => rmSync(root, { recursive: true, force: true }) };
}
