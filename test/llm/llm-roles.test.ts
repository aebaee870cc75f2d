import { afterEach, describe, expect, it } from 'vitest';
import { agentContext } from '../../src/domains/agent-context.js';
import { getDomain } from '../../src/domains/registry.js';
import { ChatModel, EndpointPool } from '../../src/llm/chat-model.js';
import { type RoleConfig, type RoleName, roleConfigSchema } from '../../src/llm/config.js';
import { UsageMeter } from '../../src/llm/usage-meter.js';
import { LlmAgent } from '../../src/sim/llm-agent.js';
import { LlmUser } from '../../src/sim/llm-user.js';
import { AGENT_GREETING, type AssistantMessage, type ChatMessage } from '../../src/sim/messages.js';
import { type Agent, RoleError, type UserSimulator } from '../../src/sim/roles.js';
import { runEpisode } from '../../src/sim/run-episode.js';
import { COVE_USER_GUIDELINES, scenarioText, userSystemPrompt } from '../../src/sim/user-guidelines.js';
import type { Tau2Instructions } from '../../src/tasks/tau2-task.js';
import { type FakeLlm, type FakeReply, startFakeLlm, status, text } from '../helpers/llm-fake-server.js';
import { tau2RetailBase } from '../helpers/retail-base.js';

const retail = getDomain('retail');
const context = agentContext(retail, 'cove');
/** A customer of τ²'s retail DB. */
const EMAIL = 'noah.brown7922@example.com';
const USER_ID = 'noah_brown_6181';

