import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTau2Results } from '../../src/tau2/results-file.js';
import { REPO, runCoveAsync } from '../helpers/cli.js';
import { type MockLlmProcess, startMockLlm } from '../helpers/llm-mock-process.js';
import { TAU2 } from '../helpers/paths.js';

/**
 * `cove eval` end to end over real sockets: `cove mock-llm` (script mode) plays the agent, the user and the judge
 * in its own process; an eval of 10 retail tasks × 4 trials is killed with SIGKILL part-way and resumed.
 * The agent only talks, so a task passes iff τ²'s gold actions leave the DB unchanged (`changed_db` in τ²'s own
 * golden replay file) — retail's basis is [DB, NL_ASSERTION] and the scripted judge says every assertion is met.
 * Per-trial seeds are τ²'s (`random.seed(300)`; `randint(0, 1_000_000)` per trial, computed with CPython).
 */

const BIN = fileURLToPath(new URL('../../bin/cove.js', import.meta.url));
const IDS = ['0', '1', '2', '3', '6', '10', '13', '16', '24', '57'];
const SEEDS = [626729, 373753, 361454, 1567];
const tmp = mkdtempSync(join(tmpdir(), 'cove-eval-'));
let mock: MockLlmProcess;

const golden = JSON.parse(readFileSync(join(TAU2, 'golden', 'retail.head.train.json'), 'utf8')) as Record<
  string,
  { changed_db: boolean }
>;

