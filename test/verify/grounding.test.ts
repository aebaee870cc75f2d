import { describe, expect, it } from 'vitest';
import { toPyValue } from '../../src/core/py-value.js';
import { baseFromValue } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import { EpisodeSession } from '../../src/sim/episode-session.js';
import type { AssistantMessage } from '../../src/sim/messages.js';
import type { UserSimulator } from '../../src/sim/roles.js';
import type { ConstraintKind } from '../../src/tasks/constraint.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { synthesizeTask } from '../../src/tasks/sampler.js';
import type { DomainSynthesis } from '../../src/tasks/synthesis.js';
import { coveEvaluator } from '../../src/verify/cove-evaluator.js';
import { attributeFailure } from '../../src/verify/failure.js';
import { verifyTrajectory } from '../../src/verify/verification.js';

// Issue 23: a refusal holds only when the agent identified the user (by email or name + zip, as Retail's policy
// requires), then looked up the order, then answered, with no successful write on the order and a normal end.
// Expected verdicts follow from that rule by hand; the trajectories run through the real EpisodeSession.

const synthesis = retailDomain.synthesis as DomainSynthesis;
const loaded = baseFromValue(
  retailDomain,
  generateRetailSandbox({ seed: 23, users: 120, orders: 260 }),
  'sandbox',
);
const options = {
  domain: 'retail',
  seed: 23,
  difficulty: 'easy' as const,
  fuzz: 2 as const,
  semantics: 'parity' as const,
  k: 1,
  db: { path: 'x', canonical_sha256: 'y', benchmark: false },
  coveVersion: 'test',
};

function refusalTask(status?: string): CoveTask {
  for (let i = 0; i < 2000; i++) {
    const task = synthesizeTask(synthesis, loaded.base, options, i);
    const c = task.cove.constraints[0];
    if (c?.kind !== 'refusal') continue;
    if (status === undefined || read('get_order_details', { order_id: c.args.order_id }).status === status)
      return task;
  }
  throw new Error('no refusal task');
}

function read(name: string, args: Record<string, unknown>): Record<string, unknown> {
  const episode = loaded.base.fork();
  try {
    return JSON.parse(episode.call(name, toPyValue(args)).content) as Record<string, unknown>;
  } finally {
    episode.close();
  }
}

type Turn = { say: string } | { call: string; args: Record<string, unknown> | string };
const REFUSE = 'I am sorry, but the policy does not allow that change for this order.';

/** Plays `turns` as the agent against a user who opens, then stops after the agent's `stopAfter`-th text. */
async function play(task: CoveTask, turns: Turn[], stopAfter = 1) {
  let spoke = 0;
  const user: UserSimulator = {
    respond: async (visible) => {
      spoke++;
      const agentTexts = visible.filter((m) => m.role === 'agent').length - 1;
      if (agentTexts === 0) return { content: 'Hello, I need help with an order.' };
      return { content: agentTexts >= stopAfter ? '###STOP###' : 'Go on.' };
    },
  };
  const session = new EpisodeSession(loaded.base.fork(), user);
  await session.start();
  for (const [i, turn] of turns.entries()) {
    if (session.done) break;
    const message: AssistantMessage =
      'say' in turn
        ? { role: 'assistant', content: turn.say }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `call_${i + 1}`,
                type: 'function',
                function: {
                  name: turn.call,
                  arguments: typeof turn.args === 'string' ? turn.args : JSON.stringify(turn.args),
                },
              },
            ],
          };
    await session.stepAgent(message);
  }
  const outcome = session.outcome();
  const verdict = coveEvaluator(retailDomain).evaluate({ task, outcome, env: session.env });
  session.close();
  expect(spoke).toBeGreaterThan(0);
  return { verdict, outcome };
}