const servers: FakeLlm[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(reply: (n: number) => FakeReply): Promise<FakeLlm> {
  const server = await startFakeLlm((r) => reply(r.n));
  servers.push(server);
  return server;
}

function model(server: FakeLlm, role: RoleName, extra: Partial<Record<keyof RoleConfig, unknown>> = {}) {
  const config = roleConfigSchema.parse({ model: 'openai:fake', base_url: server.baseUrl, ...extra });
  return new ChatModel(role, config, {
    env: {},
    prices: {},
    meter: new UsageMeter(),
    endpoints: new EndpointPool(),
  });
}

const llmAgent = (server: FakeLlm, extra = {}) =>
  new LlmAgent(model(server, 'agent', extra), context, 'task-1');
const llmUser = (server: FakeLlm, prompt = 'SYSTEM PROMPT OF THE USER') =>
  new LlmUser(model(server, 'user'), prompt, 'task-1');

const USER_TURN: ChatMessage[] = [
  { role: 'assistant', content: AGENT_GREETING },
  { role: 'user', content: 'I want to check my account.' },
];

const call = (name: string, args: unknown, id?: string) => ({
  ...(id === undefined ? {} : { id }),
  type: 'function',
  function: { name, arguments: args },
});

/** A user simulator that plays fixed lines, then repeats the last one. */
function linesUser(lines: string[]): UserSimulator {
  let i = 0;
  return { respond: async () => ({ content: lines[Math.min(i++, lines.length - 1)] as string }) };
}

/** An agent that plays fixed turns, then repeats the last one. */
function turnsAgent(turns: AssistantMessage[]): Agent {
  let i = 0;
  return { respond: async () => ({ message: turns[Math.min(i++, turns.length - 1)] as AssistantMessage }) };
}

describe('LLM agent', () => {
  it('sends the instruction block + policy as system prompt and the tools in OpenAI format; keeps reasoning', async () => {
    const server = await fake((n) =>
      n === 1
        ? text('Sure, what is your email?', { reasoning_content: 'The user wants account help.' })
        : text('Thanks.', { reasoning: 'vLLM names it reasoning.' }),
    );
    const agent = llmAgent(server);
    const first = await agent.respond(USER_TURN);
    expect(first.message).toEqual({
      role: 'assistant',
      content: 'Sure, what is your email?',
      reasoning_content: 'The user wants account help.',
    });
    const second = await agent.respond(USER_TURN);
    expect(second.message.role === 'assistant' && second.message.reasoning_content).toBe(
      'vLLM names it reasoning.',
    );
    const body = server.requests[0]?.body ?? {};
    const system = body.messages?.[0];
    expect(system?.role).toBe('system');
    expect(system?.content).toBe(context.systemPrompt);
    expect(context.systemPrompt).toContain(retail.policy.instructions);
    expect(context.systemPrompt).toContain(retail.policy.cove);
    expect(body.messages?.slice(1)).toEqual(USER_TURN);
    expect(body.tools).toEqual(context.tools);
    expect(body.tool_choice).toBe('auto');
    const names = (body.tools as { type: string; function: { name: string } }[]).map((t) => t.function.name);
    expect(names).toContain('find_user_id_by_email');
    expect((body.tools as { type: string }[]).every((t) => t.type === 'function')).toBe(true);
  });

  it('stringifies arguments sent as objects, gives ids to calls without one, null content for empty text', async () => {
    const server = await fake((n) => ({
      kind: 'message',
      message: {
        content: '',
        tool_calls:
          n === 1
            ? [
                call('find_user_id_by_email', { email: EMAIL }),
                call('get_user_details', { user_id: USER_ID }),
              ]
            : [call('get_user_details', { user_id: USER_ID })],
      },
    }));
    const agent = llmAgent(server);
    const a = (await agent.respond(USER_TURN)).message;
    const b = (await agent.respond(USER_TURN)).message;
    if (a.role !== 'assistant' || b.role !== 'assistant') throw new Error('not assistant messages');
    expect(a.content).toBeNull();
    expect(a.tool_calls?.map((c) => c.function.arguments)).toEqual([
      JSON.stringify({ email: EMAIL }),
      JSON.stringify({ user_id: USER_ID }),
    ]);
    const ids = [...(a.tool_calls ?? []), ...(b.tool_calls ?? [])].map((c) => c.id);
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(new Set(ids).size).toBe(3);
    expect(a.tool_calls?.every((c) => c.type === 'function')).toBe(true);
  });

  it('keeps ids and string arguments the server sent', async () => {
    const server = await fake(() => ({
      kind: 'message',
      message: {
        content: 'Looking you up.',
        tool_calls: [call('find_user_id_by_email', '{"email": "x"}', 'c-9')],
      },
    }));
    const m = (await llmAgent(server).respond(USER_TURN)).message;
    expect(m).toMatchObject({
      content: 'Looking you up.',
      tool_calls: [
        {
          id: 'c-9',
          type: 'function',
          function: { name: 'find_user_id_by_email', arguments: '{"email": "x"}' },
        },
      ],
    });
  });

  it('retries an empty reply, then fails with a RoleError that ends the episode with agent_error', async () => {
    const once = await fake((n) => (n === 1 ? text('   ') : text('Hello again.')));
    expect((await llmAgent(once).respond(USER_TURN)).message.content).toBe('Hello again.');
    expect(once.requests).toHaveLength(2);

    const server = await fake(() => text(''));
    const e = await llmAgent(server)
      .respond(USER_TURN)
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(e).toBeInstanceOf(RoleError);
    expect((e as RoleError).role).toBe('agent');
    expect((e as RoleError).kind).toBe('invalid_output');
    expect(server.requests).toHaveLength(3);

    const episode = tau2RetailBase().base.fork();
    const outcome = await runEpisode(episode, llmAgent(server), linesUser(['Hi, I need help.']));
    episode.close();
    expect(outcome.termination).toBe('agent_error');
    expect(outcome.terminationDetail).toMatch(/empty/);
    expect(outcome.messages.at(-1)).toEqual({ role: 'user', content: 'Hi, I need help.' });
  });

  it('invalid argument JSON gets cove’s tool error, an unknown tool τ²’s error; the episode goes on', async () => {
    const plan: FakeReply[] = [
      {
        kind: 'message',
        message: { content: null, tool_calls: [call('find_user_id_by_email', '{"email": "no', 'c1')] },
      },
      { kind: 'message', message: { content: null, tool_calls: [call('lookup_everything', '{}', 'c2')] } },
      {
        kind: 'message',
        message: { content: null, tool_calls: [call('find_user_id_by_email', '[1, 2]', 'c3')] },
      },
    ];
    const server = await fake((n) => plan[n - 1] ?? text('Anything else?'));
    const episode = tau2RetailBase().base.fork();
    const outcome = await runEpisode(episode, llmAgent(server), linesUser(['Hi.', 'No. ###STOP###']));
    episode.close();
    expect(outcome.termination).toBe('user_stop');
    const tools = outcome.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual([
      expect.stringMatching(/^Error: cove: the tool-call arguments are not a valid JSON object \(.+\)$/),
      "Error: Tool 'lookup_everything' not found.",
      'Error: cove: the tool-call arguments are not a valid JSON object (expected a JSON object)',
    ]);
    expect(outcome.toolCalls.map((c) => c.argumentsValid)).toEqual([false, true, false]);
    expect(outcome.toolErrors).toBe(3);
  });
});

describe('LLM user', () => {
  it('flips roles, sees only the agent’s texts (no tool traffic, no tools), carries the user headers', async () => {
    const server = await fake((n) =>
      text(n === 1 ? `My email is ${EMAIL}.` : n === 2 ? 'Yes, that is me.' : 'Thanks! ###STOP###'),
    );
    const agent = turnsAgent([
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          {
            id: 'k1',
            type: 'function',
            function: { name: 'find_user_id_by_email', arguments: JSON.stringify({ email: EMAIL }) },
          },
        ],
      },
      { role: 'assistant', content: 'Found your account. Is that you?' },
      { role: 'assistant', content: 'Done, anything else?' },
    ]);
    const episode = tau2RetailBase().base.fork();
    const outcome = await runEpisode(episode, agent, llmUser(server, 'GUIDELINES AND SCENARIO'));
    episode.close();
    expect(outcome.termination).toBe('user_stop');
    // the tool result (the user id) is in the conversation, never in what the user model saw
    expect(outcome.messages.some((m) => m.role === 'tool' && m.content.includes(USER_ID))).toBe(true);
    const last = server.requests.at(-1);
    expect(last?.headers['x-cove-role']).toBe('user');
    expect(last?.headers['x-cove-task-id']).toBe('task-1');
    expect(last?.body).not.toHaveProperty('tools');
    expect(last?.body.messages).toEqual([
      { role: 'system', content: 'GUIDELINES AND SCENARIO' },
      { role: 'user', content: AGENT_GREETING },
      { role: 'assistant', content: `My email is ${EMAIL}.` },
      { role: 'user', content: 'Found your account. Is that you?' },
      { role: 'assistant', content: 'Yes, that is me.' },
      { role: 'user', content: 'Done, anything else?' },
    ]);
    for (const r of server.requests) expect(JSON.stringify(r.body)).not.toContain(USER_ID);
  });

  it('returns text that carries a stop token intact; it stays in the final user turn', async () => {
    const stop = 'Perfect, that is all I needed. Thank you! ###STOP###';
    const server = await fake(() => text(stop));
    expect((await llmUser(server).respond([{ role: 'agent', content: AGENT_GREETING }])).content).toBe(stop);
    const episode = tau2RetailBase().base.fork();
    const outcome = await runEpisode(episode, turnsAgent([]), llmUser(server));
    episode.close();
    expect(outcome.termination).toBe('user_stop');
    expect(outcome.messages).toEqual([
      { role: 'assistant', content: AGENT_GREETING },
      { role: 'user', content: stop },
    ]);
  });

  it('retries empty (or tool-call) turns, then the episode ends with user_error and a reason', async () => {
    const once = await fake((n) => (n === 1 ? text('') : text('Hello.')));
    expect((await llmUser(once).respond([{ role: 'agent', content: AGENT_GREETING }])).content).toBe(
      'Hello.',
    );
    expect(once.requests).toHaveLength(2);

    const empty = await fake(() => text('  '));
    const episode = tau2RetailBase().base.fork();
    const outcome = await runEpisode(episode, turnsAgent([]), llmUser(empty));
    expect(empty.requests).toHaveLength(3);
    expect(outcome.termination).toBe('user_error');
    expect(outcome.terminationDetail).toMatch(/empty turn 3 times/);
    expect(outcome.messages).toEqual([{ role: 'assistant', content: AGENT_GREETING }]);

    const calls = await fake(() => ({
      kind: 'message',
      message: { content: 'hmm', tool_calls: [call('find_user_id_by_email', '{}', 'u1')] },
    }));
    const second = await runEpisode(episode, turnsAgent([]), llmUser(calls));
    episode.close();
    expect(second.termination).toBe('user_error');
    expect(second.terminationDetail).toMatch(/tool calls/);
  });

  it('a failing endpoint ends the episode with infrastructure_error and the status as the reason', async () => {
    const server = await fake(() => status(500));
    const user = new LlmUser(model(server, 'user', { max_retries: 1 }), 'prompt', 'task-1');
    const episode = tau2RetailBase().base.fork();
    const outcome = await runEpisode(episode, turnsAgent([]), user);
    episode.close();
    expect(server.requests).toHaveLength(2);
    expect(outcome.termination).toBe('infrastructure_error');
    expect(outcome.terminationDetail).toMatch(/HTTP 500/);
  });
});

