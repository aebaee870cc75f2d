import type { Rng } from '../../../core/rng.js';

/** A string of `n` decimal digits whose first digit is not 0 (τ²'s ids never start with 0). */
export function digits(rng: Rng, n: number): string {
  let s = String(rng.int(1, 9));
  for (let i = 1; i < n; i++) s += String(rng.int(0, 9));
  return s;
}

/**
 * `n` items whose counts follow `weights` as closely as whole numbers allow (largest remainder, ties to the
 * earlier item), in shuffled order. Used for every share the sandbox mirrors, so the shares hold at any size
 * instead of only on average.
 */
export function quotaList<T>(rng: Rng, n: number, items: readonly T[], weights: readonly number[]): T[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / total) * n);
  const counts = exact.map(Math.floor);
  let left = n - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
    left--;
  }
  const out: T[] = [];
  items.forEach((item, i) => {
    for (let k = 0; k < (counts[i] ?? 0); k++) out.push(item);
  });
  return rng.shuffle(out);
}

/**
 * Draws until `accept` holds and the value is not in `taken` (which then gets it). Deterministic: every retry
 * comes from the same stream. @throws {Error} when no acceptable value turns up (a too small id space).
 */
export function drawUnique(
  what: string,
  draw: () => string,
  taken: Set<string>,
  accept: (v: string) => boolean,
) {
  for (let attempt = 0; attempt < 100_000; attempt++) {
    const v = draw();
    if (!taken.has(v) && accept(v)) {
      taken.add(v);
      return v;
    }
  }
  throw new Error(`sandbox: no free ${what} found after 100000 attempts`);
}

/** Draws until `accept` holds (no uniqueness). */
export function drawUntil<T>(what: string, draw: () => T, accept: (v: T) => boolean): T {
  for (let attempt = 0; attempt < 100_000; attempt++) {
    const v = draw();
    if (accept(v)) return v;
  }
  throw new Error(`sandbox: no acceptable ${what} found after 100000 attempts`);
}
