import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { AIRLINE_DB } from '../helpers/airline-base.js';
import { type CliResult, runCove, runCoveAsync } from '../helpers/cli.js';
import { readJson, readRecords } from '../helpers/run-files.js';

// `cove generate --from` where the conversation already identified a customer (issue 20 item 2, follow-up): the
// tasks paired with it are about that customer, on Retail's default sandbox (seed 1) with the scripted roles.
vi.setConfig({ testTimeout: 120_000 });

const root = mkdtempSync(join(tmpdir(), 'cove-from-user-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const file = (name: string, lines: readonly unknown[]) => {
  const path = join(root, name);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n'));
  return path;
};

// Users of sandbox 1 (read from its users table): Tyree Considine (email tyree.considine8833@example.com) and
// Ferne Zieme (zip 40588).
const TYREE = 'tyree_considine_5864';
const FERNE = 'ferne_zieme_7905';
const lookup = (id: string, name: string, args: Record<string, unknown>, said: string) => ({
  id,
  messages: [
    { role: 'user', content: said },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'p1', type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    },
    { role: 'tool', tool_call_id: 'p1', content: '(filled in by the replay)' },
    { role: 'assistant', content: 'Thanks, I have found your account. What can I do for you?' },
  ],
});
const BY_EMAIL = lookup(
  'by-email',
  'find_user_id_by_email',
  { email: 'tyree.considine8833@example.com' },
  'Hi, I am Tyree, my email is tyree.considine8833@example.com.',
);
const BY_NAME_ZIP = lookup(
  'by-name-zip',
  'find_user_id_by_name_zip',
  { first_name: 'Ferne', last_name: 'Zieme', zip: '40588' },
  'Hello, Ferne Zieme here, zip code 40588.',
);
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

// The golden of the plain chats: the users and kinds of `cove generate --n 4 --from <CHATS>` recorded with the
// code before the pin (commit 4c0d990); a chat that identifies nobody must draw exactly these.
const PLAIN_GOLDEN = [
  ['eleazar_crist_8480', ['modify_pending_order_address', 'refusal', 'refusal']],
  ['ferne_zieme_7905', ['modify_user_address']],
  ['trever_grant_1540', ['modify_pending_order_address']],
  [
    'thomas_nienow_2097',
    [
      'cancel_pending_order',
      'modify_pending_order_address',
      'return_delivered_order_items',
      'refusal',
      'modify_user_address',
    ],
  ],
];

// the user with the most reservations in τ²'s airline db.json (13): tasks of up to six constraints can be drawn
const LUCAS = 'lucas_wilson_8118';
const AIRLINE_DETAILS = lookup(
  'lucas-details',
  'get_user_details',
  { user_id: LUCAS },
  `Hi, my user id is ${LUCAS}. What is my membership level?`,
);

let pinned: CliResult;
let plain: CliResult;
let airline: CliResult;
const pinnedDir = join(root, 'pinned');
const plainDir = join(root, 'plain');
const airlineDir = join(root, 'airline');

beforeAll(async () => {
  [pinned, plain, airline] = await Promise.all([
    runCoveAsync([
      'generate',
      '--n',
      '6',
      '--from',
      file('lookups.jsonl', [BY_EMAIL, BY_NAME_ZIP]),
      '--out',
      pinnedDir,
      '--quiet',
    ]),
    runCoveAsync([
      'generate',
      '--n',
      '4',
      '--from',
      file('chats.jsonl', CHATS),
      '--out',
      plainDir,
      '--quiet',
    ]),
    runCoveAsync([
      'generate',
      '--domain',
      'airline',
      '--db',
      AIRLINE_DB,
      '--n',
      '6',
      '--from',
      file('airline.jsonl', [AIRLINE_DETAILS]),
      '--out',
      airlineDir,
      '--quiet',
    ]),
  ]);
}, 180_000);

