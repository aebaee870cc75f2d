import { afterEach, describe, expect, it } from 'vitest';
import { ChatModel, EndpointPool } from '../../src/llm/chat-model.js';
import { roleConfigSchema } from '../../src/llm/config.js';
import { UsageMeter } from '../../src/llm/usage-meter.js';
import { AGENT_GREETING } from '../../src/sim/messages.js';
import { JsonUser, parseJsonUserReply } from '../../src/sim/model-user/json-user.js';
import { jsonUserCorrection } from '../../src/sim/model-user/json-user-prompt.js';
import { RoleError } from '../../src/sim/roles.js';
import { type FakeLlm, type FakeReply, startFakeLlm, text } from '../helpers/llm-fake-server.js';

describe('parseJsonUserReply', () => {
  it('accepts the two fields, also inside a code fence', () => {
    expect(parseJsonUserReply('{"user_message": "Hi there", "is_task_complete": false}')).toEqual({
      reply: { user_message: 'Hi there', is_task_complete: false },
    });
    expect(parseJsonUserReply('```json\n{"user_message": "Bye", "is_task_complete": true}\n```')).toEqual({
      reply: { user_message: 'Bye', is_task_complete: true },
    });
  });

  it('names what is wrong', () => {
    expect(parseJsonUserReply('Hello, I need help')).toEqual({ problem: 'it was not valid JSON' });
    expect(parseJsonUserReply('  ')).toEqual({ problem: 'it was empty' });
    expect(parseJsonUserReply('{"user_message": " ", "is_task_complete": false}')).toEqual({
      problem: '"user_message" must not be empty',
    });
    const wrongType = parseJsonUserReply('{"user_message": "ok", "is_task_complete": "yes"}');
    expect('problem' in wrongType && wrongType.problem.startsWith('"is_task_complete" ')).toBe(true);
    const missing = parseJsonUserReply('{"is_task_complete": false}');
    expect('problem' in missing && missing.problem.startsWith('"user_message" ')).toBe(true);
    expect('problem' in parseJsonUserReply('["user_message"]')).toBe(true);
  });
});

const servers: FakeLlm[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function userOn(server: FakeLlm): JsonUser {
  const config = roleConfigSchema.parse({ model: 'openai:fake', base_url: server.baseUrl, max_retries: 0 });
  const model = new ChatModel('user', config, {
    env: {},
    prices: {},
    meter: new UsageMeter(),
    endpoints: new EndpointPool(),
  });
  return new JsonUser(model, 'PROMPT', 'task-1');
}

describe('JsonUser', () => {
  it('sends a corrective message after an invalid reply, and its own turns back as JSON', async () => {
    const replies: FakeReply[] = [
      {
        kind: 'message',
        message: { content: 'Sure, here you go' },
        usage: { prompt_tokens: 7, completion_tokens: 3 },
      },
      {
        kind: 'message',
        message: { content: '{"user_message": "I need to change an order.", "is_task_complete": false}' },
        usage: { prompt_tokens: 11, completion_tokens: 5 },
      },
      text('{"user_message": "Thanks!", "is_task_complete": true}'),
    ];
    const server = await startFakeLlm((r) => replies[r.n - 1] ?? text(''));
    servers.push(server);
    const user = userOn(server);
    const first = await user.respond([{ role: 'agent', content: AGENT_GREETING }]);
    expect(first.content).toBe('I need to change an order.');
    expect(first.stop).toBeUndefined();
    // two calls made the turn: their usage is summed (7 + 11, 3 + 5)
    expect(first.usage).toMatchObject({ prompt_tokens: 18, completion_tokens: 8 });
    const second = await user.respond([
      { role: 'agent', content: AGENT_GREETING },
      { role: 'user', content: first.content },
      { role: 'agent', content: 'Done.' },
    ]);
    expect(second).toMatchObject({ content: 'Thanks!', stop: true });
    expect(server.requests.map((r) => r.body.messages)).toEqual([
      [
        { role: 'system', content: 'PROMPT' },
        { role: 'user', content: AGENT_GREETING },
      ],
      [
        { role: 'system', content: 'PROMPT' },
        { role: 'user', content: AGENT_GREETING },
        { role: 'assistant', content: 'Sure, here you go' },
        { role: 'user', content: jsonUserCorrection('it was not valid JSON') },
      ],
      [
        { role: 'system', content: 'PROMPT' },
        { role: 'user', content: AGENT_GREETING },
        {
          role: 'assistant',
          content: '{"user_message":"I need to change an order.","is_task_complete":false}',
        },
        { role: 'user', content: 'Done.' },
      ],
    ]);
  });

  it('gives up after three invalid replies with a user RoleError holding the raw texts', async () => {
    const server = await startFakeLlm(() => text('no json'));
    servers.push(server);
    const error = await userOn(server)
      .respond([{ role: 'agent', content: AGENT_GREETING }])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoleError);
    expect(error).toMatchObject({ role: 'user', kind: 'invalid_output' });
    expect((error as Error).message).toBe(
      'the JSON user gave no valid reply in 3 attempts (last: it was not valid JSON); raw replies: ["no json","no json","no json"]',
    );
    // the third request holds both failed attempts and both corrections
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]?.body.messages).toHaveLength(6);
  });
});
