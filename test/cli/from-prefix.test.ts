import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { createLibraryDb } from '../../src/testing/tiny-domain/index.js';
import { type CliResult, runCove, runCoveAsync } from '../helpers/cli.js';
import { readJson, readJsonl, readRecords } from '../helpers/run-files.js';

// `cove generate --from <conversations.jsonl>` with the scripted roles (issue 20 item 2): plain-chat prefixes,
// a prefix whose write call is replayed before the task is drawn, malformed files, the fingerprint, exports.
vi.setConfig({ testTimeout: 120_000 });

const root = mkdtempSync(join(tmpdir(), 'cove-from-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const file = (name: string, lines: readonly unknown[]) => {
  const path = join(root, name);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  return path;
};

const CHATS = [
  {
    id: 'chat-hours',
    messages: [
      { role: 'user', content: 'What time do you open on Sundays?' },
      { role: 'assistant', content: 'Our online support is open every day, Sundays included.' },
    ],
  },
  {
    id: 'chat-canada',
    messages: [
      { role: 'assistant', content: 'Hi! How can I help you today?' },
      { role: 'user', content: 'Do you ship to Canada?' },
      { role: 'assistant', content: 'Yes, we ship to Canada; delivery takes about a week.' },
    ],
  },
];

// In sandbox 1 with seed 1 (no prefix), task 0 changes the address of pending order #W5946105 (checked below on
// a run without --from); this prefix cancels that order first.
const ORDER = '#W5946105';
const CANCEL = {
  id: 'cancel-first',
  messages: [
    { role: 'user', content: `Please cancel order ${ORDER}, I ordered it by mistake.` },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_1', // the id the oracle agent gives its own first call
          type: 'function',
          function: {
            name: 'cancel_pending_order',
            arguments: JSON.stringify({ order_id: ORDER, reason: 'ordered by mistake' }),
          },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'cancelled' },
    { role: 'assistant', content: `Order ${ORDER} is cancelled.` },
  ],
};
const PENDING_WRITES = new Set([
  'cancel_pending_order',
  'modify_pending_order_address',
  'modify_pending_order_items',
  'modify_pending_order_payment',
]);
const targets = (tasks: readonly CoveTask[]) =>
  tasks.flatMap((t) =>
    t.cove.constraints
      .filter((c) => PENDING_WRITES.has(c.kind))
      .map((c) => (c.args as { order_id?: string }).order_id),
  );

let chats: string;
let plainRun: CliResult;
let cancelRun: CliResult;
let freshRun: CliResult;
const plainDir = join(root, 'plain');
const cancelDir = join(root, 'cancel');
const freshDir = join(root, 'fresh');

beforeAll(async () => {
  chats = file('chats.jsonl', CHATS);
  const cancel = file('cancel.jsonl', [CANCEL]);
  [plainRun, cancelRun, freshRun] = await Promise.all([
    runCoveAsync(['generate', '--n', '4', '--from', chats, '--out', plainDir, '--quiet']),
    runCoveAsync(['generate', '--n', '4', '--from', cancel, '--out', cancelDir, '--quiet']),
    runCoveAsync(['generate', '--n', '4', '--out', freshDir, '--quiet']),
  ]);
}, 180_000);

const prefixOf = (r: TrajectoryRecord) => r.messages.filter((m) => m.cove_prefix === true);
const ownOf = (r: TrajectoryRecord) => r.messages.filter((m) => m.cove_prefix !== true);