describe('scenarioText: τ²’s str(user_scenario)', () => {
  const structured: Tau2Instructions = {
    domain: 'retail',
    reason_for_call: 'You want to return a lamp.\n\nAlso a chair.',
    known_info: 'Your name is Ana Diaz.\nYour zip code is 10001.',
    unknown_info: 'You do not know your order id.',
    task_instructions: 'Be patient.',
  };

  it('structured instructions with known and unknown info, and a persona', () => {
    const expected =
      'Persona:\n' +
      '\tYou are polite.\n' +
      '\tYou speak briefly.\n' +
      'Instructions:\n' +
      '\tDomain: retail\n' +
      '\tReason for call:\n' +
      '\t\tYou want to return a lamp.\n' +
      '\n' +
      '\t\tAlso a chair.\n' +
      '\tKnown info:\n' +
      '\t\tYour name is Ana Diaz.\n' +
      '\t\tYour zip code is 10001.\n' +
      '\tUnknown info:\n' +
      '\t\tYou do not know your order id.\n' +
      '\tTask instructions:\n' +
      '\t\tBe patient.';
    expect(scenarioText(structured, 'You are polite.\nYou speak briefly.')).toBe(expected);
  });

  it('omits null known/unknown info and a null persona', () => {
    const s = { ...structured, known_info: null, unknown_info: null, reason_for_call: 'A refund.' };
    expect(scenarioText(s, null)).toBe(
      'Instructions:\n\tDomain: retail\n\tReason for call:\n\t\tA refund.\n\tTask instructions:\n\t\tBe patient.',
    );
    expect(scenarioText(s)).toBe(scenarioText(s, null));
  });

  it('a τ² telecom-style persona (leading newline, blank lines, whitespace-only line) and string instructions', () => {
    const persona = '\nAs a 41-year-old, you use your phone daily.\n\n  \nYou are patient.\n';
    // textwrap.indent leaves empty and whitespace-only lines alone; the persona's final newline leaves a blank line
    expect(scenarioText('Call about your bill.\nBe brief.', persona)).toBe(
      'Persona:\n\n\tAs a 41-year-old, you use your phone daily.\n\n  \n\tYou are patient.\n\n' +
        'Instructions:\n\tCall about your bill.\n\tBe brief.',
    );
  });

  it('the user system prompt is the guidelines, then the scenario in <scenario> tags', () => {
    const prompt = userSystemPrompt(COVE_USER_GUIDELINES, scenarioText(structured, null));
    expect(prompt).toBe(
      `${COVE_USER_GUIDELINES}\n\n<scenario>\n${scenarioText(structured, null)}\n</scenario>`,
    );
    expect(prompt).toContain('###STOP###');
  });
});