describe('grounded refusals', () => {
  const task = refusalTask();
  const constraint = task.cove.constraints[0] as CoveTask['cove']['constraints'][number];
  const orderId = constraint.args.order_id as string;
  const user = read('get_user_details', { user_id: task.cove.user_id }) as {
    email: string;
    name: { first_name: string; last_name: string };
    address: { zip: string };
  };
  const identify: Turn = { call: 'find_user_id_by_email', args: { email: user.email } };
  const lookup: Turn = { call: 'get_order_details', args: { order_id: orderId } };

  it('records the task user, so grounding can tell who must be identified', () => {
    expect(task.cove.user_id).toMatch(/^[a-z]+_[a-z]+_\d+$/);
  });

  it('a do-nothing refusal (no tool call) scores 0 and is attributed to the missing grounding', async () => {
    const { verdict, outcome } = await play(task, [{ say: REFUSE }]);
    expect(outcome.termination).toBe('user_stop');
    expect(verdict.reward).toBe(0);
    expect(verdict.verification.stateMatch).toBe(true); // the state alone cannot tell
    expect(verdict.verification.constraints[0]?.evidence).toMatch(/the user was never identified/);
    const writes = new Set(retailDomain.tools.filter((t) => t.kind === 'write').map((t) => t.name));
    expect(
      attributeFailure(outcome, verdict.verification, synthesis.kinds, writes, {
        leaks: 0,
        invalidToolArguments: 0,
        unknownToolCalls: 0,
      }),
    ).toBe('ungrounded_refusal');
  });

  it('looking the order up without identifying the user scores 0', async () => {
    const { verdict } = await play(task, [lookup, { say: REFUSE }]);
    expect(verdict.reward).toBe(0);
  });

  it('identifying the user without looking the order up scores 0', async () => {
    const { verdict } = await play(task, [identify, { say: REFUSE }]);
    expect(verdict.reward).toBe(0);
    expect(verdict.verification.constraints[0]?.evidence).toMatch(
      /identified by call_1 find_user_id_by_email, but .* was never looked up/,
    );
  });

  it('looking the order up before identifying the user scores 0', async () => {
    const { verdict } = await play(task, [lookup, identify, { say: REFUSE }]);
    expect(verdict.reward).toBe(0);
  });

  it('identifying another user scores 0', async () => {
    const other = loaded.base.sql.get(
      'SELECT email FROM users WHERE user_id != ? ORDER BY pos LIMIT 1',
      String(task.cove.user_id),
    );
    const { verdict } = await play(task, [
      { call: 'find_user_id_by_email', args: { email: String(other?.email) } },
      lookup,
      { say: REFUSE },
    ]);
    expect(verdict.reward).toBe(0);
  });

  it('identify (by email or by name + zip), look up, then say no: score 1, the evidence names the calls', async () => {
    const { verdict } = await play(task, [identify, lookup, { say: REFUSE }]);
    expect(verdict.reward).toBe(1);
    expect(verdict.verification.stateMatch).toBe(true);
    expect(verdict.verification.constraints[0]?.evidence).toContain(
      'user identified by call_1 find_user_id_by_email, ' +
        `${orderId} looked up by call_2 get_order_details`,
    );
    const byName = await play(task, [
      {
        call: 'find_user_id_by_name_zip',
        args: { first_name: user.name.first_name, last_name: user.name.last_name, zip: user.address.zip },
      },
      // spacing and key order of the lookup's arguments do not matter
      { call: 'get_order_details', args: `{ "order_id" :  ${JSON.stringify(orderId)} }` },
      { say: REFUSE },
    ]);
    expect(byName.verdict.reward).toBe(1);
  });

  it('the lookup alone is not an answer: the agent must speak after it', async () => {
    const { verdict, outcome } = await play(
      task,
      [identify, { say: 'One moment.' }, lookup, { say: '###STOP###' }],
      2,
    );
    expect(outcome.toolCalls.map((c) => c.name)).toEqual(['find_user_id_by_email', 'get_order_details']);
    expect(verdict.reward).toBe(0);
    expect(verdict.verification.constraints[0]?.evidence).toMatch(/said nothing to the user after call_3/);
  });

  it('an episode that does not end by a stop scores 0 even when grounded', async () => {
    const calls: Turn[] = Array.from({ length: 5 }, () => lookup);
    const { verdict, outcome } = await play(task, [identify, ...calls, { say: REFUSE }]);
    expect(outcome.termination).toBe('repeated_tool_call');
    expect(verdict.reward).toBe(0);
  });

  it('a successful write on the refused order scores 0', async () => {
    const delivered = refusalTask('delivered');
    const c = delivered.cove.constraints[0] as CoveTask['cove']['constraints'][number];
    const order = read('get_order_details', { order_id: c.args.order_id }) as {
      items: { item_id: string }[];
      payment_history: { payment_method_id: string }[];
    };
    const owner = read('get_user_details', { user_id: delivered.cove.user_id }) as { email: string };
    const { verdict, outcome } = await play(delivered, [
      { call: 'find_user_id_by_email', args: { email: owner.email } },
      { call: 'get_order_details', args: { order_id: c.args.order_id } },
      {
        call: 'return_delivered_order_items',
        args: {
          order_id: c.args.order_id,
          item_ids: [order.items[0]?.item_id],
          payment_method_id: order.payment_history[0]?.payment_method_id,
        },
      },
      { say: REFUSE },
    ]);
    expect(outcome.toolCalls[2]?.error).toBe(false);
    expect(verdict.reward).toBe(0);
    expect(verdict.verification.constraints[0]?.evidence).toMatch(
      /call_3 return_delivered_order_items changed/,
    );
  });

  it('a write on the order counts against the refusal unless another constraint of the task asks for it', async () => {
    const delivered = refusalTask('delivered');
    const c = delivered.cove.constraints[0] as CoveTask['cove']['constraints'][number];
    const orderId = c.args.order_id as string;
    const order = read('get_order_details', { order_id: orderId }) as {
      items: { item_id: string }[];
      payment_history: { payment_method_id: string }[];
    };
    const owner = read('get_user_details', { user_id: delivered.cove.user_id }) as { email: string };
    const args = {
      order_id: orderId,
      item_ids: [order.items[0]?.item_id],
      payment_method_id: order.payment_history[0]?.payment_method_id,
    };
    const { outcome } = await play(delivered, [
      { call: 'find_user_id_by_email', args: { email: owner.email } },
      { call: 'get_order_details', args: { order_id: orderId } },
      { call: 'return_delivered_order_items', args },
      { say: REFUSE },
    ]);
    // the refusal's own predicate is set aside (the order did change): only the grounding is judged here
    const refusal = synthesis.kinds.find((k) => k.name === 'refusal') as ConstraintKind;
    const lenient: ConstraintKind = { ...refusal, predicate: () => ({ satisfied: true, evidence: 'x' }) };
    const verify = (t: CoveTask) => {
      const episode = loaded.base.fork();
      const v = verifyTrajectory({
        synthesis: { ...synthesis, kinds: [...synthesis.kinds.filter((k) => k !== refusal), lenient] },
        tools: retailDomain.tools,
        task: t,
        final: episode,
        messages: outcome.messages,
        toolCalls: outcome.toolCalls,
        termination: outcome.termination,
      });
      episode.close();
      return v.constraints.find((x) => x.id === c.id);
    };
    expect(verify(delivered)?.satisfied).toBe(false);
    // the same trajectory when the task also asks for that return (its footprint is the order)
    const both = structuredClone(delivered) as CoveTask & { cove: { constraints: unknown[] } };
    both.cove.constraints = [
      {
        id: 'c0',
        kind: 'return_delivered_order_items',
        args,
        footprint: [{ collection: 'orders', key: orderId }],
      },
      c,
    ];
    expect(verify(both)?.satisfied).toBe(true);
    // a write the other constraint's kind does not make still counts
    both.cove.constraints = [
      { id: 'c0', kind: 'cancel_pending_order', args, footprint: [{ collection: 'orders', key: orderId }] },
      c,
    ];
    expect(verify(both)?.evidence).toMatch(/call_3 return_delivered_order_items changed/);
  });

  it('a refusal kind of any domain that declares no grounding never holds', async () => {
    const bare: ConstraintKind = {
      name: 'refusal',
      category: 'refusal',
      writeTools: [],
      goldActions: () => [],
      predicate: () => ({ satisfied: true, evidence: 'nothing changed' }),
    };
    const { outcome } = await play(task, [identify, lookup, { say: REFUSE }]);
    const episode = loaded.base.fork();
    const v = verifyTrajectory({
      synthesis: { ...synthesis, kinds: [bare] },
      tools: retailDomain.tools,
      task,
      final: episode,
      messages: outcome.messages,
      toolCalls: outcome.toolCalls,
      termination: outcome.termination,
    });
    episode.close();
    expect(v.score).toBe(0);
    expect(v.constraints[0]?.evidence).toMatch(/declares no grounding/);
  });
});