describe('a plain-chat prefix', () => {
  it('pairs task i with conversation i mod 2 and records the pairing in tasks and trajectories', () => {
    expect(plainRun.stderr).not.toMatch(/^cove: /m);
    expect(plainRun.status).toBe(0);
    const tasks = readJson<CoveTask[]>(join(plainDir, 'tasks.json'));
    expect(tasks.map((t) => t.cove.prefix)).toEqual([
      { id: 'chat-hours', index: 0 },
      { id: 'chat-canada', index: 1 },
      { id: 'chat-hours', index: 0 },
      { id: 'chat-canada', index: 1 },
    ]);
    const records = readRecords(plainDir);
    expect(records).toHaveLength(4);
    for (const r of records) {
      const chat = CHATS[r.task_index % 2] as (typeof CHATS)[number];
      expect(r.prefix).toMatchObject({ id: chat.id, index: r.task_index % 2 });
      // the conversation opens with the prefix as given, marked, and no greeting is added before it
      expect(prefixOf(r).map(({ role, content }) => ({ role, content }))).toEqual(chat.messages);
      expect(r.messages.slice(0, chat.messages.length).every((m) => m.cove_prefix === true)).toBe(true);
      // the scripted user brings up its request with a bridge sentence, and no greeting
      const first = ownOf(r)[0];
      expect(first?.role).toBe('user');
      expect(first?.content).toMatch(/^(Thanks|Okay|Got it|Great|Alright)\b/);
      expect(first?.content).not.toMatch(/\b(Hi|Hello|Hey)\b/);
      expect(r.termination_reason).toBe('user_stop');
      expect(r.verification?.score).toBe(1);
      // the plain chats change nothing: the state after them is the run's DB
      expect(r.prefix?.state_sha256).toBe(r.db_sha256);
    }
  });

  it('keeps the prefix in sft.jsonl with weight 0 on its assistant messages', () => {
    const rows = readJsonl<{ messages: Record<string, unknown>[] }>(join(plainDir, 'sft.jsonl'));
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      const marked = row.messages.filter((m) => m.cove_prefix === true);
      expect(marked.length).toBeGreaterThanOrEqual(2);
      for (const m of marked) if (m.role === 'assistant') expect(m.weight).toBe(0);
      for (const m of row.messages) if (m.cove_prefix !== true) expect(m).not.toHaveProperty('weight');
    }
  });

  it('gives prefix messages weight 0 in every export format (or leaves the row out where it cannot)', () => {
    const out = (f: string) => join(root, `export-${f}`);
    for (const format of ['openai', 'hf', 'sharegpt', 'verl', 'tau2']) {
      const r = runCove(['export', '--in', plainDir, '--format', format, '--out', out(format)]);
      expect(r.status, r.stderr).toBe(0);
    }
    const openai = readJsonl<{ messages: Record<string, unknown>[] }>(join(out('openai'), 'data.jsonl'));
    expect(openai).toHaveLength(4);
    for (const row of openai) {
      const assistants = row.messages.filter((m) => m.role === 'assistant');
      const given = row.messages[1]?.role === 'assistant' ? 2 : 1; // chat-canada: greeting + answer
      expect(assistants.slice(0, given).map((m) => m.weight)).toEqual(Array(given).fill(0));
      expect(assistants.slice(given).every((m) => m.weight === 1)).toBe(true);
      expect(row.messages.every((m) => !('cove_prefix' in m))).toBe(true);
    }
    const hf = readJsonl<{ messages: Record<string, unknown>[] }>(join(out('hf'), 'data.jsonl'));
    for (const row of hf) {
      const marked = row.messages.filter((m) => m.train === false);
      expect(marked.every((m) => m.role === 'assistant' && m.weight === 0)).toBe(true);
      expect(marked.length).toBe(row.messages[1]?.role === 'assistant' ? 2 : 1);
    }
    // LLaMA-Factory and verl train every assistant turn: such conversations are left out, and the card says why
    expect(readFileSync(join(out('sharegpt'), 'data.jsonl'), 'utf8')).toBe('');
    for (const f of ['sharegpt', 'verl'])
      expect(readFileSync(join(out(f), 'README.md'), 'utf8')).toContain('| prefix_not_maskable | 4 |');
  });
});

