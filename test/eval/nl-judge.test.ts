import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeNlAssertions, withJudgment } from '../../src/eval/nl-judge.js';
import { ChatModel, EndpointPool } from '../../src/llm/chat-model.js';
import { resolveRoleConfig } from '../../src/llm/config.js';
import { UsageMeter } from '../../src/llm/usage-meter.js';
import type { ChatMessage } from '../../src/sim/messages.js';

/**
 * The NL-assertion judge against a real HTTP server on 127.0.0.1 whose reply each test sets: τ²'s quirks (an empty
 * results list passes), a failing verdict, a reply that is not JSON, and a request that times out — the last two
 * give `null`, never a pass.
 */

let reply: { body: string; hang?: boolean } = { body: '' };
let lastRequest:
  | { headers: Record<string, unknown>; body: { messages: { role: string; content: string }[] } }
  | undefined;
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (d) => {
      data += d;
    });
    req.on('end', () => {
      lastRequest = { headers: req.headers, body: JSON.parse(data) };
      if (reply.hang === true) return; // never answers
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model: 'judge',
          choices: [{ index: 0, message: { role: 'assistant', content: reply.body }, finish_reason: 'stop' }],
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
});

function judge(timeoutMs = 30_000): ChatModel {
  const config = resolveRoleConfig('judge', undefined, {
    model: 'openai:judge',
    base_url: url,
    timeout_ms: timeoutMs,
    max_retries: 0,
  });
  return new ChatModel('judge', config, {
    env: {},
    prices: {},
    meter: new UsageMeter(),
    endpoints: new EndpointPool(),
  });
}

const messages: ChatMessage[] = [
  { role: 'assistant', content: 'Hi! How can I help you today?' },
  { role: 'user', content: "What are my shirts made of? It's for a gift." },
  { role: 'assistant', content: 'Polyester and cotton.' },
];
const assertions = ["Agent says the shirts' materials are polyester and cotton.", 'Agent is polite.'];
const verdict = (met: boolean) => ({ expectedOutcome: 'a', reasoning: 'r', metExpectation: met });

describe('NL-assertion judge', () => {
  it('sends the transcript and the assertions as a Python list, with x-cove-role: judge', async () => {
    reply = { body: JSON.stringify({ results: [verdict(true), verdict(true)] }) };
    const j = await judgeNlAssertions(judge(), '7', messages, assertions);
    expect(j.reward).toBe(1);
    expect(lastRequest?.headers['x-cove-role']).toBe('judge');
    expect(lastRequest?.headers['x-cove-task-id']).toBe('7');
    const user = lastRequest?.body.messages[1]?.content ?? '';
    expect(user).toContain(
      "user: What are my shirts made of? It's for a gift.\nassistant: Polyester and cotton.",
    );
    // Python repr: the first string holds an apostrophe, so it is double-quoted
    expect(user).toContain(
      `["Agent says the shirts' materials are polyester and cotton.", 'Agent is polite.']`,
    );
  });

  it('one unmet verdict fails; a fenced JSON reply is read', async () => {
    reply = { body: `\`\`\`json\n${JSON.stringify({ results: [verdict(true), verdict(false)] })}\n\`\`\`` };
    const j = await judgeNlAssertions(judge(), '7', messages, assertions);
    expect(j.reward).toBe(0);
    expect(j.nl_assertions?.map((v) => v.met)).toEqual([true, false]);
  });

  it('τ²’s quirk, kept and listed: an empty results list passes', async () => {
    reply = { body: '{"results": []}' };
    const j = await judgeNlAssertions(judge(), '7', messages, assertions);
    expect(j.reward).toBe(1);
    expect(j.quirks[0]).toMatch(/empty results list passes/);
  });

  it('no assertions: reward 1 without a call', async () => {
    lastRequest = undefined;
    const j = await judgeNlAssertions(judge(), '7', messages, []);
    expect(j.reward).toBe(1);
    expect(lastRequest).toBeUndefined();
  });

  it('malformed JSON and a missing verdict flag give null with the raw reply', async () => {
    reply = { body: 'I think yes' };
    const a = await judgeNlAssertions(judge(), '7', messages, assertions);
    expect(a).toMatchObject({ reward: null, raw: 'I think yes' });
    expect(a.error).toMatch(/not JSON/);
    reply = { body: '{"results": [{"expectedOutcome": "a", "metExpectation": "yes"}]}' };
    const b = await judgeNlAssertions(judge(), '7', messages, assertions);
    expect(b.reward).toBeNull();
    expect(b.error).toMatch(/results\[0\]\.metExpectation/);
    // folded into a τ² report whose DB passed: the reward stays null and NL is listed as not evaluated
    const folded = withJudgment(
      { reward: null, reward_breakdown: { DB: 1, NL_ASSERTION: null }, not_evaluated: [] },
      b,
    );
    expect(folded.reward).toBeNull();
    expect(folded.report.not_evaluated).toEqual([{ component: 'NL_ASSERTION', reason: b.error }]);
  });

  it('a judge that times out gives null with the reason, never a pass', { timeout: 60_000 }, async () => {
    reply = { body: '', hang: true };
    const j = await judgeNlAssertions(judge(500), '7', messages, assertions);
    expect(j.reward).toBeNull();
    expect(j.error).toMatch(/judge call failed/);
    expect(j.error).toMatch(/time/i);
  });
});
