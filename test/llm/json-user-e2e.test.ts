import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { type CliResult, runCove, runCoveAsync } from '../helpers/cli.js';
import { type MockLlmProcess, startMockLlm } from '../helpers/llm-mock-process.js';
import { readJson, readJsonl, readRecords } from '../helpers/run-files.js';

// `cove generate --user openai:mock --user-style json` against `cove mock-llm` on 127.0.0.1: once with the mock
// playing the scripted user as JSON turns (oracle mode, oracle agent), once replaying hand-written JSON-user
// replies per task (script mode: invalid JSON then valid, always invalid, a premature is_task_complete, empty
// messages, a fenced reply).

const N = 5;
const root = mkdtempSync(join(tmpdir(), 'cove-json-user-'));
const tasksFile = join(root, 'tasks.json');
const scriptFile = join(root, 'script.json');
const configFile = join(root, 'cove.json');
const oracleDir = join(root, 'oracle-json');
const stopTokenDir = join(root, 'oracle-stop-token');
const scriptDir = join(root, 'script');
const servers: MockLlmProcess[] = [];
let tasks: CoveTask[];
let oracleRun: CliResult;
let stopTokenRun: CliResult;
let scriptRun: CliResult;

const AGENT_LINE = 'Could you tell me a bit more about that?';
const turn = (user_message: string, is_task_complete: boolean) => ({
  content: JSON.stringify({ user_message, is_task_complete }),
});
const PLAIN = 'I want a refund for my last order.';
const EMPTY = JSON.stringify({ user_message: '', is_task_complete: false });
const BLANK = JSON.stringify({ user_message: '   ', is_task_complete: true });
/** Per task (by index): the JSON user's replies, the n-th reply going to the request holding n of its turns. */
const USER_SCRIPTS = [
  // invalid JSON, then valid: the retry's request holds the invalid reply, so it gets entry 1
  [
    { content: 'Sure! {"user_message": "hi"' },
    turn('I would like to check on an order.', false),
    turn('Thanks, that is all.', true),
  ],
  // never JSON
  [{ content: PLAIN }],
  // ends at once
  [turn('Actually, never mind. Goodbye!', true)],
  // empty messages only
  [{ content: EMPTY }, { content: BLANK }, { content: EMPTY }],
  // a JSON object in a code fence is accepted
  [
    {
      content: `\`\`\`json\n${JSON.stringify({ user_message: 'Bye for now.', is_task_complete: true })}\n\`\`\``,
    },
  ],
];

const userFlags = (baseUrl: string) => ['--user', 'openai:mock', '--user-base-url', baseUrl, '--quiet'];
const byTask = (records: readonly TrajectoryRecord[], i: number) =>
  records.find((r) => r.task_id === tasks[i]?.id) as TrajectoryRecord;
const userTexts = (r: TrajectoryRecord) =>
  r.messages.filter((m) => m.role === 'user').map((m) => m.content as string);

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
      agent: [{ content: AGENT_LINE }],
      tasks: Object.fromEntries(tasks.map((t, i) => [t.id, { user: USER_SCRIPTS[i] }])),
    }),
  );
  writeFileSync(configFile, JSON.stringify({ roles: { user: { style: 'json' } } }));
  const [jsonMock, textMock, scriptMock] = await Promise.all([
    startMockLlm(['--tasks', tasksFile, '--user-style', 'json']),
    startMockLlm(['--tasks', tasksFile]),
    startMockLlm(['--mode', 'script', '--script', scriptFile]),
  ]);
  servers.push(jsonMock, textMock, scriptMock);
  [oracleRun, stopTokenRun, scriptRun] = await Promise.all([
    // the style from the config file
    runCoveAsync(
      [
        'generate',
        '--tasks',
        tasksFile,
        ...userFlags(jsonMock.baseUrl),
        '--config',
        configFile,
        '--out',
        oracleDir,
      ],
      { timeoutMs: 150_000 },
    ),
    runCoveAsync(['generate', '--tasks', tasksFile, ...userFlags(textMock.baseUrl), '--out', stopTokenDir], {
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
        scriptMock.baseUrl,
        ...userFlags(scriptMock.baseUrl),
        '--user-style',
        'json',
        '--out',
        scriptDir,
      ],
      { timeoutMs: 150_000 },
    ),
  ]);
  await Promise.all(servers.splice(0).map((s) => s.close()));
}, 200_000);

afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});

