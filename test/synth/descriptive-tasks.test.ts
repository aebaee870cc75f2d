import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptiveTaskRecordSchema } from '../../src/synth/descriptive/descriptive-task.js';
import { runCoveAsync } from '../helpers/cli.js';
import { startMockLlm } from '../helpers/llm-mock-process.js';

/**
 * Descriptive tasks and the rubric judge end to end, over real sockets: `cove synth tasks` on Chinook and Northwind
 * (specs from `cove synth tools`) played by `cove mock-llm --mode script`; `cove generate` running them with
 * model-played agents and users (plain and JSON style) and a judge that passes, rejects (a critical failure),
 * needs a second try (its first reply is not JSON), excuses a faithfully reported tool error, and passes an
 * episode a deterministic check fails (which stays out of sft.jsonl); `cove synth judge` over saved trajectories.
 * Costs are checked against the price table by hand: USD = (prompt × 2 + completion × 8) / 10⁶.
 */

const SQL = join(import.meta.dirname, '../../../shared/sql');
const CHINOOK = join(SQL, 'chinook/Chinook_Sqlite.sqlite');
const NORTHWIND = join(SQL, 'northwind/northwind.db');
const PRICE = { prompt_per_mtok: 2, completion_per_mtok: 8 };
const costOf = (u: { prompt_tokens: number; completion_tokens: number }) =>
  Math.round(((u.prompt_tokens * 2 + u.completion_tokens * 8) / 1e6) * 1e9) / 1e9;

let dir = '';
let config = '';
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/** A task writer's reply: two goals with 3 and 1 rubric items. */
const WRITTEN = {
  persona: 'A brisk music fan who wants short answers.',
  goals: [
    {
      description: "Find out who made the album 'Big Ones'; its artist's name is to be looked up.",
      difficulty: 'medium',
      rubric: [
        'The agent tells the user the artist of Big Ones as the tools return it',
        'The agent finds the album with search_album_by_title',
        'The agent answers briefly',
      ],
    },
    {
      description: 'Look up the track with id 99999 and tell me its name, if there is one.',
      difficulty: 'easy',
      rubric: ['The agent tells the user the name of track 99999, or that the lookup failed'],
    },
  ],
};

/** `evaluation` of a descriptive record, as far as these tests read it. */
interface Verdict {
  readonly reward: number | null;
  readonly report: {
    readonly checks: { readonly failures: string[] };
    readonly judge: {
      readonly passed: boolean;
      readonly critical_failures: string[];
      readonly attempts: number;
      readonly raw: string[];
      readonly retried_because: string[];
      readonly items: { readonly excused: boolean }[];
    };
  };
}