function script(judgeReply: string): string {
  const file = join(tmp, `script-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      agent: [{ content: 'I can help with that. Could you tell me more?' }],
      user: [{ content: 'Hi, I need help with my order.' }, { content: 'Thanks, that is all. ###STOP###' }],
      judge: [{ content: judgeReply }],
    }),
  );
  return file;
}

const roles = (url: string) => [
  '--agent',
  'openai:mock',
  '--agent-base-url',
  url,
  '--user',
  'openai:mock',
  '--user-base-url',
  url,
];

const lines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
    : [];

beforeAll(async () => {
  mock = await startMockLlm([
    '--mode',
    'script',
    '--script',
    script('{"results": [{"expectedOutcome": "x", "reasoning": "seen", "metExpectation": true}]}'),
    '--latency-ms',
    '40',
  ]);
}, 60_000);
afterAll(async () => {
  await mock?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('cove eval end to end (mock-llm as agent, user and judge)', () => {
  it('10 tasks × 4 trials, killed and resumed: every episode once, τ²’s seeds, rewards, pass^k, results.json', {
    timeout: 240_000,
  }, async () => {
    const out = join(tmp, 'run');
    const args = [
      BIN,
      'eval',
      '--domain',
      'retail',
      '--tau2-data',
      TAU2,
      '--ids',
      IDS.join(','),
      '--trials',
      '4',
      ...roles(mock.baseUrl),
      '--judge',
      'openai:mock',
      '--judge-base-url',
      mock.baseUrl,
      '--concurrency',
      '2',
      '--out',
      out,
    ];
    // first run: killed once a few episodes are on disk
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: 'ignore' });
    const traj = join(out, 'trajectories.jsonl');
    // while it runs, the folder is locked: a second eval on it is refused, naming the first one's pid
    const lock = join(out, 'run.lock');
    while (!existsSync(lock) || readFileSync(lock, 'utf8').trim() === '')
      await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(child.pid));
    const second = await runCoveAsync(args.slice(1), { timeoutMs: 60_000 });
    expect(second.status).toBe(2);
    expect(second.stderr).toContain(`${out} is being written by another cove eval (pid ${child.pid})`);
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (lines(traj).length >= 6) {
          clearInterval(timer);
          child.kill('SIGKILL');
          resolve();
        }
      }, 50);
      child.once('exit', () => {
        clearInterval(timer);
        reject(new Error('cove eval finished before it could be killed'));
      });
    });
    await new Promise((r) => child.once('exit', r));
    const before = lines(traj).length;
    expect(before).toBeGreaterThanOrEqual(6);
    expect(before).toBeLessThan(40);

    // the lock the killed process left is taken over by the resumed run
    expect(existsSync(lock)).toBe(true);
    const r = await runCoveAsync(args.slice(1), { timeoutMs: 200_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(lock)).toBe(false);
    const records = lines(traj).map((l) => JSON.parse(l));
    expect(records).toHaveLength(40);
    expect(new Set(records.map((x) => x.id)).size).toBe(40);
    for (const rec of records) {
      expect(rec.seed).toBe(SEEDS[rec.trial]);
      expect(rec.termination_reason).toBe('user_stop');
      const expected = golden[rec.task_id]?.changed_db === false ? 1 : 0;
      expect({ task: rec.task_id, reward: rec.evaluation.reward }).toEqual({
        task: rec.task_id,
        reward: expected,
      });
      expect(rec.evaluation.report.task_set).toBe('head');
    }
    // the resumed run started only the episodes the first did not finish
    expect(r.stderr).toContain(`(${40 - before} new)`);

    // pass^k: tasks 10, 24 and 57 pass every trial, the other 7 never: pass^k = 3/10 for k = 1..4
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.seeds).toEqual(SEEDS);
    const all = report.rows.find((row: { subset: string }) => row.subset === 'all tasks').stats;
    expect(all.passK.map((v: number) => Number(v.toFixed(12)))).toEqual([0.3, 0.3, 0.3, 0.3]);
    expect(all.infrastructureErrors).toBe(0);
    // no-op-passable: 10 and 57 (gold leaves the DB unchanged, no NL assertion); 24 has NL assertions (a judge
    // must agree); known-bad among these ids: 2, 3 (τ² #89) and 10 (τ² #316)
    expect(report.noop_passable_tasks.sort()).toEqual(['10', '57']);
    expect(report.known_bad_tasks.map((b: { task_id: string }) => b.task_id).sort()).toEqual([
      '10',
      '2',
      '3',
    ]);
    const both = report.rows.find((row: { subset: string }) => row.subset === 'without both').stats;
    // left: 0, 1, 6, 13, 16, 24 — only 24 passes
    expect(both.tasks).toBe(6);
    expect(both.passK[0]).toBeCloseTo(1 / 6, 12);
    expect(r.stdout).toContain('pass^4');

    // results.json in τ²'s format, and cove grade gives back the rewards recorded at run time
    const results = readTau2Results(join(out, 'results.json'));
    expect(results.simulations).toHaveLength(40);
    expect(results.info.num_trials).toBe(4);
    expect(results.info.seed).toBe(300);
    const g = await runCoveAsync(['grade', '--json', '--tau2-data', TAU2, join(out, 'results.json')]);
    expect(g.status, g.stderr).toBe(0);
    const summary = JSON.parse(g.stdout.trim().split('\n').at(-1) ?? '');
    expect(summary).toMatchObject({ simulations: 40, agree_reward: 40, agree_db: 40, disagreements: [] });

    // the folder is refused to an eval with other settings
    const other = await runCoveAsync(args.slice(1).map((a) => (a === '4' ? '2' : a)));
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('holds an eval with other settings (trials: 4 there, 2 now)');
  });

  it('tasks made by cove run in τ²’s setting: τ²’s reward recorded with CoVe’s verifier score beside it', {
    timeout: 240_000,
  }, async () => {
    const tasksFile = join(tmp, 'cove-tasks.json');
    const made = await runCoveAsync(
      ['tasks', '--domain', 'retail', '--sandbox-seed', '1', '--n', '4', '--out', tasksFile],
      { timeoutMs: 120_000 },
    );
    expect(made.status, made.stderr).toBe(0);
    const tasks = JSON.parse(readFileSync(tasksFile, 'utf8')) as {
      id: string;
      evaluation_criteria: { actions: { name: string }[] };
    }[];
    // two of the tasks have the same gold tools with other arguments: each must get its own gold state
    const toolLists = tasks.map((t) => t.evaluation_criteria.actions.map((a) => a.name).join(','));
    expect(toolLists.some((l, i) => l !== '' && toolLists.indexOf(l) !== i)).toBe(true);
    // mock-llm's oracle mode plays each task's gold calls as the agent and its scenario as the user
    const oracle = await startMockLlm(['--mode', 'oracle', '--tasks', tasksFile]);
    try {
      const out = join(tmp, 'cove-tasks-run');
      const r = await runCoveAsync(
        [
          'eval',
          '--domain',
          'retail',
          '--tasks',
          tasksFile,
          '--tau2-data',
          TAU2,
          '--trials',
          '1',
          ...roles(oracle.baseUrl),
          '--out',
          out,
        ],
        { timeoutMs: 200_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      const records = lines(join(out, 'trajectories.jsonl')).map((l) => JSON.parse(l));
      // the gold calls made: τ²'s DB check passes and so does every CoVe constraint, for every task
      expect(
        records.map((x) => [
          x.task_id,
          x.evaluation.evaluator,
          x.evaluation.reward,
          x.evaluation.report.cove_score,
          x.verification.score,
          x.verification.stateMatch,
        ]),
      ).toEqual(tasks.map((t) => [t.id, 'tau2', 1, 1, 1, true]));
      const results = readTau2Results(join(out, 'results.json'));
      expect(results.simulations.map((sim) => sim.reward_info?.reward)).toEqual([1, 1, 1, 1]);
      // τ²'s setting is τ²'s tools: tasks made under fixed semantics are refused, naming the way out
      const fixedFile = join(tmp, 'cove-tasks-fixed.json');
      const fixedMade = await runCoveAsync(
        [
          'tasks',
          '--domain',
          'retail',
          '--sandbox-seed',
          '1',
          '--n',
          '1',
          '--semantics',
          'fixed',
          '--out',
          fixedFile,
        ],
        { timeoutMs: 120_000 },
      );
      expect(fixedMade.status, fixedMade.stderr).toBe(0);
      const refused = await runCoveAsync([
        'eval',
        '--domain',
        'retail',
        '--tasks',
        fixedFile,
        '--tau2-data',
        TAU2,
        ...roles(oracle.baseUrl),
        '--out',
        join(tmp, 'cove-tasks-fixed-run'),
      ]);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(
        "made under fixed semantics; cove eval runs τ²'s tools as τ² does (parity)",
      );
    } finally {
      await oracle.close();
    }
  });

  it('a judge that answers malformed JSON: the reward is null, the raw reply kept — never a pass', {
    timeout: 120_000,
  }, async () => {
    const bad = await startMockLlm([
      '--mode',
      'script',
      '--script',
      script('{"results": [ this is not json'),
    ]);
    try {
      const out = join(tmp, 'malformed');
      const r = await runCoveAsync(
        [
          'eval',
          '--domain',
          'retail',
          '--tau2-data',
          TAU2,
          '--ids',
          '2',
          '--trials',
          '1',
          ...roles(bad.baseUrl),
          '--judge',
          'openai:mock',
          '--judge-base-url',
          bad.baseUrl,
          '--out',
          out,
        ],
        { timeoutMs: 100_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      const [rec] = lines(join(out, 'trajectories.jsonl')).map((l) => JSON.parse(l));
      // task 2's gold changes the DB, so DB = 0 … and the NL component could not be evaluated: null wins
      expect(rec.evaluation.reward).toBeNull();
      expect(rec.evaluation.report.judge.raw).toBe('{"results": [ this is not json');
      expect(rec.evaluation.report.judge.error).toMatch(/not JSON/);
      expect(rec.evaluation.report.not_evaluated[0].component).toBe('NL_ASSERTION');
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
      expect(report.rows[0].stats.unevaluated).toBe(1);
      expect(report.rows[0].stats.passK).toEqual([0]);
      // cove grade --judge asks a judge that answers: the NL component is evaluated afresh (met), DB still fails
      const g = await runCoveAsync([
        'grade',
        '--json',
        '--tau2-data',
        TAU2,
        '--judge',
        'openai:mock',
        '--judge-base-url',
        mock.baseUrl,
        join(out, 'results.json'),
      ]);
      expect(g.status, g.stderr).toBe(0);
      const summary = JSON.parse(g.stdout.trim().split('\n').at(-1) ?? '');
      expect(summary.disagreements).toEqual([
        {
          simulation_id: rec.id,
          task_id: '2',
          ours: 0,
          theirs: null,
          reason: 'NL assertions: our judge met, recorded none',
        },
      ]);
    } finally {
      await bad.close();
    }
  });

  it('an unreachable judge stops the run before any episode, naming the judge', {
    timeout: 60_000,
  }, async () => {
    const out = join(tmp, 'unreachable');
    const r = await runCoveAsync([
      'eval',
      '--domain',
      'retail',
      '--tau2-data',
      TAU2,
      '--ids',
      '2',
      '--trials',
      '1',
      ...roles(mock.baseUrl),
      '--judge',
      'openai:mock',
      '--judge-base-url',
      'http://127.0.0.1:9/v1',
      '--out',
      out,
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--judge openai:mock at http://127.0.0.1:9/v1 is not reachable');
    expect(existsSync(join(out, 'trajectories.jsonl'))).toBe(false);
  });

  it('cove grade on cove’s own airline run with tool calls (a read, then a cancellation) gives back the recorded rewards', {
    timeout: 120_000,
  }, async () => {
    const file = join(tmp, 'airline-script.json');
    writeFileSync(
      file,
      JSON.stringify({
        agent: [
          {
            content: null,
            tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'raj_sanchez_7340' } }],
          },
          {
            content: null,
            tool_calls: [{ name: 'cancel_reservation', arguments: { reservation_id: 'Q69X3R' } }],
          },
          { content: 'Done.' },
        ],
        user: [{ content: 'Hi, I need help with a reservation.' }, { content: 'Thanks. ###STOP###' }],
      }),
    );
    const air = await startMockLlm(['--mode', 'script', '--script', file]);
    try {
      const out = join(tmp, 'airline');
      const r = await runCoveAsync(
        [
          'eval',
          '--domain',
          'airline',
          '--tau2-data',
          TAU2,
          '--ids',
          '0,1',
          '--trials',
          '2',
          ...roles(air.baseUrl),
          '--out',
          out,
        ],
        { timeoutMs: 100_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      const records = lines(join(out, 'trajectories.jsonl')).map((l) => JSON.parse(l));
      expect(records).toHaveLength(4);
      for (const rec of records)
        expect(rec.messages.filter((m: { role: string }) => m.role === 'tool')).toHaveLength(2);
      for (const target of ['trajectories.jsonl', 'results.json']) {
        const g = await runCoveAsync(['grade', '--json', '--tau2-data', TAU2, join(out, target)]);
        expect(g.status, g.stderr).toBe(0);
        const summary = JSON.parse(g.stdout.trim().split('\n').at(-1) ?? '');
        expect(summary).toMatchObject({
          simulations: 4,
          tool_calls: 8,
          tool_outputs_identical: 8,
          agree_reward: 4,
          agree_db: 4,
          disagreements: [],
        });
      }
    } finally {
      await air.close();
    }
  });
});
