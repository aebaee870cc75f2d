import { describe, expect, it } from 'vitest';
import { deriveSeed, Rng } from './rng.js';

describe('Rng', () => {
  it('gives the same stream for the same seed and different streams for different seeds', () => {
    const draw = (seed: number) =>
      Array.from({ length: 20 }, (_, i) => new Rng(seed).child('x', i).int(0, 1_000_000));
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
  });

  it('derives child streams from the seed and path only, not from the draws made before', () => {
    const a = new Rng(7);
    const b = new Rng(7);
    b.int(0, 10);
    b.int(0, 10);
    expect(a.child('task', 3).int(0, 1e9)).toBe(b.child('task', 3).int(0, 1e9));
    expect(deriveSeed(7, 'task', 3)).toBe(deriveSeed(7, 'task', 3));
    expect(deriveSeed(7, 'task', 3)).not.toBe(deriveSeed(7, 'task', 4));
  });

  it('stays within bounds and covers them', () => {
    const rng = new Rng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = rng.int(2, 6);
      expect(v).toBeGreaterThanOrEqual(2);
      expect(v).toBeLessThanOrEqual(6);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([2, 3, 4, 5, 6]);
  });

  it('shuffles into a permutation and samples distinct items', () => {
    const rng = new Rng(11);
    const items = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(rng.shuffle(items).sort()).toEqual(items);
    const s = rng.sample(items, 3);
    expect(new Set(s).size).toBe(3);
    expect(() => rng.pick([])).toThrow(RangeError);
  });
});
