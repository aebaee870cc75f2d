import { describe, expect, it } from 'vitest';
import { RETAIL_CONSTRAINT_KINDS } from '../../src/domains/retail/synthesis/kinds.js';
import type { ChatMessage } from '../../src/sim/messages.js';
import type { ExecutedToolCall } from '../../src/sim/run-episode.js';
import { attributeFailure } from '../../src/verify/failure.js';
import type { Verification } from '../../src/verify/verification.js';

/**
 * Failure attribution on hand-built episodes: one cancel constraint (c1 on order A); the cause each case must
 * get follows from the rules in failure.ts's docstring.
 */

const WRITES = new Set(['cancel_pending_order', 'modify_user_address']);
const KINDS = RETAIL_CONSTRAINT_KINDS;
const NONE = { leaks: 0, invalidToolArguments: 0, unknownToolCalls: 0 };
const GREETING: ChatMessage = { role: 'assistant', content: 'Hi! How can I help you today?' };
const user = (content: string): ChatMessage => ({ role: 'user', content });
const agent = (content: string): ChatMessage => ({ role: 'assistant', content });

function call(name: string, error = false): ExecutedToolCall {
  return {
    id: `call_${name}`,
    name,
    arguments: '{}',
    argumentsValid: true,
    error,
    changed: [],
    messageIndex: 0,
  };
}

function verdict(over: Partial<Verification>): Verification {
  return {
    score: 0,
    stateMatch: false,
    tau2Reward: 0,
    constraints: [{ id: 'c1', kind: 'cancel_pending_order', satisfied: false, evidence: '' }],
    redundant: [],
    terminationOk: true,
    ...over,
  };
}

const episode = (messages: ChatMessage[], toolCalls: ExecutedToolCall[], termination = 'user_stop') =>
  ({ termination, messages, toolCalls }) as Parameters<typeof attributeFailure>[0];

describe('attributeFailure', () => {
  const talk = [GREETING, user('cancel my order'), agent('Done, anything else?'), user('bye ###STOP###')];

  it('passes: score 1 and state match → undefined; score 1 without it → state_mismatch', () => {
    const ok = verdict({ score: 1, stateMatch: true });
    expect(
      attributeFailure(episode(talk, [call('cancel_pending_order')]), ok, KINDS, WRITES, NONE),
    ).toBeUndefined();
    expect(
      attributeFailure(
        episode(talk, [call('cancel_pending_order')]),
        { ...ok, stateMatch: false },
        KINDS,
        WRITES,
        NONE,
      ),
    ).toBe('state_mismatch');
  });

  it('the constraint’s tool on another entity (cancelled the wrong order) → wrong_write', () => {
    const v = verdict({
      redundant: [{ call_id: 'x', tool: 'cancel_pending_order', reason: 'outside_footprint' }],
    });
    expect(attributeFailure(episode(talk, [call('cancel_pending_order')]), v, KINDS, WRITES, NONE)).toBe(
      'wrong_write',
    );
  });

  it('another tool outside the footprint, or a duplicate write → redundant_write', () => {
    const other = verdict({
      redundant: [{ call_id: 'x', tool: 'modify_user_address', reason: 'outside_footprint' }],
    });
    expect(attributeFailure(episode(talk, [call('modify_user_address')]), other, KINDS, WRITES, NONE)).toBe(
      'redundant_write',
    );
    const satisfiedTwice = verdict({
      score: 0.5,
      constraints: [{ id: 'c1', kind: 'cancel_pending_order', satisfied: true, evidence: '' }],
      redundant: [{ call_id: 'y', tool: 'cancel_pending_order', reason: 'duplicate' }],
    });
    expect(
      attributeFailure(episode(talk, [call('cancel_pending_order')]), satisfiedTwice, KINDS, WRITES, NONE),
    ).toBe('redundant_write');
  });

  it('a successful write of the right tool that did not satisfy the constraint → wrong_write', () => {
    expect(
      attributeFailure(episode(talk, [call('cancel_pending_order')]), verdict({}), KINDS, WRITES, NONE),
    ).toBe('wrong_write');
  });

  it('the agent talked and looked things up but never wrote → agent_never_wrote', () => {
    expect(
      attributeFailure(episode(talk, [call('get_order_details')]), verdict({}), KINDS, WRITES, NONE),
    ).toBe('agent_never_wrote');
    // a failed write is no write
    expect(
      attributeFailure(episode(talk, [call('cancel_pending_order', true)]), verdict({}), KINDS, WRITES, NONE),
    ).toBe('agent_never_wrote');
  });

  it('the user stopped in the first turn, or while the agent asked for a confirmation → user_stopped_early', () => {
    const first = [GREETING, user('never mind ###STOP###')];
    expect(attributeFailure(episode(first, []), verdict({}), KINDS, WRITES, NONE)).toBe('user_stopped_early');
    const asking = [
      GREETING,
      user('cancel it'),
      agent('Shall I cancel order A? (yes/no)'),
      user('###STOP###'),
    ];
    expect(
      attributeFailure(episode(asking, [call('get_order_details')]), verdict({}), KINDS, WRITES, NONE),
    ).toBe('user_stopped_early');
  });

  it('terminations and channel problems come first', () => {
    const v = verdict({
      redundant: [{ call_id: 'x', tool: 'cancel_pending_order', reason: 'outside_footprint' }],
    });
    expect(attributeFailure(episode(talk, [], 'infrastructure_error'), v, KINDS, WRITES, NONE)).toBe(
      'infrastructure',
    );
    expect(attributeFailure(episode(talk, [], 'max_steps'), v, KINDS, WRITES, NONE)).toBe('max_steps');
    expect(attributeFailure(episode(talk, []), v, KINDS, WRITES, { ...NONE, leaks: 1 })).toBe('leak');
    expect(attributeFailure(episode(talk, []), v, KINDS, WRITES, { ...NONE, unknownToolCalls: 1 })).toBe(
      'unknown_tool',
    );
    expect(attributeFailure(episode(talk, []), v, KINDS, WRITES, { ...NONE, invalidToolArguments: 1 })).toBe(
      'invalid_tool_arguments',
    );
  });

  it('only the information constraint missed → information_not_given', () => {
    const v = verdict({
      constraints: [
        { id: 'c1', kind: 'cancel_pending_order', satisfied: true, evidence: '' },
        { id: 'c2', kind: 'information', satisfied: false, evidence: '' },
      ],
      score: 0.5,
    });
    expect(attributeFailure(episode(talk, [call('cancel_pending_order')]), v, KINDS, WRITES, NONE)).toBe(
      'information_not_given',
    );
  });
});