type Item = {
  goal: number;
  item: number;
  class: string;
  met: boolean | null;
  excused_by?: string;
  reason: string;
};
function verdict(
  options: { fail?: [number, number]; excuse?: [number, number, string]; errors?: string[] } = {},
) {
  const items: Item[] = [];
  for (const [gi, g] of WRITTEN.goals.entries()) {
    for (let ii = 0; ii < g.rubric.length; ii++) {
      const it: Item = {
        goal: gi + 1,
        item: ii + 1,
        class: ii === 0 ? 'critical' : 'non_critical',
        met: true,
        reason: 'ok',
      };
      if (options.fail?.[0] === gi + 1 && options.fail[1] === ii + 1) {
        it.met = false;
        it.reason = 'the agent named an artist no tool returned';
      }
      if (options.excuse?.[0] === gi + 1 && options.excuse[1] === ii + 1) {
        it.met = false;
        it.excused_by = options.excuse[2];
        it.reason = 'the lookup returned an error, which the agent reported';
      }
      items.push(it);
    }
  }
  return {
    content: JSON.stringify({
      items,
      tool_errors: (options.errors ?? []).map((id) => ({
        call_id: id,
        handled: true,
        reason: 'reported as it was',
      })),
      judgment: options.fail === undefined ? 'valid' : 'invalid',
      reasoning: 'checked item by item',
    }),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cove-descriptive-'));
  config = join(dir, 'cove.json');
  writeFileSync(config, JSON.stringify({ prices: { mock: PRICE } }));
  for (const [db, name] of [
    [CHINOOK, 'chinook'],
    [NORTHWIND, 'northwind'],
  ] as const) {
    const r = await runCoveAsync([
      'synth',
      'tools',
      '--db',
      db,
      '--name',
      name,
      '--out',
      join(dir, `${name}.json`),
    ]);
    expect(r.status, r.stderr).toBe(0);
  }
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `cove synth tasks` on `spec` with a writer whose first reply is not JSON; returns the records. */
async function writeTasks(spec: string, out: string, n: number) {
  const script = join(dir, `${spec}-writer.json`);
  writeFileSync(
    script,
    JSON.stringify({
      tasks: [{ content: 'Here are the tasks you asked for.' }, { content: JSON.stringify(WRITTEN) }],
    }),
  );
  const mock = await startMockLlm(['--mode', 'script', '--script', script]);
  try {
    const args = [
      'synth',
      'tasks',
      '--spec',
      join(dir, `${spec}.json`),
      '--out',
      out,
      '--n',
      String(n),
      '--goals',
      '2',
    ];
    const model = ['--model', 'openai:mock', '--base-url', mock.baseUrl, '--config', config, '--quiet'];
    const r = await runCoveAsync([...args, ...model]);
    expect(r.status, r.stderr).toBe(0);
    expect((await mock.stats()).byRole).toEqual({ tasks: 2 * n });
    // the same command again finds every unit done: no model call
    const again = await runCoveAsync([...args, ...model]);
    expect(again.status, again.stderr).toBe(0);
    expect((await mock.stats()).requests).toBe(2 * n);
  } finally {
    await mock.close();
  }
  return lines(out);
}

describe('descriptive tasks and the rubric judge over real sockets', () => {
  const chinookTasks = () => join(dir, 'chinook-tasks.jsonl');

  it('cove synth tasks writes descriptive tasks on Chinook and Northwind, retrying a reply that is not JSON', async () => {
    for (const [spec, n] of [
      ['chinook', 4],
      ['northwind', 1],
    ] as const) {
      const out = join(dir, `${spec}-tasks.jsonl`);
      const records = await writeTasks(spec, out, n);
      expect(records).toHaveLength(n);
      for (const [i, r] of records.entries()) {
        const record = descriptiveTaskRecordSchema.parse(r);
        expect(record.kind).toBe('descriptive');
        expect(record.index).toBe(i);
        expect(record.domain).toBe(spec);
        expect(record.difficulty).toBe('medium'); // the hardest of medium and easy
        expect(record.goals.map((g) => g.rubric.length)).toEqual([3, 1]);
        expect(record.id).toMatch(/^dtask-[0-9a-f]{16}$/);
      }
      expect(new Set(records.map((r) => r.id)).size).toBe(n);
      const summary = json(join(dir, `${spec}-tasks.summary.json`));
      const usage = summary.usage as {
        calls: number;
        prompt_tokens: number;
        completion_tokens: number;
        cost_usd: number;
      };
      expect(summary.stage).toBe('tasks');
      expect(summary.records).toBe(n);
      expect(usage.calls).toBe(2 * n);
      expect(usage.prompt_tokens).toBeGreaterThan(0);
      expect(usage.completion_tokens).toBeGreaterThan(0);
      expect(usage.cost_usd).toBe(costOf(usage));
      expect(summary.counts).toMatchObject({ json_retries: n, goals: 2 * n });
    }
  }, 300_000);

  it('cove generate runs them with model roles and keeps only what the judge passed and no check failed', async () => {
    const ids = lines(chinookTasks()).map((r) => String(r.id));
    const [pass, reject, retried, checkFails] = ids as [string, string, string, string];
    const script = {
      agent: [
        {
          tool_calls: [{ id: 'call_album', name: 'search_album_by_title', arguments: { title: 'Big Ones' } }],
        },
        { content: 'Big Ones is by the artist with id 3, as the catalogue lists it.' },
      ],
      user: [{ content: 'Who made the album Big Ones?' }, { content: 'Thanks, that is all. ###STOP###' }],
      by_task: {
        [pass]: { judge: [verdict()] },
        [reject]: { judge: [verdict({ fail: [1, 1] })] },
        [retried]: {
          agent: [
            { tool_calls: [{ id: 'call_missing', name: 'get_track', arguments: { track_id: 99999 } }] },
            {
              content:
                'The lookup of track 99999 failed: there is no matching track. Could you check the number?',
            },
          ],
          judge: [
            { content: 'The agent did well overall.' },
            verdict({ excuse: [2, 1, 'call_missing'], errors: ['call_missing'] }),
          ],
        },
        [checkFails]: {
          agent: [
            { tool_calls: [{ id: 'call_bad', name: 'get_track', arguments: { track_id: 'three' } }] },
            { content: 'That lookup did not work.' },
          ],
          judge: [verdict({ errors: ['call_bad'] })],
        },
      },
    };
    const scriptFile = join(dir, 'generate-script.json');
    writeFileSync(scriptFile, JSON.stringify(script));
    const mock = await startMockLlm(['--mode', 'script', '--script', scriptFile]);
    const run = join(dir, 'run');
    try {
      const r = await runCoveAsync([
        'generate',
        ...['--domain-spec', join(dir, 'chinook.json'), '--tasks', chinookTasks(), '--out', run, '--quiet'],
        ...['--agent', 'openai:mock', '--agent-base-url', mock.baseUrl],
        ...['--user', 'openai:mock', '--user-base-url', mock.baseUrl],
        ...['--judge', 'openai:mock', '--judge-base-url', mock.baseUrl, '--config', config],
      ]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        'judged: 2 passed, 1 rejected by the judge, 1 failed a deterministic check, 0 not judged',
      );
      // one judge call per episode, and one more for the reply that was not JSON
      expect((await mock.stats()).byRole.judge).toBe(5);
    } finally {
      await mock.close();
    }
    const records = new Map(lines(join(run, 'trajectories.jsonl')).map((r) => [String(r.task_id), r]));
    const report = (id: string) => records.get(id)?.evaluation as unknown as Verdict;
    for (const id of ids) {
      expect(records.get(id)?.verification).toBeUndefined(); // no CoVe score
      expect(((records.get(id)?.evaluation ?? {}) as { evaluator: string }).evaluator).toBe('rubric_judge');
      expect(records.get(id)?.termination_reason).toBe('user_stop');
    }
    expect(report(pass).reward).toBe(1);
    expect(report(reject).reward).toBe(0);
    expect(records.get(reject)?.failure).toBe('judge_rejected');
    expect(report(reject).report.judge.critical_failures).toEqual([
      'goal 1 item 1: The agent tells the user the artist of Big Ones as the tools return it: the agent named an artist no tool returned',
    ]);
    const retriedJudge = report(retried).report.judge;
    expect(report(retried).reward).toBe(1);
    expect(retriedJudge.attempts).toBe(2);
    expect(retriedJudge.raw[0]).toBe('The agent did well overall.');
    expect(retriedJudge.retried_because[0]).toContain('not a JSON object');
    expect(retriedJudge.items[3]?.excused).toBe(true);
    // the judge passed it, but the call's arguments break the tool's schema: reward 0, out of sft.jsonl
    expect(report(checkFails).report.judge.passed).toBe(true);
    expect(report(checkFails).reward).toBe(0);
    expect(records.get(checkFails)?.failure).toBe('invalid_tool_call');
    expect(report(checkFails).report.checks.failures).toEqual([
      'message 2, call call_bad get_track: argument track_id: string is not integer',
    ]);
    const sft = lines(join(run, 'sft.jsonl'));
    expect(sft).toHaveLength(2);
    const callIds = sft.map((row) =>
      (row.messages as { tool_calls?: { id: string }[] }[])
        .flatMap((m) => m.tool_calls ?? [])
        .map((c) => c.id),
    );
    expect(callIds).toEqual([['call_album'], ['call_missing']]);
    const summary = json(join(run, 'summary.json'));
    const judge = summary.judge as Record<string, unknown> & {
      usage: { prompt_tokens: number; completion_tokens: number; cost_usd: number };
    };
    expect(judge).toMatchObject({
      episodes: 4,
      passed: 2,
      rejected_by_judge: 1,
      not_judged: 0,
      deterministic_failures: 1,
      judge_passed_checks_failed: 1,
      retried_replies: 1,
      item_classes: { critical: 8, structural: 0, non_critical: 8, invalid: 0 },
    });
    expect(judge.usage.prompt_tokens).toBeGreaterThan(0);
    expect(judge.usage.cost_usd).toBe(Number(costOf(judge.usage).toFixed(6)));
    const runUsage = summary.usage as { prompt_tokens: number };
    expect(runUsage.prompt_tokens).toBeGreaterThan(judge.usage.prompt_tokens);
    expect(summary.sft_trajectories).toBe(2);
  }, 300_000);

  it('without --judge nothing enters sft.jsonl; a JSON-style user runs them too (Northwind)', async () => {
    const script = join(dir, 'northwind-script.json');
    writeFileSync(
      script,
      JSON.stringify({
        agent: [
          {
            tool_calls: [
              { id: 'call_emp', name: 'search_employees_by_last_name', arguments: { last_name: 'Davolio' } },
            ],
          },
          { content: 'Nancy Davolio is a Sales Representative.' },
        ],
        user: [
          { content: JSON.stringify({ user_message: 'What is Davolio’s title?', is_task_complete: false }) },
          { content: JSON.stringify({ user_message: 'Thank you!', is_task_complete: true }) },
        ],
        judge: [verdict()],
      }),
    );
    const mock = await startMockLlm(['--mode', 'script', '--script', script]);
    try {
      const roles = (out: string) => [
        ...['--domain-spec', join(dir, 'northwind.json'), '--tasks', join(dir, 'northwind-tasks.jsonl')],
        ...['--out', join(dir, out), '--quiet', '--user-style', 'json'],
        ...[
          '--agent',
          'openai:mock',
          '--agent-base-url',
          mock.baseUrl,
          '--user',
          'openai:mock',
          '--user-base-url',
          mock.baseUrl,
        ],
      ];
      const unjudged = await runCoveAsync(['generate', ...roles('nw-unjudged')]);
      expect(unjudged.status, unjudged.stderr).toBe(0);
      expect(unjudged.stderr).toContain('note: no --judge');
      expect(lines(join(dir, 'nw-unjudged', 'sft.jsonl'))).toHaveLength(0);
      const [plain] = lines(join(dir, 'nw-unjudged', 'trajectories.jsonl'));
      expect(plain?.failure).toBe('not_judged');
      expect(((plain?.evaluation ?? {}) as { reward: unknown }).reward).toBe(null);
      const judged = await runCoveAsync([
        'generate',
        ...roles('nw-judged'),
        '--judge',
        'openai:mock',
        '--judge-base-url',
        mock.baseUrl,
      ]);
      expect(judged.status, judged.stderr).toBe(0);
      const [record] = lines(join(dir, 'nw-judged', 'trajectories.jsonl'));
      expect(record?.user_style).toBe('json');
      expect(record?.termination_reason).toBe('user_stop');
      expect(((record?.evaluation ?? {}) as { reward: unknown }).reward).toBe(1);
      expect(lines(join(dir, 'nw-judged', 'sft.jsonl'))).toHaveLength(1);
    } finally {
      await mock.close();
    }
  }, 300_000);

  it('cove synth judge judges saved trajectories alone; a deterministic failure stays a failure', async () => {
    const ids = lines(chinookTasks()).map((r) => String(r.id));
    const [pass, reject, retried, checkFails] = ids as [string, string, string, string];
    const script = join(dir, 'judge-script.json');
    writeFileSync(
      script,
      JSON.stringify({
        by_task: {
          // this time the judge rejects the first episode and passes the others
          [pass]: { judge: [verdict({ fail: [1, 1] })] },
          [reject]: { judge: [verdict()] },
          [retried]: { judge: [verdict({ excuse: [2, 1, 'call_missing'], errors: ['call_missing'] })] },
          [checkFails]: { judge: [verdict({ errors: ['call_bad'] })] },
        },
      }),
    );
    const mock = await startMockLlm(['--mode', 'script', '--script', script]);
    const out = join(dir, 'judged.jsonl');
    try {
      const r = await runCoveAsync([
        ...['synth', 'judge', '--in', join(dir, 'run', 'trajectories.jsonl'), '--tasks', chinookTasks()],
        ...[
          '--out',
          out,
          '--model',
          'openai:mock',
          '--base-url',
          mock.baseUrl,
          '--config',
          config,
          '--quiet',
        ],
      ]);
      expect(r.status, r.stderr).toBe(0);
      expect((await mock.stats()).byRole).toEqual({ judge: 4 });
    } finally {
      await mock.close();
    }
    const judged = new Map(lines(out).map((r) => [String(r.task_id), r]));
    const trajectories = lines(join(dir, 'run', 'trajectories.jsonl'));
    expect([...judged.values()].map((r) => r.id)).toEqual(trajectories.map((r) => r.id));
    const reward = (id: string) => ((judged.get(id)?.evaluation ?? {}) as { reward: number | null }).reward;
    expect([reward(pass), reward(reject), reward(retried), reward(checkFails)]).toEqual([0, 1, 1, 0]);
    expect(judged.get(pass)?.failure).toBe('judge_rejected');
    expect(judged.get(reject)?.failure).toBeUndefined();
    expect(judged.get(checkFails)?.failure).toBe('invalid_tool_call');
    const raw = ((judged.get(pass)?.evaluation ?? {}) as { report: { judge: { raw: string[] } } }).report
      .judge.raw;
    expect(JSON.parse(raw[0] ?? '{}').judgment).toBe('invalid');
    const summary = json(join(dir, 'judged.summary.json'));
    const usage = summary.usage as {
      calls: number;
      prompt_tokens: number;
      completion_tokens: number;
      cost_usd: number;
    };
    expect(summary).toMatchObject({ stage: 'judge', role: 'judge', records: 4 });
    expect(usage.calls).toBe(4);
    expect(usage.cost_usd).toBe(costOf(usage));
    expect(summary.counts).toMatchObject({
      judge_passed: 3,
      judge_rejected: 1,
      deterministic_failures: 1,
      passed: 2,
    });
  }, 300_000);

  it('refuses descriptive tasks with scripted roles, and tasks written against another database, naming the line', async () => {
    const spec = join(dir, 'chinook.json');
    const oracle = await runCoveAsync([
      'generate',
      '--domain-spec',
      spec,
      '--tasks',
      chinookTasks(),
      '--out',
      join(dir, 'x'),
    ]);
    expect(oracle.status).toBe(2);
    expect(oracle.stderr).toContain('holds descriptive tasks (no constraints to play from)');
    const tampered = join(dir, 'tampered.jsonl');
    copyFileSync(chinookTasks(), tampered);
    const text = readFileSync(tampered, 'utf8').split('\n');
    text[1] = (text[1] ?? '').replace(/"db_sha256":"[0-9a-f]{64}"/, `"db_sha256":"${'0'.repeat(64)}"`);
    writeFileSync(tampered, text.join('\n'));
    const models = [
      '--agent',
      'openai:m',
      '--agent-base-url',
      'http://127.0.0.1:9/v1',
      '--user',
      'openai:m',
      '--user-base-url',
      'http://127.0.0.1:9/v1',
    ];
    const other = await runCoveAsync([
      'generate',
      '--domain-spec',
      spec,
      '--tasks',
      tampered,
      '--out',
      join(dir, 'y'),
      ...models,
    ]);
    expect(other.status).toBe(2);
    expect(other.stderr).toContain(`${tampered}: line 2: task`);
    expect(other.stderr).toContain('was written against another database');
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(
      broken,
      `${text[0]}\n${(text[1] ?? '').replace('"difficulty":"easy"', '"difficulty":"trivial"')}\n`,
    );
    const bad = await runCoveAsync([
      'generate',
      '--domain-spec',
      spec,
      '--tasks',
      broken,
      '--out',
      join(dir, 'z'),
      ...models,
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${broken}: line 2 $.goals[1].difficulty:`);
    const noGoals = await runCoveAsync([
      ...[
        'synth',
        'judge',
        '--in',
        join(dir, 'run', 'trajectories.jsonl'),
        '--out',
        join(dir, 'nogoals.jsonl'),
      ],
      ...['--model', 'openai:m', '--base-url', 'http://127.0.0.1:9/v1', '--quiet'],
    ]);
    expect(noGoals.status).not.toBe(0);
    expect(noGoals.stderr).toContain('no goals to judge by');
  }, 300_000);
});
