import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { createLibraryDb } from '../../src/testing/tiny-domain/index.js';
import { type CliResult, runCove, runCoveAsync } from '../helpers/cli.js';
import {
  type MockLlmProcess,
  type MockLlmStats,
  spawnCove,
  startMockLlm,
} from '../helpers/llm-mock-process.js';
import { readJson, readJsonl, readRecords } from '../helpers/run-files.js';

// `cove generate --tool-outputs model` against `cove mock-llm` on 127.0.0.1 (x-cove-role: tools): in oracle mode
// the mock answers every tool call with what the task's DB would answer, so the conversations equal a run on the
// database while the episode's own state never changes; in script mode it replays invalid replies (retried, then
// the episode ends as tools_error with the raw replies kept), error replies and replies outside the output schema.
// Last, a run with the JSON user and model-played tools killed with SIGKILL resumes to one record per episode.

const N = 4;
const root = mkdtempSync(join(tmpdir(), 'cove-sim-tools-'));
const tasksFile = join(root, 'tasks.json');
const scriptFile = join(root, 'script.json');
const executeDir = join(root, 'execute');
const modelDir = join(root, 'model');
const scriptDir = join(root, 'script');
const servers: MockLlmProcess[] = [];
let tasks: CoveTask[];
let executeRun: CliResult;
let modelRun: CliResult;
let scriptRun: CliResult;
let oracleStats: MockLlmStats;

const toolFlags = (baseUrl: string) => [
  '--tool-outputs',
  'model',
  '--tool-model',
  'openai:mock',
  '--tool-base-url',
  baseUrl,
  '--quiet',
];
const byTask = (records: readonly TrajectoryRecord[], i: number) =>
  records.find((r) => r.task_id === tasks[i]?.id) as TrajectoryRecord;
const toolTexts = (r: TrajectoryRecord) =>
  r.messages.filter((m) => m.role === 'tool').map((m) => m.content as string);

/** Per task (by index): the tool model's replies, entry n answering attempt n of each call. */
const TOOL_SCRIPTS = [
  // not JSON, then valid
  [{ content: 'Here you go: mia_garcia_4516' }, { content: '{"output": "mia_garcia_4516"}' }],
  // never valid
  [{ content: 'no idea' }],
  // the call fails, as the real tool would for an unknown email
  [{ content: '{"error": "User not found"}' }],
  // outside the output schema (a number for a user id), then valid
  [{ content: '{"output": 5}' }, { content: '{"output": "omar_khan_2363"}' }],
];

beforeAll(async () => {
  const made = await runCoveAsync([
    'tasks',
    '--domain',
    'retail',
    '--sandbox-seed',
    '1',
    '--n',
    String(N),
    '--out',
    tasksFile,
  ]);
  if (made.status !== 0) throw new Error(`cove tasks failed: ${made.stderr}`);
  tasks = readJson<CoveTask[]>(tasksFile);
  writeFileSync(
    scriptFile,
    JSON.stringify({
      agent: [
        { tool_calls: [{ name: 'find_user_id_by_email', arguments: { email: 'someone@example.com' } }] },
        { content: 'I found your account.' },
      ],
      user: [{ content: 'Please find my account.' }, { content: 'Thanks! ###STOP###' }],
      tasks: Object.fromEntries(tasks.map((t, i) => [t.id, { tools: TOOL_SCRIPTS[i] }])),
    }),
  );
  const [oracle, script] = await Promise.all([
    startMockLlm(['--tasks', tasksFile]),
    startMockLlm(['--mode', 'script', '--script', scriptFile]),
  ]);
  servers.push(oracle, script);
  [executeRun, modelRun, scriptRun] = await Promise.all([
    runCoveAsync(['generate', '--tasks', tasksFile, '--quiet', '--out', executeDir], { timeoutMs: 150_000 }),
    runCoveAsync(['generate', '--tasks', tasksFile, ...toolFlags(oracle.baseUrl), '--out', modelDir], {
      timeoutMs: 150_000,
    }),
    runCoveAsync(
      [
        'generate',
        '--tasks',
        tasksFile,
        '--agent',
        'openai:mock',
        '--agent-base-url',
        script.baseUrl,
        '--user',
        'openai:mock',
        '--user-base-url',
        script.baseUrl,
        ...toolFlags(script.baseUrl),
        '--out',
        scriptDir,
      ],
      { timeoutMs: 150_000 },
    ),
  ]);
  oracleStats = await oracle.stats();
}, 200_000);

afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});

