import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { expand, lastQuestion, say, tidy } from '../../src/sim/scripted/grammar.js';

describe('paraphrase grammar', () => {
  it('fills slots and picks one branch of every choice group, nested ones included', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 200; seed++)
      seen.add(expand(new Rng(1).child('grammar', seed), '[Hi|Hello[ there|]], {name}.', { name: 'Ada' }));
    expect([...seen].sort()).toEqual(['Hello there, Ada.', 'Hello, Ada.', 'Hi, Ada.']);
  });

  it('is a function of the seed', () => {
    const t = ['[a|b|c][d|e]{x}', '[f|g]{x}'];
    expect(say(new Rng(7), t, { x: '!' })).toBe(say(new Rng(7), t, { x: '!' }));
  });

  it('names a template slot without a value', () => {
    expect(() => expand(new Rng(1), 'Hi {who}')).toThrow(/\{who\} has no value/);
  });

  it('tidies the gaps an empty branch leaves and capitalises the start', () => {
    expect(tidy('okay,  that is done .')).toBe('Okay, that is done.');
    expect(say(new Rng(1), ['[|]{x} , fine'], { x: 'it' })).toBe('It, fine');
  });

  it('finds the last question of a message', () => {
    expect(
      lastQuestion('I see 2 orders: one with a lamp; one with a desk. Which of these orders do you mean?'),
    ).toBe('which of these orders do you mean?');
    expect(lastQuestion('Done. Anything else?')).toBe('anything else?');
    expect(lastQuestion('No question here.')).toBe('');
  });
});