describe('a prefix that identified a Retail customer', () => {
  it('gives tasks about that customer, and the oracle episodes on them score 1', () => {
    expect(pinned.stderr).not.toMatch(/^cove: /m);
    expect(pinned.status).toBe(0);
    const tasks = readJson<CoveTask[]>(join(pinnedDir, 'tasks.json'));
    expect(tasks.map((t) => [t.cove.prefix?.id, t.cove.user_id])).toEqual([
      ['by-email', TYREE],
      ['by-name-zip', FERNE],
      ['by-email', TYREE],
      ['by-name-zip', FERNE],
      ['by-email', TYREE],
      ['by-name-zip', FERNE],
    ]);
    const records = readRecords(pinnedDir);
    expect(records).toHaveLength(6);
    for (const r of records) {
      expect(r.verification).toMatchObject({ score: 1, stateMatch: true });
      // the agent knows the customer: it is not asked who they are, nor does the customer say so unasked
      const own = r.messages.filter((m) => m.cove_prefix !== true);
      const texts = (role: string) =>
        own.flatMap((m) => (m.role === role && typeof m.content === 'string' ? [m.content] : []));
      expect(texts('user')[0]).toMatch(/^(Thanks|Okay|Got it|Great|Alright)\b/);
      expect(texts('user')[0]).not.toMatch(/\b(Hi|Hello|Hey)\b/);
      for (const t of texts('user')) expect(t).not.toMatch(/@|e-?mail|zip/i);
      for (const t of texts('assistant')) expect(t).not.toMatch(/e-?mail|zip code|full name/i);
      // the oracle re-reads the account without asking (the episode's own identify read, as its policy wants)
      const first = own.find((m) => m.role === 'assistant');
      expect(first?.role === 'assistant' ? first.tool_calls?.[0]?.function.name : undefined).toMatch(
        /^find_user_id_by_(email|name_zip)$/,
      );
      // the replay's answer: the lookup's result is the user id
      expect(r.messages.find((m) => m.role === 'tool' && m.cove_prefix === true)?.content).toBe(
        r.task_index % 2 === 0 ? TYREE : FERNE,
      );
    }
  });

  it('refuses a run whose pinned customer cannot carry the task, naming the conversation and the user', () => {
    // Ferne Zieme has too few orders for six constraints
    const r = runCove([
      'generate',
      '--n',
      '2',
      '--k',
      '6',
      '--from',
      file('ferne.jsonl', [BY_NAME_ZIP]),
      '--out',
      join(root, 'too-many'),
      '--quiet',
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      `conversation 'by-name-zip' identified user ${FERNE}, and the tasks paired with it must be about that user`,
    );
    expect(r.stderr).toContain(`about user ${FERNE}`);
  });
});

describe('a prefix that identified an Airline customer', () => {
  it('gives tasks about that customer; the oracle reads their details without asking, and scores 1', () => {
    expect(airline.stderr).not.toMatch(/^cove: /m);
    expect(airline.status).toBe(0);
    const tasks = readJson<CoveTask[]>(join(airlineDir, 'tasks.json'));
    expect(tasks.map((t) => t.cove.user_id)).toEqual(Array(6).fill(LUCAS));
    const records = readRecords(airlineDir);
    expect(records).toHaveLength(6);
    for (const r of records) {
      expect(r.verification).toMatchObject({ score: 1, stateMatch: true });
      const own = r.messages.filter((m) => m.cove_prefix !== true);
      const first = own.find((m) => m.role === 'assistant');
      expect(first?.role === 'assistant' ? first.tool_calls?.[0]?.function : undefined).toEqual({
        name: 'get_user_details',
        arguments: `{"user_id": "${LUCAS}"}`,
      });
      for (const m of own) {
        if (typeof m.content !== 'string') continue;
        if (m.role === 'user') expect(m.content).not.toContain(LUCAS);
        if (m.role === 'assistant') expect(m.content).not.toMatch(/user id/i);
      }
    }
  });
});

describe('a plain chat', () => {
  it('draws the tasks it drew before the pin (golden from the code before the change)', () => {
    expect(plain.status).toBe(0);
    const tasks = readJson<CoveTask[]>(join(plainDir, 'tasks.json'));
    expect(tasks.map((t) => [t.cove.user_id, t.cove.constraints.map((c) => c.kind)])).toEqual(PLAIN_GOLDEN);
  });
});
