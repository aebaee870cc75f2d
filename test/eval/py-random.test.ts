import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PyRandom, trialSeeds } from '../../src/eval/py-random.js';

/** Values computed by the machine's own CPython (`random` module), the reference the port must equal. */
function python(code: string): unknown {
  return JSON.parse(execFileSync('python3', ['-c', `import json, random\n${code}`], { encoding: 'utf8' }));
}

describe('Python random (MT19937, seed, randint)', () => {
  it('gives τ²’s per-trial seeds: random.seed(300), randint(0, 1_000_000) per trial', () => {
    const expected = python(
      'random.seed(300)\nprint(json.dumps([random.randint(0, 1_000_000) for _ in range(16)]))',
    );
    expect(trialSeeds(300, 16)).toEqual(expected);
    // written down once from CPython 3, so the test also holds where python3 is another build
    expect(trialSeeds(300, 4)).toEqual([626729, 373753, 361454, 1567]);
  });

  it('equals CPython for many seeds: getrandbits(32) past a state refill, randint over small and wide ranges', () => {
    const seeds = [0, 1, 42, 300, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 7, 2 ** 53 - 1, -5];
    const expected = python(
      `out = []\nfor s in ${JSON.stringify(seeds)}:\n  random.seed(s)\n` +
        `  out.append([random.getrandbits(32) for _ in range(700)] + [random.randint(0, 10) for _ in range(50)] + ` +
        `[random.randint(-3, 2**31) for _ in range(50)] + [random.randint(5, 5)])\nprint(json.dumps(out))`,
    );
    const got = seeds.map((seed) => {
      const rng = new PyRandom(seed);
      return [
        ...Array.from({ length: 700 }, () => rng.getrandbits(32)),
        ...Array.from({ length: 50 }, () => rng.randint(0, 10)),
        ...Array.from({ length: 50 }, () => rng.randint(-3, 2 ** 31)),
        rng.randint(5, 5),
      ];
    });
    expect(got).toEqual(expected);
  });
});
