import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { bridged, conversationSoFar } from '../../src/sim/prefix/prefix-roles.js';

// The scripted user's first message after a conversation prefix (`cove generate --from`): a bridge sentence, then
// its opening request without the greeting or acknowledgement it would say after the agent's greeting.
const BRIDGE =
  /^(Thanks for that\. While I have you, there is something else I need help with\.|Okay, thank you\. There is one more thing I wanted to ask about\.|Thanks\. I also need help with something else\.|Got it, thanks\. Now, the other reason I got in touch\.|Great, thank you\. Something different now\.|Alright, thanks\. Can you also help me with another thing\?) /;

describe('bridged', () => {
  it.each([
    ['Hi! I want to cancel an order.', 'I want to cancel an order.'],
    ['Good morning. I need to change my address.', 'I need to change my address.'],
    ['Hello there, can you check my order?', 'Can you check my order?'],
    ['Sure thing. I would like the title changed.', 'I would like the title changed.'],
    ['Um, okay. Could you tell me the author?', 'Could you tell me the author?'],
    ['Hi! Sure. please change my address.', 'Please change my address.'],
    ['I need to return a lamp.', 'I need to return a lamp.'],
    ['Hi!', 'Hi!'],
  ])('%j → a bridge, then %j', (opening, request) => {
    const text = bridged(new Rng(7), opening);
    expect(text).toMatch(BRIDGE);
    expect(text.replace(BRIDGE, '')).toBe(request);
  });

  it('draws the bridge from the episode’s seed: the same seed, the same sentence', () => {
    const drawn = new Set(Array.from({ length: 40 }, (_, i) => bridged(new Rng(i), 'Hi. X.')));
    expect(drawn.size).toBeGreaterThan(3);
    expect(bridged(new Rng(11), 'Hi. X.')).toBe(bridged(new Rng(11), 'Hi. X.'));
  });
});

describe('conversationSoFar', () => {
  const messages = [
    { role: 'user' as const, content: 'My email is amy@example.com.', cove_prefix: true as const },
    { role: 'assistant' as const, content: 'Thanks, I found your account.', cove_prefix: true as const },
  ];
  it('tells a model user the agent knows them only when the prefix identified the customer', () => {
    const known = 'The agent already knows who you are';
    expect(conversationSoFar({ id: 'a', index: 0, messages, userId: 'amy_1' })).toContain(known);
    expect(conversationSoFar({ id: 'a', index: 0, messages })).not.toContain(known);
    expect(conversationSoFar({ id: 'a', index: 0, messages })).toContain('do not greet the agent again.');
  });
});
