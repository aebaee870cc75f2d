import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { RetailScriptedUser } from '../../src/domains/retail/sim/scripted-user.js';
import type { RetailFuzz } from '../../src/domains/retail/synthesis/requests.js';
import type { VisibleMessage } from '../../src/sim/roles.js';

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

async function conversation(agentLines: string[]): Promise<string[]> {
  const user = new RetailScriptedUser(fuzz, new Rng(5));
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
      'Which payment method should I use for the difference?',
      'In order #W1 (desk lamp) I will exchange the desk lamp (color black; item 1) → the desk lamp (color brass; item 2). You will pay the difference with your Visa credit card ending in 1111. Shall I go ahead? (yes/no)',
      'Done: your exchange has been requested.',
    ]);
    expect(said[0]).toMatch(/exchange the desk lamp for the same desk lamp but with color brass/);
    expect(said[1]).toContain('mia.lopez4410@example.net');
    expect(said[2]).toBe('Please use my Visa credit card.');
    expect(said[3]).toMatch(/^Yes/);
    expect(said[3]).not.toContain('###STOP###');
    expect(said[4]).toContain('###STOP###');
    expect(said.join(' ')).not.toContain('mia_lopez_4410');
  });

  it('declines a proposal that does not match its request', async () => {
    const said = await conversation([
      'Can I have your email address?',
      'I will exchange the desk lamp (color black) for the desk lamp (color silver), paid with your Visa card. Shall I go ahead? (yes/no)',
    ]);
    expect(said[2]).toMatch(/^No, that is not what I asked for/);
  });
});