describe('tool outputs played by a model answering as the database would (mock-llm oracle mode)', () => {
  it('gives the same conversations as a run on the database, every record saying tool_outputs: model', () => {
    expect(executeRun.status, executeRun.stderr).toBe(0);
    expect(modelRun.status, modelRun.stderr).toBe(0);
    const executed = readRecords(executeDir);
    const simulated = readRecords(modelDir);
    expect(simulated).toHaveLength(N);
    let toolMessages = 0;
    for (const r of simulated) {
      const twin = executed.find((e) => e.task_id === r.task_id) as TrajectoryRecord;
      expect(r.messages).toEqual(twin.messages);
      expect(r).toMatchObject({
        tool_outputs: 'model',
        tool_model: 'openai:mock',
        verification_meaningful: false,
        termination_reason: 'user_stop',
      });
      expect(r.failure).toBeUndefined();
      expect(twin.tool_outputs).toBeUndefined();
      expect(twin.verification?.score).toBe(1);
      const tools = r.messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
      toolMessages += tools.length;
      // every tool message was a model call: its tokens are counted, per message and in total
      expect(r.usage.per_message?.map((u) => u.message_index)).toEqual(tools);
      expect(r.usage.prompt_tokens).toBeGreaterThan(0);
    }
    expect(oracleStats.byRole).toEqual({ tools: toolMessages });
    // the state never changed: the write constraints are not met on it
    expect(simulated.some((r) => (r.verification?.score ?? 1) < 1)).toBe(true);
  });

  it('keeps them out of sft.jsonl and marks the summary: verification not meaningful', () => {
    expect(readJsonl(join(modelDir, 'sft.jsonl'))).toEqual([]);
    const summary = readJson<Record<string, unknown>>(join(modelDir, 'summary.json'));
    expect(summary).toMatchObject({
      sft_trajectories: 0,
      tool_outputs: { execute: 0, model: N },
      verification_meaningful: false,
      failures: {},
    });
    expect(modelRun.stderr).toContain('verification not meaningful');
    expect(readJson<Record<string, unknown>>(join(executeDir, 'summary.json')).tool_outputs).toBeUndefined();
    const fingerprint = readJson<{ fingerprint: Record<string, unknown> }>(
      join(modelDir, 'run.json'),
    ).fingerprint;
    expect(fingerprint).toMatchObject({ tool_outputs: 'model', tool_model: 'openai:mock' });
  });

  it('leaves them out of cove export, counted as simulated_tools', () => {
    const out = join(root, 'export');
    const r = runCove(['export', '--in', modelDir, '--format', 'openai', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toMatch(/\| simulated_tools +\| 4 +\|/);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain(
      `Source: ${N} trajectories read, 0 written`,
    );
  });

  it('lets them into sft.jsonl with --allow-simulated-tools, on the same run folder without running again', async () => {
    const again = await runCoveAsync(
      [
        'generate',
        '--tasks',
        tasksFile,
        ...toolFlags('http://127.0.0.1:9/v1'),
        '--allow-simulated-tools',
        '--out',
        modelDir,
      ],
      { timeoutMs: 120_000 },
    );
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('(0 new)');
    const rows = readJsonl<{ data_source: string }>(join(modelDir, 'sft.jsonl'));
    expect(rows.map((r) => r.data_source)).toEqual(Array(N).fill('cove/retail/sandbox/simulated-tools'));
  });

  it('never resumes a folder of another tool mode', () => {
    const again = runCove(['generate', '--tasks', tasksFile, '--quiet', '--out', modelDir]);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('tool_outputs "model" → (absent)');
  });
});

describe('tool outputs from a script (mock-llm script mode)', () => {
  it('runs one episode per task', () => {
    expect(scriptRun.stderr).not.toMatch(/^cove: /m);
    expect(scriptRun.status).toBe(0);
    expect(readRecords(scriptDir)).toHaveLength(N);
  });

  it('retries a reply that is not JSON and uses the valid one', () => {
    const r = byTask(readRecords(scriptDir), 0);
    expect(r.termination_reason).toBe('user_stop');
    expect(toolTexts(r)).toEqual(['mia_garcia_4516']);
  });

  it('ends the episode as tools_error with the raw replies kept when no reply is valid', () => {
    const records = readRecords(scriptDir);
    const r = byTask(records, 1);
    expect(r).toMatchObject({ termination_reason: 'tools_error', failure: 'tools_error' });
    expect(r.termination_detail).toContain(
      'the tool model gave no valid find_user_id_by_email output in 3 attempts (last: it was not valid JSON)',
    );
    expect(r.termination_detail).toContain(
      `raw replies: ${JSON.stringify(['no idea', 'no idea', 'no idea'])}`,
    );
    expect(toolTexts(r)).toEqual([]);
    const summary = readJson<{
      failures: Record<string, number>;
      termination_reasons: Record<string, number>;
    }>(join(scriptDir, 'summary.json'));
    expect(summary.failures).toEqual({ tools_error: 1 });
    expect(summary.termination_reasons).toEqual({ user_stop: 3, tools_error: 1 });
  });

  it('turns an error reply into a tool error in τ²’s form', () => {
    const r = byTask(readRecords(scriptDir), 2);
    expect(r.termination_reason).toBe('user_stop');
    expect(toolTexts(r)).toEqual(['Error: User not found']);
  });

  it('retries an output outside the tool’s output schema', () => {
    const r = byTask(readRecords(scriptDir), 3);
    expect(toolTexts(r)).toEqual(['omar_khan_2363']);
  });
});

describe('a SQL domain with model-played tool outputs', () => {
  it('answers with rows of the template’s output schema: the same conversations as on the database', async () => {
    const db = join(root, 'library.sqlite');
    createLibraryDb(db, { seed: 9, members: 25 });
    const spec = join(root, 'library.json');
    expect(runCove(['synth', 'tools', '--db', db, '--out', spec]).status).toBe(0);
    const file = join(root, 'library.tasks.json');
    const made = runCove(['tasks', '--domain-spec', spec, '--n', '3', '--goals', '2', '--out', file]);
    expect(made.status, made.stderr).toBe(0);
    const mock = await startMockLlm(['--tasks', file, '--domain-spec', spec]);
    servers.push(mock);
    const common = ['generate', '--domain-spec', spec, '--tasks', file, '--quiet'];
    const [executed, simulated] = await Promise.all([
      runCoveAsync([...common, '--out', join(root, 'library-exec')], { timeoutMs: 150_000 }),
      runCoveAsync([...common, ...toolFlags(mock.baseUrl), '--out', join(root, 'library-model')], {
        timeoutMs: 150_000,
      }),
    ]);
    expect(executed.status, executed.stderr).toBe(0);
    expect(simulated.status, simulated.stderr).toBe(0);
    const real = readRecords(join(root, 'library-exec'));
    const played = readRecords(join(root, 'library-model'));
    expect(played).toHaveLength(3);
    for (const r of played) {
      expect(r).toMatchObject({ domain: 'library', tool_outputs: 'model', termination_reason: 'user_stop' });
      expect(r.messages).toEqual(real.find((x) => x.task_id === r.task_id)?.messages);
      expect(toolTexts(r).length).toBeGreaterThan(0);
    }
    expect((await mock.stats()).byRole.tools).toBe(played.reduce((a, r) => a + toolTexts(r).length, 0));
  }, 200_000);
});

describe('--tool-outputs flags', () => {
  it('refuse a bad mode, a mode without a model, and tool-model flags without the mode', () => {
    const out = join(root, 'flags');
    const bad = runCove(['generate', '--n', '1', '--tool-outputs', 'guess', '--out', out]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--tool-outputs must be execute or model, not 'guess'");
    const noModel = runCove(['generate', '--n', '1', '--tool-outputs', 'model', '--out', out]);
    expect(noModel.status).toBe(2);
    expect(noModel.stderr).toContain('--tool-outputs model needs the model that plays the tools');
    const stray = runCove([
      'generate',
      '--n',
      '1',
      '--tool-model',
      'openai:m',
      '--allow-simulated-tools',
      '--out',
      out,
    ]);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toContain(
      '--tool-model, --allow-simulated-tools applies when a model plays the tool outputs, but the database executes them',
    );
    const notOpenAi = runCove([
      'generate',
      '--n',
      '1',
      '--tool-outputs',
      'model',
      '--tool-model',
      'gpt',
      '--out',
      out,
    ]);
    expect(notOpenAi.status).toBe(2);
    expect(notOpenAi.stderr).toContain("--tool-model must be openai:<model>, not 'gpt'");
  });
});

describe('a run with the JSON user and model-played tools, killed', () => {
  it('resumes after SIGKILL with every episode recorded exactly once', async () => {
    const slow = await startMockLlm(['--tasks', tasksFile, '--user-style', 'json', '--latency-ms', '150']);
    servers.push(slow);
    const out = join(root, 'killed');
    const args = [
      'generate',
      '--tasks',
      tasksFile,
      '--user',
      'openai:mock',
      '--user-base-url',
      slow.baseUrl,
      '--user-style',
      'json',
      ...toolFlags(slow.baseUrl),
      '--concurrency',
      '1',
      '--out',
      out,
    ];
    const run = spawnCove(args);
    const log = join(out, 'trajectories.jsonl');
    const started = performance.now();
    while (run.running() && performance.now() - started < 120_000) {
      if (existsSync(log) && readFileSync(log, 'utf8').length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(run.running()).toBe(true);
    run.signal('SIGKILL');
    const killed = await run.result;
    expect(killed.signal).toBe('SIGKILL');
    const partial = readRecords(out);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(N);
    const rerun = await runCoveAsync(args, { timeoutMs: 150_000 });
    expect(rerun.status, rerun.stderr).toBe(0);
    const records = readRecords(out);
    expect(records).toHaveLength(N);
    expect(new Set(records.map((r) => r.id)).size).toBe(N);
    for (const r of partial) expect(records.find((x) => x.id === r.id)).toEqual(r);
    for (const r of records) {
      expect(r).toMatchObject({ user_style: 'json', tool_outputs: 'model', termination_reason: 'user_stop' });
    }
  }, 200_000);
});