describe('a prefix with a write call', () => {
  it('replays the call before the task draw: the cancelled order is no longer drawn for a pending-order write', () => {
    expect(freshRun.status).toBe(0);
    expect(cancelRun.stderr).not.toMatch(/^cove: /m);
    expect(cancelRun.status).toBe(0);
    // the reference: without the prefix, task 0 writes to the order the prefix cancels
    expect(targets(readJson<CoveTask[]>(join(freshDir, 'tasks.json')))).toContain(ORDER);
    const tasks = readJson<CoveTask[]>(join(cancelDir, 'tasks.json'));
    expect(tasks).toHaveLength(4);
    expect(targets(tasks)).not.toContain(ORDER);
  });

  it('runs each episode on the state after the call, with the replayed output in the tool message', () => {
    const records = readRecords(cancelDir);
    expect(records).toHaveLength(4);
    for (const r of records) {
      expect(r.prefix?.id).toBe('cancel-first');
      expect(r.prefix?.state_sha256).not.toBe(r.db_sha256);
      const tool = prefixOf(r).find((m) => m.role === 'tool');
      // the database's answer replaces the text of the file
      expect(tool?.content).toContain(`"order_id": "${ORDER}"`);
      expect(tool?.content).toContain('"status": "cancelled"');
      // tool-call ids stay unique in the conversation: the oracle's clashing call_1 is renamed
      const ids = r.messages.flatMap((m) =>
        m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : [],
      );
      expect(ids[0]).toBe('call_1');
      expect(ids).toContain('call_1_2');
      expect(new Set(ids).size).toBe(ids.length);
      // the prefix's call is not the agent's: verified, not counted as a redundant write
      expect(r.verification).toMatchObject({ score: 1, stateMatch: true, redundant: [] });
    }
    expect(readJsonl(join(cancelDir, 'sft.jsonl'))).toHaveLength(4);
  });

  it('counts only the episode’s own messages in summary.json (per episode and in the conversation measures)', () => {
    const records = readRecords(cancelDir);
    const summary = readJson<{
      per_episode: { tool_calls: { max: number }; messages: { max: number } };
      conversation: { user_messages: number };
    }>(join(cancelDir, 'summary.json'));
    const own = records.map(ownOf);
    expect(summary.per_episode.messages.max).toBe(Math.max(...own.map((m) => m.length)));
    expect(summary.per_episode.tool_calls.max).toBe(
      Math.max(...own.map((m) => m.filter((x) => x.role === 'tool').length)),
    );
    expect(summary.conversation.user_messages).toBe(
      own.flat().filter((m) => m.role === 'user' && (m.content as string).trim() !== '').length,
    );
  });
});

