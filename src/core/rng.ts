import { createHash } from 'node:crypto';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

type Generator = ReturnType<typeof xoroshiro128plus>;

/**
 * Derives a 32-bit seed from a root seed and a path of labels, e.g. `deriveSeed(1, 'task', 7)`.
 * Every random stream in cove is named this way, so task *i* depends only on (seed, i).
 */
export function deriveSeed(seed: number, ...path: (string | number)[]): number {
  const digest = createHash('sha256')
    .update(JSON.stringify([seed, ...path]))
    .digest();
  return digest.readInt32LE(0);
}

/** A seeded, splittable random source (xoroshiro128+ from pure-rand). Not cryptographic. */
export class Rng {
  readonly #gen: Generator;
  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed;
    this.#gen = xoroshiro128plus(seed);
  }

  /** An independent stream named by `path`, derived from this stream's seed (not from its position). */
  child(...path: (string | number)[]): Rng {
    return new Rng(deriveSeed(this.seed, ...path));
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return uniformInt(this.#gen, min, max);
  }

  /** Float in [0, 1). */
  float(): number {
    return this.int(0, 2 ** 30 - 1) / 2 ** 30;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One element, uniformly. @throws {RangeError} on an empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick() from an empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** One element, with the given non-negative weights. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((a, b) => a + b, 0);
    let x = this.float() * total;
    for (let i = 0; i < items.length; i++) {
      x -= weights[i] ?? 0;
      if (x < 0) return items[i] as T;
    }
    return items[items.length - 1] as T;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** `k` distinct elements in random order (k is clamped to the list length). */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, Math.min(k, items.length)));
  }
}
