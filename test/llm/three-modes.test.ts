import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparedRun } from '../../src/run/compare-runs.js';
import { runCove, runCoveAsync } from '../helpers/cli.js';
import { type MockLlmProcess, startMockLlm } from '../helpers/llm-mock-process.js';
import { readRecords } from '../helpers/run-files.js';

// The recipe of docs/modes.md at small scale: the three modes of the second seed paper's ablation on the same
// tasks, every role played over HTTP by `cove mock-llm` (oracle mode, so all three reach the same conversations),
// then `cove runs compare` puts them side by side.

const N = 3;
const root = mkdtempSync(join(tmpdir(), 'cove-three-modes-'));
const tasksFile = join(root, 'tasks.json');
const otherTasks = join(root, 'other-tasks.json');
const dirs = {
  task: join(root, 'task-oriented'),
  user: join(root, 'user-oriented'),
  exec: join(root, 'user-oriented-exec'),
  other: join(root, 'other'),
};
const servers: MockLlmProcess[] = [];

const model = (role: string, url: string) => [`--${role}`, 'openai:mock', `--${role}-base-url`, url];
const simulated = (url: string) => [
  '--tool-outputs',
  'model',
  '--tool-model',
  'openai:mock',
  '--tool-base-url',
  url,
  '--allow-simulated-tools',
];

beforeAll(async () => {
  for (const [file, seed] of [
    [tasksFile, '1'],
    [otherTasks, '2'],
  ] as const) {
    const made = await runCoveAsync([
      'tasks',
      '--domain',
      'retail',
      '--sandbox-seed',
      '1',
      '--seed',
      seed,
      '--n',
      String(N),
      '--out',
      file,
    ]);
    if (made.status !== 0) throw new Error(`cove tasks failed: ${made.stderr}`);
  }
  const [plain, json, other] = await Promise.all([
    startMockLlm(['--tasks', tasksFile]),
    startMockLlm(['--tasks', tasksFile, '--user-style', 'json']),
    startMockLlm(['--tasks', otherTasks]),
  ]);
  servers.push(plain, json, other);
  const common = (out: string) => ['generate', '--tasks', tasksFile, '--quiet', '--out', out];
  const runs = await Promise.all([
    // task-oriented: a user given the whole task (stop-token style), tool outputs played by a model
    runCoveAsync(
      [
        ...common(dirs.task),
        ...model('agent', plain.baseUrl),
        ...model('user', plain.baseUrl),
        ...simulated(plain.baseUrl),
      ],
      { timeoutMs: 150_000 },
    ),
    // user-oriented: the JSON user, tool outputs played by a model
    runCoveAsync(
      [
        ...common(dirs.user),
        ...model('agent', json.baseUrl),
        ...model('user', json.baseUrl),
        '--user-style',
        'json',
        ...simulated(json.baseUrl),
      ],
      { timeoutMs: 150_000 },
    ),
    // user-oriented with execution: the JSON user, the database executes the calls
    runCoveAsync(
      [
        ...common(dirs.exec),
        ...model('agent', json.baseUrl),
        ...model('user', json.baseUrl),
        '--user-style',
        'json',
      ],
      { timeoutMs: 150_000 },
    ),
    runCoveAsync(
      [
        'generate',
        '--tasks',
        otherTasks,
        '--quiet',
        '--out',
        dirs.other,
        ...model('agent', other.baseUrl),
        ...model('user', other.baseUrl),
      ],
      { timeoutMs: 150_000 },
    ),
  ]);
  for (const r of runs) if (r.status !== 0) throw new Error(`cove generate failed: ${r.stderr}`);
}, 200_000);

afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});

describe('cove runs compare over the three modes', () => {
  it('reports yield, turns, tool calls, tokens and cost of each run', () => {
    const out = runCove([
      'runs',
      'compare',
      `task-oriented=${dirs.task}`,
      `user-oriented=${dirs.user}`,
      `user-oriented+exec=${dirs.exec}`,
      '--json',
    ]);
    expect(out.status, out.stderr).toBe(0);
    const [task, user, exec] = JSON.parse(out.stdout) as ComparedRun[];
    if (task === undefined || user === undefined || exec === undefined)
      throw new Error('three rows expected');
    expect([task.label, user.label, exec.label]).toEqual([
      'task-oriented',
      'user-oriented',
      'user-oriented+exec',
    ]);
    expect([task.user, user.user, exec.user]).toEqual([
      'openai:mock (stop-token)',
      'openai:mock (json)',
      'openai:mock (json)',
    ]);
    expect([task.tools, user.tools, exec.tools]).toEqual(['model', 'model', 'execute']);
    expect([task.verified, user.verified, exec.verified]).toEqual([false, false, true]);
    for (const r of [task, user, exec]) {
      expect(r).toMatchObject({ episodes: N, graded_episodes: N, yield: 1, task_yield: 1 });
      // each run's figures are its records' own
      const records = readRecords(r.dir);
      const tokens = records.reduce((a, x) => a + x.usage.prompt_tokens + x.usage.completion_tokens, 0);
      expect(r.tokens).toBe(tokens);
      const calls = records.reduce((a, x) => a + x.messages.filter((m) => m.role === 'tool').length, 0);
      expect(r.tool_calls).toBeCloseTo(calls / N, 3);
    }
    // the mock answers tool calls as the database would and plays the same user in both styles: the same
    // conversations, so the same turns and tool calls; the tool model's calls cost tokens only where it played
    expect(new Set([task.turns, user.turns, exec.turns]).size).toBe(1);
    expect(new Set([task.tool_calls, user.tool_calls, exec.tool_calls]).size).toBe(1);
    expect(task.tool_calls).toBeGreaterThan(0);
    expect(user.tokens_per_episode).toBeGreaterThan(exec.tokens_per_episode);
    expect(new Set([task.tasks_sha256, user.tasks_sha256, exec.tasks_sha256]).size).toBe(1);
  });

  it('prints one table, marks unverified yields and notes runs on other tasks', () => {
    const out = runCove(['runs', 'compare', dirs.task, dirs.exec]);
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^\| run +\| user +\| tools +\| episodes \| yield +\| turns \| user turns \| tool calls \| tokens\/episode \| cost USD \|$/,
    );
    expect(lines[2]).toMatch(
      /^\| task-oriented +\| openai:mock \(stop-token\) \| model +\| 3 +\| 100\.0%\* \|/,
    );
    expect(lines[3]).toMatch(
      /^\| user-oriented-exec \| openai:mock \(json\) +\| execute \| 3 +\| 100\.0% +\|/,
    );
    expect(out.stdout).toContain('* not verified: a model played the tool outputs');
    expect(out.stdout).not.toContain('did not run the same tasks');
    const mixed = runCove(['runs', 'compare', dirs.exec, dirs.other]);
    expect(mixed.stdout).toContain('note: the runs did not run the same tasks');
    const missing = runCove(['runs', 'compare', join(root, 'nowhere')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nowhere/summary.json: $: missing: not a run folder');
  });
});
