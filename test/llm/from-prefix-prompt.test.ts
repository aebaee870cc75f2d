import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCoveAsync } from '../helpers/cli.js';
import { readRecords } from '../helpers/run-files.js';

// What a model user is sent when it continues a conversation (`cove generate --from`): a real HTTP server on
// 127.0.0.1 records each request and answers with a closing user turn, in both user styles.

interface Request {
  readonly taskId: string;
  readonly messages: readonly { role: string; content: string }[];
}
const requests: Request[] = [];
let server: Server;
let url = '';
const root = mkdtempSync(join(tmpdir(), 'cove-from-prompt-'));
const chats = join(root, 'chats.jsonl');
const CHATS = [
  {
    id: 'hours',
    messages: [
      { role: 'user', content: 'What time do you open on Sundays?' },
      { role: 'assistant', content: 'Our online support is open every day, Sundays included.' },
    ],
  },
  {
    id: 'canada',
    messages: [
      { role: 'assistant', content: 'Hi! How can I help you today?' },
      { role: 'user', content: 'Do you ship to Canada?' },
      { role: 'assistant', content: 'Yes, we ship to Canada; delivery takes about a week.' },
    ],
  },
];
const CLOSING = 'Good to know, that is all for today. Thanks!';

beforeAll(async () => {
  writeFileSync(chats, CHATS.map((c) => JSON.stringify(c)).join('\n'));
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (d) => {
      data += d;
    });
    req.on('end', () => {
      const body = JSON.parse(data) as { messages: Request['messages'] };
      requests.push({ taskId: String(req.headers['x-cove-task-id']), messages: body.messages });
      const json = body.messages[0]?.content.includes('"is_task_complete"') === true;
      const content = json
        ? JSON.stringify({ user_message: CLOSING, is_task_complete: true })
        : `${CLOSING} ###STOP###`;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model: 'recorder',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
  rmSync(root, { recursive: true, force: true });
});

describe.each(['json', 'stop-token'])('a model user (%s style) continuing a conversation', (style) => {
  it('is told the conversation so far and chats from the agent’s last reply on', async () => {
    const out = join(root, style);
    requests.length = 0;
    const r = await runCoveAsync(
      [
        'generate',
        '--from',
        chats,
        '--n',
        '2',
        '--user',
        'openai:recorder',
        '--user-base-url',
        url,
        '--user-style',
        style,
        '--quiet',
        '--out',
        out,
      ],
      { timeoutMs: 120_000 },
    );
    expect(r.stderr).not.toMatch(/^cove: /m);
    expect(r.status).toBe(0);
    const records = readRecords(out);
    expect(records).toHaveLength(2);
    for (const record of records) {
      const chat = CHATS[record.task_index] as (typeof CHATS)[number];
      const request = requests.find((q) => q.taskId === record.task_id) as Request;
      expect(request).toBeDefined();
      const [system, ...chatMessages] = request.messages;
      expect(system?.role).toBe('system');
      // the earlier messages as a transcript (the user's own lines as "You"), then the instruction to carry on
      const earlier = chat.messages
        .slice(0, -1)
        .map((m) => `${m.role === 'user' ? 'You' : 'Agent'}: ${m.content}`)
        .join('\n');
      expect(system?.content).toContain(`<conversation_so_far>\n${earlier}\n</conversation_so_far>`);
      expect(system?.content).toContain('bring up what you want (described under <scenario>)');
      // the chat opens with the agent's last reply of the prefix, as the agent's (flipped: `user`) message
      expect(chatMessages).toEqual([{ role: 'user', content: chat.messages.at(-1)?.content }]);
      // the record: the prefix as given, then the user's closing turn
      expect(record.messages.map(({ role, content }) => ({ role, content }))).toEqual([
        ...chat.messages,
        { role: 'user', content: style === 'json' ? CLOSING : `${CLOSING} ###STOP###` },
      ]);
      expect(record.termination_reason).toBe('user_stop');
    }
  });
});
