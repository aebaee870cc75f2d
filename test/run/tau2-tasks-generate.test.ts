import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCove, runCoveAsync } from '../helpers/cli.js';
import { type MockLlmProcess, startMockLlm } from '../helpers/llm-mock-process.js';
import { readJson, readJsonl, readRecords } from '../helpers/run-files.js';

/**
 * `cove generate --tasks <τ² tasks.json>` with model-played roles (against `cove mock-llm` in script mode over
 * real sockets): episodes are graded by τ²'s evaluator from each task's reward_basis.
 * Task 33 (basis DB only): the scripted agent makes τ²'s gold calls → reward 1, kept for SFT.
 * Task 34 (basis DB only): the agent only talks → the DB check fails → reward 0.
 * Task 2 (basis DB + NL_ASSERTION with assertions): no judge → reward null, never kept.
 */
const TAU2_TASKS = join(__dirname, '../../../shared/tau2/retail/tasks.json');
const all = JSON.parse(readFileSync(TAU2_TASKS, 'utf8')) as {
  id: string;
  evaluation_criteria: { actions: { name: string; arguments: Record<string, unknown> }[] };
}[];
const dir = mkdtempSync(join(tmpdir(), 'cove-tau2-gen-'));
let server: MockLlmProcess;
const tasksFile = join(dir, 'retail', 'tasks.json');

beforeAll(async () => {
  const { mkdirSync, copyFileSync } = await import('node:fs');
  mkdirSync(join(dir, 'retail'));
  // a τ² data directory of our own: the tasks beside τ²'s pristine db.json
  copyFileSync(join(__dirname, '../../../shared/tau2/retail/db.json'), join(dir, 'retail', 'db.json'));
  writeFileSync(
    tasksFile,
    JSON.stringify(
      all.filter((t) => ['2', '33', '34'].includes(t.id)),
      null,
      2,
    ),
  );
  const gold = all.find((t) => t.id === '33')?.evaluation_criteria.actions ?? [];
  const script = {
    agent: [{ content: 'I am sorry, I cannot do that.' }],
    user: [{ content: 'Hi, I need to update my address.' }, { content: 'Thanks. ###STOP###' }],
    tasks: {
      '33': {
        agent: [
          ...gold.map((a) => ({ content: '', tool_calls: [{ name: a.name, arguments: a.arguments }] })),
          { content: 'Your default address is updated.' },
        ],
      },
    },
  };
  writeFileSync(join(dir, 'script.json'), JSON.stringify(script));
  server = await startMockLlm(['--mode', 'script', '--script', join(dir, 'script.json')]);
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('cove generate --tasks with τ² tasks', () => {
  it('grades by reward_basis: gold calls → 1, talk only → 0, NL assertions without a judge → null', async () => {
    const out = join(dir, 'run');
    const args = [
      'generate',
      '--tasks',
      tasksFile,
      '--agent',
      'openai:mock',
      '--agent-base-url',
      server.baseUrl,
      '--user',
      'openai:mock',
      '--user-base-url',
      server.baseUrl,
      '--concurrency',
      '1',
      '--quiet',
      '--out',
      out,
    ];
    const r = { ...(await runCoveAsync(args, { timeoutMs: 120_000 })), args };
    expect(r.status, r.stderr).toBe(0);
    const records = readRecords(out);
    const byTask = Object.fromEntries(records.map((x) => [x.task_id, x]));
    expect(records).toHaveLength(3);
    for (const x of records) {
      expect(x.verification).toBeUndefined();
      expect(x.evaluation?.evaluator).toBe('tau2');
    }
    expect(byTask['33']?.evaluation?.reward).toBe(1);
    expect(byTask['34']?.evaluation?.reward).toBe(0);
    expect(byTask['34']?.failure).toBe('state_mismatch');
    expect(byTask['2']?.evaluation?.reward).toBeNull();
    expect(byTask['2']?.failure).toBe('not_evaluated');
    const report = byTask['2']?.evaluation?.report as { not_evaluated: { component: string }[] };
    expect(report.not_evaluated.map((n) => n.component)).toEqual(['NL_ASSERTION']);
    // the do-nothing flag (issue 23): tasks 33 and 34 need writes (0), task 2 cannot be graded without a judge
    expect(records.map((x) => [x.task_id, x.evaluation?.report.do_nothing_reward]).sort()).toEqual([
      ['2', null],
      ['33', 0],
      ['34', 0],
    ]);
    // sft.jsonl keeps exactly the reward-1 episode
    const sft = readJsonl<{ messages: { role: string }[] }>(join(out, 'sft.jsonl'));
    expect(sft).toHaveLength(1);
    const summary = readJson<{
      reward: { evaluators: Record<string, number>; distribution: Record<string, number> };
    }>(join(out, 'summary.json'));
    expect(summary.reward.evaluators).toEqual({ tau2: 3 });
    expect((summary as unknown as { baseline: unknown }).baseline).toEqual({
      policy: 'do_nothing',
      tasks: 3,
      mean_reward: 0,
      by_evaluator: { tau2: { tasks: 2, mean_reward: 0 } },
      tasks_with_reward: 0,
      passed_task_ids: [],
      not_evaluated: 1,
    });
    expect(summary.reward.distribution).toEqual({ '1': 1, '0': 1, partial: 0, null: 1 });
    // the run folder's tasks.json is the τ² file as it was
    expect(readFileSync(join(out, 'tasks.json'), 'utf8')).toBe(readFileSync(tasksFile, 'utf8'));
    // the same command resumes: τ²-graded records (no verification) are read back, nothing runs again
    const again = await runCoveAsync(r.args, { timeoutMs: 120_000 });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('(0 new)');
    expect(again.stderr).not.toContain('damaged');
    expect(readRecords(out)).toHaveLength(3);
  }, 180_000);

  it('refuses the oracle agent and the scripted user on τ² tasks, saying what to use', () => {
    const r = runCove(['generate', '--tasks', tasksFile, '--out', join(dir, 'refused')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no cove block');
    expect(r.stderr).toContain('--agent openai:<model>');
  });
});