describe('the JSON user with the oracle agent (mock-llm playing the scripted user as JSON)', () => {
  it('ends every episode by is_task_complete, passing as the stop-token user does', () => {
    expect(oracleRun.stderr).not.toMatch(/^cove: /m);
    expect(oracleRun.status).toBe(0);
    const records = readRecords(oracleDir);
    expect(records).toHaveLength(N);
    for (const r of records) {
      expect(r).toMatchObject({ user: 'openai:mock', user_style: 'json', termination_reason: 'user_stop' });
      expect(r.settings.guidelines).toBe('cove-json-1');
      expect(r.verification?.score).toBe(1);
      // the closing turn carries no stop token: is_task_complete ended it
      for (const text of userTexts(r)) expect(text).not.toContain('###');
    }
    expect(readJsonl(join(oracleDir, 'sft.jsonl'))).toHaveLength(N);
    // the same conversations in the stop-token style, where the last user turn holds ###STOP###
    expect(stopTokenRun.status).toBe(0);
    const plain = readRecords(stopTokenDir);
    for (const r of plain) {
      expect(r).toMatchObject({ user_style: 'stop-token', termination_reason: 'user_stop' });
      expect(r.settings.guidelines).toBe('cove-1');
      const json = records.find((j) => j.task_id === r.task_id) as TrajectoryRecord;
      const last = userTexts(r).at(-1) as string;
      expect(last).toContain('###STOP###');
      expect(userTexts(json).at(-1)).toBe(last.replace('###STOP###', '').trim());
      expect(json.messages).toHaveLength(r.messages.length);
    }
  });

  it('keeps the style in the run fingerprint: another style never resumes the folder', () => {
    const runJson = readJson<{ fingerprint: Record<string, unknown> }>(join(oracleDir, 'run.json'));
    expect(runJson.fingerprint.user_style).toBe('json');
    const plainRun = readJson<{ fingerprint: Record<string, unknown> }>(join(stopTokenDir, 'run.json'));
    expect(plainRun.fingerprint.user_style).toBeUndefined();
    const again = runCove([
      'generate',
      '--tasks',
      tasksFile,
      ...userFlags('http://127.0.0.1:9/v1'),
      '--out',
      oracleDir,
    ]);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('user_style "json" → (absent)');
  });
});

describe('the JSON user replaying scripted replies (mock-llm script mode)', () => {
  it('runs one episode per task', () => {
    expect(scriptRun.stderr).not.toMatch(/^cove: /m);
    expect(scriptRun.status).toBe(0);
    expect(readRecords(scriptDir)).toHaveLength(N);
  });

  it('retries invalid JSON with a corrective message and continues the episode', () => {
    const r = byTask(readRecords(scriptDir), 0);
    expect(r.termination_reason).toBe('user_stop');
    expect(r.user_style).toBe('json');
    // entry 1 answers the retry and the second turn (one earlier turn each), entry 2 the third
    expect(userTexts(r)).toEqual([
      'I would like to check on an order.',
      'I would like to check on an order.',
      'Thanks, that is all.',
    ]);
    expect(
      r.messages
        .filter((m) => m.role === 'assistant')
        .slice(1)
        .map((m) => m.content),
    ).toEqual([AGENT_LINE, AGENT_LINE]);
  });

  it('ends as a user failure with the raw replies kept when no reply is valid', () => {
    const r = byTask(readRecords(scriptDir), 1);
    expect(r.termination_reason).toBe('user_error');
    expect(r.messages).toHaveLength(1); // the greeting only
    expect(r.termination_detail).toContain('3 attempts (last: it was not valid JSON)');
    expect(r.termination_detail).toContain(`raw replies: ${JSON.stringify([PLAIN, PLAIN, PLAIN])}`);
    expect(readJsonl<{ task_id?: string }>(join(scriptDir, 'sft.jsonl')).length).toBe(0);
  });

  it('ends the episode on a premature is_task_complete', () => {
    const r = byTask(readRecords(scriptDir), 2);
    expect(r.termination_reason).toBe('user_stop');
    expect(userTexts(r)).toEqual(['Actually, never mind. Goodbye!']);
    expect(r.messages).toHaveLength(2);
    expect(r.verification?.score).not.toBe(1);
  });

  it('refuses empty messages (also with is_task_complete)', () => {
    const r = byTask(readRecords(scriptDir), 3);
    expect(r.termination_reason).toBe('user_error');
    expect(r.termination_detail).toContain('(last: "user_message" must not be empty)');
    expect(r.termination_detail).toContain(`raw replies: ${JSON.stringify([EMPTY, BLANK, EMPTY])}`);
  });

  it('accepts a reply inside a code fence', () => {
    const r = byTask(readRecords(scriptDir), 4);
    expect(r.termination_reason).toBe('user_stop');
    expect(userTexts(r)).toEqual(['Bye for now.']);
  });
});

describe('--user-style flags', () => {
  it('refuses unknown styles and a style without a model user', () => {
    const bad = runCove([
      'generate',
      '--n',
      '1',
      '--user',
      'openai:m',
      '--user-style',
      'xml',
      '--out',
      join(root, 'x'),
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--user-style must be stop-token or json, not 'xml'");
    const scripted = runCove(['generate', '--n', '1', '--user-style', 'json', '--out', join(root, 'y')]);
    expect(scripted.status).toBe(2);
    expect(scripted.stderr).toContain(
      '--user-style applies to a model-played user, but the user is scripted',
    );
  });
});
