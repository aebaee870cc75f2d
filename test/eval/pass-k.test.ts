import { describe, expect, it } from 'vitest';
import { isSuccess, passHatK, passK, type TrialOutcome } from '../../src/eval/pass-k.js';

const trials = (taskId: string, rewards: (number | null | 'infra')[]): TrialOutcome[] =>
  rewards.map((r, trial) => ({
    taskId,
    trial,
    reward: r === 'infra' ? null : r,
    termination: r === 'infra' ? 'infrastructure_error' : 'user_stop',
  }));

describe('pass^k (τ²’s definition)', () => {
  it('success is a reward within 1e-6 of 1; null is never a success', () => {
    expect([1, 1 - 1e-7, 1 + 1e-7, 1 - 2e-6, 0, null].map(isSuccess)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('C(c,k)/C(n,k) by hand', () => {
    expect(passHatK(4, 3, 1)).toBeCloseTo(3 / 4, 12);
    expect(passHatK(4, 3, 2)).toBeCloseTo(3 / 6, 12); // C(3,2)=3, C(4,2)=6
    expect(passHatK(4, 3, 3)).toBeCloseTo(1 / 4, 12); // C(3,3)=1, C(4,3)=4
    expect(passHatK(4, 3, 4)).toBe(0);
    expect(() => passHatK(3, 3, 4)).toThrow(RangeError);
  });

  it('a hand-built set: 3 tasks × 4 trials, an infrastructure error and a null reward', () => {
    const outcomes = [
      ...trials('A', [1, 1, 1, 1]), // c=4 n=4
      ...trials('B', [1, 0, 1, 'infra', 1]), // infra left out: c=3 n=4
      ...trials('C', [0, null, 1, 0.5]), // c=1 n=4, one null
    ];
    const s = passK(outcomes);
    // pass^1 = (4/4 + 3/4 + 1/4)/3 = 2/3
    // pass^2 = (6/6 + 3/6 + 0/6)/3 = 1/2
    // pass^3 = (4/4 + 1/4 + 0)/3 = 5/12
    // pass^4 = (1 + 0 + 0)/3 = 1/3
    expect(s.passK.length).toBe(4);
    expect(s.passK[0]).toBeCloseTo(2 / 3, 12);
    expect(s.passK[1]).toBeCloseTo(1 / 2, 12);
    expect(s.passK[2]).toBeCloseTo(5 / 12, 12);
    expect(s.passK[3]).toBeCloseTo(1 / 3, 12);
    expect(s.infrastructureErrors).toBe(1);
    expect(s.unevaluated).toBe(1);
    expect(s.trials).toBe(12);
    expect(s.tasks).toBe(3);
    // rewards: 4 + 3 + (0 + 0 + 1 + 0.5) = 8.5 over 12 trials
    expect(s.averageReward).toBeCloseTo(8.5 / 12, 12);
    // task rates 1, 0.75, 0.25: mean 2/3, sample sd = sqrt(((1/3)^2+(1/12)^2+(5/12)^2)/2) = sqrt(7/48)
    const half = 1.96 * Math.sqrt(7 / 48 / 3);
    expect(s.ci95?.[0]).toBeCloseTo(2 / 3 - half, 12);
    expect(s.ci95?.[1]).toBeCloseTo(1, 12); // 2/3 + 0.432… clipped at 1
    expect(s.unevenTrials).toBe(false);
  });

  it('stops at the smallest trial count, and a filter leaves tasks out', () => {
    const outcomes = [...trials('A', [1, 1, 0]), ...trials('B', [1, 0])];
    const s = passK(outcomes);
    // pass^1 = (2/3 + 1/2)/2 = 7/12 ; pass^2 = (C(2,2)/C(3,2) + 0)/2 = (1/3)/2 = 1/6
    expect(s.passK).toHaveLength(2);
    expect(s.passK[0]).toBeCloseTo(7 / 12, 12);
    expect(s.passK[1]).toBeCloseTo(1 / 6, 12);
    expect(s.unevenTrials).toBe(true);
    const onlyA = passK(outcomes, (id) => id === 'A');
    expect(onlyA.passK.map((v) => Number(v.toFixed(12)))).toEqual([
      Number((2 / 3).toFixed(12)),
      Number((1 / 3).toFixed(12)),
      0,
    ]);
  });
});
