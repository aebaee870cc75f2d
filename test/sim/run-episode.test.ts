import { describe, expect, it } from 'vitest';
import type { AssistantMessage, ChatMessage } from '../../src/sim/messages.js';
import {
  type Agent,
  type AgentTurn,
  RoleError,
  type UserSimulator,
  type VisibleMessage,
} from '../../src/sim/roles.js';
import { runEpisode } from '../../src/sim/run-episode.js';
import { tau2RetailBase } from '../helpers/retail-base.js';

// Expected step counts and message lists are worked out by hand from τ²'s loop (tau2-spec.md §7.1):
// every user message, every agent message and every batch of tool results is one step.

let callId = 0;
function call(name: string, args: unknown): AssistantMessage['tool_calls'] {
  return [
    {
      id: `c${++callId}`,
      type: 'function',
      function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
    },
  ];
}

/** An agent that plays a fixed list of turns, then repeats the last one. */
function scriptedAgent(turns: AssistantMessage[]): Agent & { seen: number[] } {
  let i = 0;
  const seen: number[] = [];
  return {
    seen,
    async respond(messages: readonly ChatMessage[]): Promise<AgentTurn> {
      seen.push(messages.length);
      const turn = turns[Math.min(i++, turns.length - 1)] as AssistantMessage;
      return { message: turn };
    },
  };
}

function scriptedUser(lines: string[]): UserSimulator & { views: VisibleMessage[][] } {
  let i = 0;
  const views: VisibleMessage[][] = [];
  return {
    views,
    async respond(visible) {
      views.push([...visible]);
      return { content: lines[Math.min(i++, lines.length - 1)] as string };
    },
  };
}

const say = (content: string): AssistantMessage => ({ role: 'assistant', content });

