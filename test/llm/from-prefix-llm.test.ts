import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCoveAsync } from '../helpers/cli.js';
import { type MockLlmProcess, spawnCove, startMockLlm } from '../helpers/llm-mock-process.js';
import { readJsonl, readRecords, stableRecords } from '../helpers/run-files.js';

// `cove generate --from` with a model-played JSON user (`cove mock-llm` on 127.0.0.1 playing the scripted user
// as JSON turns) and the oracle agent: the model user continues the conversation, and a run killed with SIGKILL
// and started again loses and duplicates nothing.
vi.setConfig({ testTimeout: 150_000 });

const N = 6;
const root = mkdtempSync(join(tmpdir(), 'cove-from-llm-'));
const chats = join(root, 'chats.jsonl');
const refDir = join(root, 'ref');
const fullDir = join(root, 'full');
const killedDir = join(root, 'killed');
let mock: MockLlmProcess;

const CHATS = [
  {
    id: 'weather',
    messages: [
      { role: 'user', content: 'Is it going to rain in Denver tomorrow?' },
      { role: 'assistant', content: 'I cannot check the weather, sorry; I help with orders and accounts.' },
    ],
  },
  {
    id: 'returns-policy',
    messages: [
      { role: 'assistant', content: 'Hi! How can I help you today?' },
      { role: 'user', content: 'How long do I have to return something?' },
      {
        role: 'assistant',
        content: 'Delivered items can be returned; I can start a return whenever you like.',
      },
    ],
  },
];

const command = (out: string, baseUrl: string) => [
  'generate',
  '--from',
  chats,
  '--n',
  String(N),
  '--user',
  'openai:mock',
  '--user-base-url',
  baseUrl,
  '--user-style',
  'json',
  '--concurrency',
  '1',
  '--quiet',
  '--out',
  out,
];

beforeAll(async () => {
  writeFileSync(chats, `${CHATS.map((c) => JSON.stringify(c)).join('\n')}\n`);
  // the tasks a --from run draws (seed 1, sandbox 1, these conversations), for the mock to play their user
  const ref = await runCoveAsync(['generate', '--from', chats, '--n', String(N), '--out', refDir, '--quiet']);
  if (ref.status !== 0) throw new Error(`reference run failed: ${ref.stderr}`);
  mock = await startMockLlm([
    '--tasks',
    join(refDir, 'tasks.json'),
    '--user-style',
    'json',
    '--latency-ms',
    '40',
  ]);
}, 180_000);

afterAll(async () => {
  await mock?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('--from with a model-played JSON user', () => {
  it('continues each conversation: the prefix first, then the model user brings up its need', async () => {
    const r = await runCoveAsync(command(fullDir, mock.baseUrl), { timeoutMs: 150_000 });
    expect(r.stderr).not.toMatch(/^cove: /m);
    expect(r.status).toBe(0);
    const records = readRecords(fullDir);
    expect(records).toHaveLength(N);
    for (const r of records) {
      const chat = CHATS[r.task_index % 2] as (typeof CHATS)[number];
      expect(r).toMatchObject({ user: 'openai:mock', user_style: 'json', termination_reason: 'user_stop' });
      expect(r.prefix?.id).toBe(chat.id);
      const given = r.messages.slice(0, chat.messages.length);
      expect(given.map(({ role, content }) => ({ role, content }))).toEqual(chat.messages);
      expect(given.every((m) => m.cove_prefix === true)).toBe(true);
      // the model user speaks right after the prefix, its messages unmarked; the greeting is not added
      const own = r.messages.slice(chat.messages.length);
      expect(own[0]?.role).toBe('user');
      expect(own.some((m) => m.cove_prefix === true)).toBe(false);
      expect(r.messages.filter((m) => m.content === 'Hi! How can I help you today?')).toHaveLength(
        chat.id === 'returns-policy' ? 1 : 0,
      );
      expect(r.verification?.score).toBe(1);
      // token usage is counted for the model user's own turns only (none for prefix messages)
      for (const u of r.usage.per_message ?? [])
        expect(u.message_index).toBeGreaterThanOrEqual(chat.messages.length);
    }
    // the same tasks as the scripted reference run (drawn from the same prefix states)
    expect(readFileSync(join(fullDir, 'tasks.json'), 'utf8')).toBe(
      readFileSync(join(refDir, 'tasks.json'), 'utf8'),
    );
  });

  it('resumes after SIGKILL without losing or duplicating an episode', async () => {
    const child = spawnCove(command(killedDir, mock.baseUrl));
    const log = join(killedDir, 'trajectories.jsonl');
    const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').length - 1 : 0);
    const deadline = Date.now() + 120_000;
    while (lines() < 2 && child.running() && Date.now() < deadline)
      await new Promise((d) => setTimeout(d, 25));
    expect(child.running()).toBe(true); // killed mid-run, not after it finished
    child.signal('SIGKILL');
    const killed = await child.result;
    expect(killed.signal).toBe('SIGKILL');
    const before = readJsonl<{ id: string }>(log).length;
    expect(before).toBeGreaterThanOrEqual(2);
    expect(before).toBeLessThan(N);

    const again = await runCoveAsync(command(killedDir, mock.baseUrl), { timeoutMs: 150_000 });
    expect(again.stderr).not.toMatch(/^cove: /m);
    expect(again.status).toBe(0);
    expect(again.stderr).toContain(`(${N - before} new)`);
    const records = readRecords(killedDir);
    expect(new Set(records.map((r) => r.id)).size).toBe(N);
    expect(records).toHaveLength(N);
    // the resumed run holds exactly the episodes of the uninterrupted one
    expect(stableRecords(records)).toEqual(stableRecords(readRecords(fullDir)));
    expect(readFileSync(join(killedDir, 'sft.jsonl'), 'utf8')).toBe(
      readFileSync(join(fullDir, 'sft.jsonl'), 'utf8'),
    );
  });
});
