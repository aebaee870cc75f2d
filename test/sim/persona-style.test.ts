import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { styled } from '../../src/sim/scripted/behaviour.js';
import { isAffirmative } from '../../src/sim/scripted/replies.js';
import { PERSONAS } from '../../src/tasks/behaviour.js';

describe('persona style', () => {
  it('keeps a yes a yes and keeps the facts of the message, in every persona', () => {
    for (const persona of PERSONAS) {
      const seen = new Set<string>();
      for (let i = 0; i < 300; i++) {
        const text = styled(
          new Rng(4).child(persona, i),
          persona,
          'Yes, go ahead with the return of the desk lamp.',
        );
        expect(isAffirmative(text), `${persona}: ${text}`).toBe(true);
        expect(text).toContain('desk lamp');
        seen.add(text);
      }
      // remarks and slips vary the surface (terse users mostly drop them, so fewer forms)
      expect(seen.size, persona).toBeGreaterThan(persona === 'terse' ? 3 : 10);
    }
  });

  it('keeps a yes a yes in every situation a remark may frame', () => {
    const situations = ['open', 'answer', 'refusal', 'confirm', 'done'] as const;
    for (const situation of situations)
      for (const persona of PERSONAS)
        for (let i = 0; i < 100; i++) {
          const text = styled(
            new Rng(5).child(persona, situation, i),
            persona,
            'Yes, go ahead.',
            false,
            situation,
          );
          expect(isAffirmative(text), `${situation} ${persona}: ${text}`).toBe(true);
        }
  });

  it('reads yes, amendments and refusals of a proposal', () => {
    expect(isAffirmative('Yep, please proceed with the exchange.')).toBe(true);
    expect(isAffirmative('Looks good.')).toBe(true);
    expect(isAffirmative('Actually, I would rather use my PayPal account instead.')).toBe(false);
    expect(isAffirmative("No, that's not what I asked for.")).toBe(false);
    expect(
      isAffirmative('Phew, okay. Wait, on second thought, the reason should be "ordered by mistake".'),
    ).toBe(false);
  });
});