describe('runEpisode (τ² loop semantics)', () => {
  it('greets first, runs several tool calls of one message in order, and hides tool traffic from the user', async () => {
    const { base } = tau2RetailBase();
    const episode = base.fork();
    const agent = scriptedAgent([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          ...(call('find_user_id_by_email', { email: 'noah.brown7922@example.com' }) ?? []),
          ...(call('get_user_details', { user_id: 'noah_brown_6181' }) ?? []),
        ],
      },
      say('You are Noah Brown.'),
    ]);
    const user = scriptedUser(['Who am I? My email is noah.brown7922@example.com', 'Thanks ###STOP###']);
    const out = await runEpisode(episode, agent, user);
    episode.close();
    expect(out.termination).toBe('user_stop');
    expect(out.messages.map((m) => m.role)).toEqual([
      'assistant',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'user',
    ]);
    expect(out.messages[0]).toEqual({ role: 'assistant', content: 'Hi! How can I help you today?' });
    expect((out.messages[3] as { content: string }).content).toBe('noah_brown_6181');
    expect((out.messages[4] as { content: string }).content.startsWith('{"user_id": "noah_brown_6181"')).toBe(
      true,
    );
    // user(1) + agent call(2) + tool results(3) + agent text(4) + user stop(5)
    expect(out.steps).toBe(5);
    expect(user.views[1]).toEqual([
      { role: 'agent', content: 'Hi! How can I help you today?' },
      { role: 'user', content: 'Who am I? My email is noah.brown7922@example.com' },
      { role: 'agent', content: 'You are Noah Brown.' },
    ]);
  });

  it('keeps the text sent with a stop token in the final user turn', async () => {
    const episode = tau2RetailBase().base.fork();
    const out = await runEpisode(
      episode,
      scriptedAgent([say('ok')]),
      scriptedUser(['Bye, and thanks for everything! ###STOP###']),
    );
    episode.close();
    expect(out.termination).toBe('user_stop');
    expect(out.messages.at(-1)).toEqual({
      role: 'user',
      content: 'Bye, and thanks for everything! ###STOP###',
    });
    expect(out.steps).toBe(1);
  });

  it('recognises ###TRANSFER### and ###OUT-OF-SCOPE### as stops, by substring', async () => {
    for (const token of ['###TRANSFER###', 'x###OUT-OF-SCOPE###y']) {
      const episode = tau2RetailBase().base.fork();
      const out = await runEpisode(episode, scriptedAgent([say('ok')]), scriptedUser(['hello', token]));
      episode.close();
      expect(out.termination).toBe('user_stop');
      expect(out.steps).toBe(3);
    }
  });

  it('ends with max_steps after the step that reaches the limit, never while a call is pending', async () => {
    const episode = tau2RetailBase().base.fork();
    const turns = ['noah_brown_6181', 'ava_moore_2033', 'james_li_5688', 'noah_brown_6181'].map(
      (id): AssistantMessage => ({
        role: 'assistant',
        content: null,
        tool_calls: call('get_user_details', { user_id: id }) ?? [],
      }),
    );
    const out = await runEpisode(episode, scriptedAgent(turns), scriptedUser(['hi']), { maxSteps: 6 });
    episode.close();
    // user(1), call(2), results(3), call(4), results(5), call(6) is pending → results(7) ends it
    expect(out.termination).toBe('max_steps');
    expect(out.steps).toBe(7);
    expect(out.messages).toHaveLength(8);
    expect(out.messages.at(-1)?.role).toBe('tool');
  });

  it('counts tool errors cumulatively and ends with too_many_errors (which wins over max_steps)', async () => {
    const episode = tau2RetailBase().base.fork();
    const turns = Array.from(
      { length: 12 },
      (_, i): AssistantMessage => ({
        role: 'assistant',
        content: null,
        tool_calls: call('get_order_details', { order_id: `#W000000${i}` }) ?? [],
      }),
    );
    const out = await runEpisode(episode, scriptedAgent(turns), scriptedUser(['hi']), {
      maxErrors: 3,
      maxSteps: 7,
    });
    episode.close();
    // three failing calls: results at steps 3, 5, 7 → the third error and the step limit coincide
    expect(out.toolErrors).toBe(3);
    expect(out.steps).toBe(7);
    expect(out.termination).toBe('too_many_errors');
  });

  it('answers invalid JSON arguments with cove’s own tool error and counts it', async () => {
    const episode = tau2RetailBase().base.fork();
    const bad: AssistantMessage = {
      role: 'assistant',
      content: null,
      tool_calls: call('get_user_details', '{"user_id": ') ?? [],
    };
    const out = await runEpisode(
      episode,
      scriptedAgent([bad, say('sorry')]),
      scriptedUser(['hi', 'bye ###STOP###']),
    );
    episode.close();
    const tool = out.messages[3] as { role: string; content: string };
    expect(tool.role).toBe('tool');
    expect(tool.content).toBe(
      'Error: cove: the tool-call arguments are not a valid JSON object (Expecting value: line 1 column 13 (char 12))',
    );
    expect(out.toolErrors).toBe(1);
    expect(out.toolCalls[0]?.argumentsValid).toBe(false);
    expect(out.termination).toBe('user_stop');
  });

  it('ends an episode whose agent repeats the identical call, unless the guard is off', async () => {
    const same: AssistantMessage = {
      role: 'assistant',
      content: null,
      tool_calls: call('get_user_details', { user_id: 'noah_brown_6181' }) ?? [],
    };
    const episode = tau2RetailBase().base.fork();
    const out = await runEpisode(episode, scriptedAgent([same]), scriptedUser(['hi']), {
      repeatedCallLimit: 5,
    });
    expect(out.termination).toBe('repeated_tool_call');
    expect(out.toolCalls).toHaveLength(5);
    const unguarded = await runEpisode(episode, scriptedAgent([same]), scriptedUser(['hi']), {
      repeatedCallLimit: null,
      maxSteps: 21,
    });
    episode.close();
    expect(unguarded.termination).toBe('max_steps');
    expect(unguarded.toolCalls).toHaveLength(10);
  });

  it('ends with agent_error on an empty message and records role failures', async () => {
    const episode = tau2RetailBase().base.fork();
    const empty = await runEpisode(
      episode,
      scriptedAgent([{ role: 'assistant', content: '  ' }]),
      scriptedUser(['hi']),
    );
    expect(empty.termination).toBe('agent_error');
    const failing: Agent = {
      respond: () => Promise.reject(new RoleError('agent', 'infrastructure', 'HTTP 503 after 4 attempts')),
    };
    const infra = await runEpisode(episode, failing, scriptedUser(['hi']));
    expect(infra.termination).toBe('infrastructure_error');
    expect(infra.terminationDetail).toBe('HTTP 503 after 4 attempts');
    const badUser: UserSimulator = { respond: () => Promise.reject(new Error('boom')) };
    const userFail = await runEpisode(episode, scriptedAgent([say('ok')]), badUser);
    episode.close();
    expect(userFail.termination).toBe('user_error');
    expect(userFail.messages).toHaveLength(1);
  });
});
