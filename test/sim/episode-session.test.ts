import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { baseFromValue } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import { EpisodeSession } from '../../src/sim/episode-session.js';
import type { Agent, UserSimulator } from '../../src/sim/roles.js';
import { runEpisode } from '../../src/sim/run-episode.js';
import { synthesizeTask } from '../../src/tasks/sampler.js';
import { coveEvaluator } from '../../src/verify/cove-evaluator.js';

const sim = retailDomain.simulation as NonNullable<typeof retailDomain.simulation>;
const synthesis = retailDomain.synthesis as NonNullable<typeof retailDomain.synthesis>;
const loaded = baseFromValue(
  retailDomain,
  generateRetailSandbox({ seed: 8, users: 80, orders: 160 }),
  'sandbox',
);
const options = {
  domain: 'retail',
  seed: 8,
  difficulty: 'hard' as const,
  fuzz: 2 as const,
  semantics: 'parity' as const,
  db: { path: 'x', canonical_sha256: 'x', benchmark: false },
  coveVersion: 'test',
};

describe('EpisodeSession driven from outside', () => {
  it('gives the same messages and verdict as the in-process loop, one stepAgent at a time', async () => {
    const evaluator = coveEvaluator(retailDomain);
    for (const index of [0, 1, 2]) {
      const task = synthesizeTask(synthesis, loaded.base, options, index);
      const roles = (): [Agent, UserSimulator] => [
        sim.createOracleAgent(task.cove, new Rng(index).child('agent')),
        sim.createScriptedUser(task.cove, new Rng(index).child('user')),
      ];
      const [agentA, userA] = roles();
      const envA = loaded.base.fork();
      const viaLoop = await runEpisode(envA, agentA, userA);
      const verdictA = evaluator.evaluate({ task, outcome: viaLoop, env: envA });

      // the external driver: an RL trainer would send these messages over HTTP
      const [agentB, userB] = roles();
      const session = new EpisodeSession(loaded.base.fork(), userB);
      const opening = await session.start();
      expect(opening.map((m) => m.role)).toEqual(['assistant', 'user']);
      let steps = 0;
      while (!session.done) {
        const turn = await agentB.respond(session.messages);
        const result = await session.stepAgent(turn.message);
        steps++;
        expect(result.messages.length).toBeGreaterThan(0);
        expect(result.done).toBe(session.done);
      }
      const viaSteps = session.outcome();
      const verdictB = evaluator.evaluate({ task, outcome: viaSteps, env: session.env });
      expect(viaSteps.messages).toEqual(viaLoop.messages);
      expect(viaSteps.termination).toBe('user_stop');
      expect(viaSteps.toolCalls).toEqual(viaLoop.toolCalls);
      expect(verdictB.verification).toEqual(verdictA.verification);
      expect(verdictB.reward).toBe(1);
      expect(steps).toBeGreaterThan(task.cove.constraints.length);
      await expect(session.stepAgent({ role: 'assistant', content: 'more' })).rejects.toThrow(/over/);
      session.close();
      envA.close();
    }
  });

  it('ends on an empty assistant message with agent_error, and says when stepped before start', async () => {
    const user: UserSimulator = { respond: async () => ({ content: 'hello' }) };
    const session = new EpisodeSession(loaded.base.fork(), user);
    await expect(session.stepAgent({ role: 'assistant', content: 'hi' })).rejects.toThrow(/start\(\)/);
    await session.start();
    const r = await session.stepAgent({ role: 'assistant', content: '  ' });
    expect(r).toEqual({ messages: [], done: true, termination: 'agent_error' });
    session.close();
  });

  it('counts identical calls by meaning: spacing and key order do not hide a loop', async () => {
    const user: UserSimulator = { respond: async () => ({ content: 'find me' }) };
    const session = new EpisodeSession(loaded.base.fork(), user, { limits: { repeatedCallLimit: 3 } });
    await session.start();
    const texts = ['{"email": "a@b.c"}', '{ "email":"a@b.c" }', '{"email":"a@b.c"}'];
    for (const [i, args] of texts.entries()) {
      const r = await session.stepAgent({
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: `c${i}`, type: 'function', function: { name: 'find_user_id_by_email', arguments: args } },
        ],
      });
      expect(r.done).toBe(i === 2);
    }
    expect(session.termination).toBe('repeated_tool_call');
    session.close();
  });

  it('an aborted signal stops the loop with AbortedError and records nothing', async () => {
    const controller = new AbortController();
    const user: UserSimulator = {
      respond: async () => {
        controller.abort();
        return { content: 'hi' };
      },
    };
    const agent: Agent = { respond: async () => ({ message: { role: 'assistant', content: 'x' } }) };
    await expect(runEpisode(loaded.base.fork(), agent, user, {}, controller.signal)).rejects.toThrow(
      /aborted/,
    );
  });
});
