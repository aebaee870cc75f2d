import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { isAffirmative } from '../../src/domains/retail/sim/oracle-agent.js';
import { RetailScriptedUser } from '../../src/domains/retail/sim/scripted-user.js';
import type { RetailFuzz } from '../../src/domains/retail/synthesis/requests.js';
import type { VisibleMessage } from '../../src/sim/roles.js';
import type { Behaviour } from '../../src/tasks/behaviour.js';

// A hand-written fuzzy task: one exchange, described by items, options and card brand.
const fuzz: RetailFuzz = {
  level: 2,
  user: { strategy: 'email', email: 'mia.lopez4410@example.net' },
  requests: [
    {
      kind: 'exchange_delivered_order_items',
      order: { strategy: 'items', items: [{ product_name: 'Desk Lamp' }] },
      items: [
        {
          item: { strategy: 'name', product_name: 'Desk Lamp' },
          replacement: { strategy: 'options', product_name: 'Desk Lamp', options: { color: 'brass' } },
        },
      ],
      payment: { strategy: 'brand', source: 'credit_card', brand: 'visa' },
    },
  ],
  strategies: [],
  hidden_ids: ['mia_lopez_4410'],
};

const PROPOSAL =
  'In your order with the desk lamp I will exchange: the desk lamp (color black) → the desk lamp with color brass ($20.00). You will pay the difference with your Visa credit card ending in 1111. Shall I go ahead?';

async function conversation(agentLines: string[], behaviour?: Behaviour, seed = 5): Promise<string[]> {
  const user = new RetailScriptedUser(fuzz, new Rng(seed), behaviour);
  const visible: VisibleMessage[] = [{ role: 'agent', content: 'Hi! How can I help you today?' }];
  const said: string[] = [];
  for (const line of ['', ...agentLines]) {
    if (line !== '') visible.push({ role: 'agent', content: line });
    const turn = await user.respond(visible);
    visible.push({ role: 'user', content: turn.content });
    said.push(turn.content);
  }
  return said;
}

describe('scripted user', () => {
  it('states the request, identifies itself, answers questions from its descriptions, confirms, then stops', async () => {
    const said = await conversation([
      'Sure. Can I have your email address first?',
      'Which payment method would you like to use for the difference?',
      PROPOSAL,
      'Done: your exchange has been requested.',
    ]);
    expect(said[0]).toMatch(/exchange .*desk lamp.*brass/);
    expect(said[0]).toMatch(/visa/i);
    expect(said[1]).toContain('mia.lopez4410@example.net');
    expect(said[2]).toMatch(/Visa/);
    expect(said[2]).not.toMatch(/desk lamp/);
    expect(isAffirmative(said[3] ?? '')).toBe(true);
    expect(said[3]).not.toContain('###STOP###');
    expect(said[4]).toContain('###STOP###');
    expect(said.join(' ')).not.toContain('mia_lopez_4410');
  });

  it('declines a proposal that does not match its request', async () => {
    const said = await conversation([
      'Can I have your email address?',
      'I will exchange the desk lamp (color black) for the desk lamp (color silver), paid with your Visa card. Shall I go ahead?',
    ]);
    expect(said[2]).toMatch(/^No, that/);
  });

  it('opens with only its intent when its knowledge says so, and gives each detail only when asked', async () => {
    const behaviour: Behaviour = {
      persona: 'formal',
      knowledge: [{ kind: 'partial_info', request: 0 }],
      events: [],
    };
    const said = await conversation(
      [
        'Could I have the email address on your account?',
        'Which order is this about?',
        'Which item would you like to exchange?',
        'Which payment method would you like to use?',
      ],
      behaviour,
      9,
    );
    expect(said[0]).toMatch(/exchange/);
    expect(said[0]).not.toMatch(/desk lamp|visa/i);
    expect(said[2]).toMatch(/desk lamp/i);
    expect(said[2]).not.toMatch(/visa/i);
    expect(said[3]).toMatch(/desk lamp.*brass/);
    expect(said[3]).not.toMatch(/visa/i);
    expect(said[4]).toMatch(/Visa/);
  });

  it('gives a wrong email first, corrects it when the agent cannot find the account, and reports the events', async () => {
    const behaviour: Behaviour = {
      persona: 'terse',
      knowledge: [{ kind: 'wrong_detail', field: 'email', value: 'mia.lopez4411@example.net' }],
      events: [],
    };
    const user = new RetailScriptedUser(fuzz, new Rng(3), behaviour);
    const visible: VisibleMessage[] = [{ role: 'agent', content: 'Hi! How can I help you today?' }];
    const lines = [
      '',
      'Could I have the email address on your account?',
      "I'm sorry, I couldn't find an account with that email address. Could you check it?",
    ];
    const said: string[] = [];
    for (const line of lines) {
      if (line !== '') visible.push({ role: 'agent', content: line });
      const turn = await user.respond(visible);
      visible.push({ role: 'user', content: turn.content });
      said.push(turn.content);
    }
    const all = said.join('\n');
    expect(all).toContain('mia.lopez4411@example.net');
    expect(all.indexOf('mia.lopez4411@example.net')).toBeLessThan(all.indexOf('mia.lopez4410@example.net'));
    expect(user.enactedEvents()).toEqual(['wrong_detail']);
  });

  it('changes its mind at the proposal built on the payment method it named first', async () => {
    const behaviour: Behaviour = {
      persona: 'chatty',
      knowledge: [],
      events: [
        {
          kind: 'change_of_mind',
          request: 0,
          field: 'payment',
          first: { strategy: 'kind', source: 'paypal' },
        },
      ],
    };
    const said = await conversation(
      [
        'Could I have the email address on your account?',
        PROPOSAL.replace('your Visa credit card ending in 1111', 'your PayPal account'),
        PROPOSAL,
      ],
      behaviour,
    );
    expect(said[0]).toMatch(/PayPal/);
    expect(said[0]).not.toMatch(/visa/i);
    expect(said[2]).toMatch(/Visa/);
    expect(isAffirmative(said[2] ?? '')).toBe(false);
    expect(isAffirmative(said[3] ?? '')).toBe(true);
  });
});