describe('the conversations file and the run identity', () => {
  it.each([
    ['not JSON', ['{"id": "a", "messages": ['], 'line 1, $: is not JSON'],
    ['no id', [CHATS[0], { messages: CHATS[0]?.messages }], 'line 2, $.id: missing'],
    ['a duplicate id', [CHATS[0], '', CHATS[0]], "line 3, $.id: 'chat-hours' is also the id on line 1"],
    [
      'a system message',
      [{ id: 's', messages: [{ role: 'system', content: 'Be brief.' }, ...(CHATS[0]?.messages ?? [])] }],
      "line 1, $.messages[0].role: is 'system'",
    ],
    [
      'an empty user message',
      [
        {
          id: 'e',
          messages: [
            { role: 'user', content: ' ' },
            { role: 'assistant', content: 'Yes?' },
          ],
        },
      ],
      'line 1, $.messages[0].content: must not be empty',
    ],
    [
      'a tool result without its call',
      [
        {
          id: 't',
          messages: [
            { role: 'tool', tool_call_id: 'x', content: '{}' },
            { role: 'assistant', content: 'Ok.' },
          ],
        },
      ],
      "line 1, $.messages[0].tool_call_id: 'x' answers no open tool call",
    ],
    [
      'an end on the user',
      [{ id: 'u', messages: [{ role: 'user', content: 'Hello?' }] }],
      "line 1, $.messages[0].role: is 'user': a prefix must end with a reply of the agent",
    ],
  ])('a file with %s is refused, naming the line and the field', (_what, lines, message) => {
    const r = runCove([
      'generate',
      '--n',
      '1',
      '--from',
      file('bad.jsonl', lines),
      '--out',
      join(root, 'bad'),
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(root, 'bad.jsonl')}: ${message}`);
  });

  const call = (name: string, args: Record<string, unknown>) => ({
    id: 'c9',
    messages: [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'k1', type: 'function', function: { name, arguments: JSON.stringify(args) } }],
      },
      { role: 'tool', tool_call_id: 'k1', content: '' },
      { role: 'assistant', content: 'Done.' },
    ],
  });
  it.each([
    [
      'a tool the domain lacks',
      call('launch_rocket', {}),
      "line 1, $.messages[0].tool_calls[0].function.name: conversation 'c9', call 'k1' to launch_rocket: the retail domain has no tool launch_rocket",
    ],
    [
      'a call that fails on the database',
      call('cancel_pending_order', { order_id: '#W0000000', reason: 'no longer needed' }),
      "line 1, $.messages[0].tool_calls[0]: conversation 'c9', call 'k1' to cancel_pending_order: replaying it on the run's database failed: Error: Order not found",
    ],
  ])('a prefix with %s is refused, naming the conversation and the call', (_what, line, message) => {
    const r = runCove([
      'generate',
      '--n',
      '1',
      '--from',
      file('calls.jsonl', [line]),
      '--out',
      join(root, 'calls'),
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('puts the file’s hash in the fingerprint: a changed file does not resume the folder', () => {
    const fingerprint = readJson<{ fingerprint: Record<string, unknown> }>(
      join(plainDir, 'run.json'),
    ).fingerprint;
    expect(fingerprint.from).toMatch(/^[0-9a-f]{64}$/);
    const changed = file('chats-changed.jsonl', [CHATS[1], CHATS[0]]);
    const r = runCove(['generate', '--n', '4', '--from', changed, '--out', plainDir, '--quiet']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('from');
    // the same file resumes: nothing new runs
    const again = runCove(['generate', '--n', '4', '--from', chats, '--out', plainDir, '--quiet']);
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('(0 new)');
  });

  it.each([
    [['--tasks', 'tasks.json'], '--from cannot be used with --tasks'],
    [['--queue', 'redis://127.0.0.1:9'], '--queue cannot run --from yet'],
  ])('refuses --from with %j', (extra, message) => {
    const r = runCove(['generate', '--from', chats, ...extra, '--out', join(root, 'refused')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('refuses the tasks of a --from run as a --tasks file, naming the task', () => {
    const r = runCove([
      'generate',
      '--tasks',
      join(plainDir, 'tasks.json'),
      '--out',
      join(root, 'from-tasks'),
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('$[0].cove.prefix: task');
    expect(r.stderr).toContain("continues conversation 'chat-hours'");
  });
});

describe('a SQL domain', () => {
  it('replays a write of a --domain-spec tool and continues the conversation with the scripted roles', () => {
    const db = join(root, 'library.sqlite');
    const spec = join(root, 'library.json');
    createLibraryDb(db, { seed: 9, members: 25 });
    expect(runCove(['synth', 'tools', '--db', db, '--out', spec]).status).toBe(0);
    // member m_dev_100 is 'Dev Reyes' in this database (seed 9)
    const rename = file('rename.jsonl', [
      {
        id: 'rename',
        messages: [
          { role: 'user', content: 'Please fix my name to Dev Reyes-Park; I am member m_dev_100.' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'a1',
                type: 'function',
                function: {
                  name: 'update_members_name',
                  arguments: JSON.stringify({ member_id: 'm_dev_100', name: 'Dev Reyes-Park' }),
                },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'a1', content: 'ok' },
          { role: 'assistant', content: 'Done: your name is now Dev Reyes-Park.' },
        ],
      },
    ]);
    const out = join(root, 'sql');
    const r = runCove([
      'generate',
      '--domain-spec',
      spec,
      '--from',
      rename,
      '--n',
      '3',
      '--out',
      out,
      '--quiet',
    ]);
    expect(r.stderr).not.toMatch(/^cove: /m);
    expect(r.status).toBe(0);
    const records = readRecords(out);
    expect(records).toHaveLength(3);
    for (const rec of records) {
      expect(prefixOf(rec).find((m) => m.role === 'tool')?.content).toBe(
        '{"member_id": "m_dev_100", "name": "Dev Reyes-Park", "email": "dev.reyes0@example.org"}',
      );
      expect(rec.prefix?.state_sha256).not.toBe(rec.db_sha256);
      expect(ownOf(rec)[0]?.content).toMatch(/^(Thanks|Okay|Got it|Great|Alright)\b/);
      expect(rec.verification).toMatchObject({ score: 1, stateMatch: true });
    }
  });
});
