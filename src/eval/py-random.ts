/**
 * Python's `random` module, as far as τ² uses it to draw per-trial seeds: the Mersenne Twister MT19937
 * (Matsumoto & Nishimura 1998, `init_by_array` seeding), `random.seed(int)` (the integer's absolute value split
 * into 32-bit words, least significant first, as CPython's `random_seed` does) and `random.randint(a, b)`
 * (CPython's `_randbelow_with_getrandbits`: draw `bit_length(n)` bits, reject values ≥ n).
 */
export class PyRandom {
  readonly #mt = new Uint32Array(624);
  #index = 624;

  /** `random.seed(seed)` for a non-negative or negative safe integer (Python uses its absolute value). */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`PyRandom: seed ${seed} is not a safe integer`);
    let n = BigInt(Math.abs(seed));
    const key: number[] = [];
    do {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    } while (n > 0n);
    this.#initByArray(key);
  }

  #initGenrand(s: number): void {
    const mt = this.#mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < 624; i++) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.#index = 624;
  }

  #initByArray(key: readonly number[]): void {
    const mt = this.#mt;
    this.#initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = (((mt[i] as number) ^ Math.imul(prev, 1664525)) + (key[j] as number) + j) >>> 0;
      i++;
      j++;
      if (i >= 624) {
        mt[0] = mt[623] as number;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = (((mt[i] as number) ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) {
        mt[0] = mt[623] as number;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** The next 32-bit output of MT19937 (`genrand_uint32`). */
  nextUint32(): number {
    const mt = this.#mt;
    if (this.#index >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = ((mt[k] as number) & 0x80000000) | ((mt[(k + 1) % 624] as number) & 0x7fffffff);
        mt[k] = (mt[(k + 397) % 624] as number) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.#index = 0;
    }
    let y = mt[this.#index++] as number;
    y ^= y >>> 11;
    y = (y ^ ((y << 7) & 0x9d2c5680)) >>> 0;
    y = (y ^ ((y << 15) & 0xefc60000)) >>> 0;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random.getrandbits(k)` for 1 ≤ k ≤ 32. */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 1 || k > 32) throw new RangeError(`getrandbits: k=${k} not in 1..32`);
    return this.nextUint32() >>> (32 - k);
  }

  /** `random.randint(a, b)`: uniform on the integers a..b inclusive; b − a + 1 must be below 2³². */
  randint(a: number, b: number): number {
    const n = b - a + 1;
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || n < 1 || n > 0xffffffff) {
      throw new RangeError(`randint(${a}, ${b}): empty or too wide a range`);
    }
    const bits = Math.floor(Math.log2(n)) + 1; // int.bit_length()
    let r = this.getrandbits(Math.min(bits, 32));
    while (r >= n) r = this.getrandbits(Math.min(bits, 32));
    return a + r;
  }
}

/** τ²'s seed of its trials: `random.seed(300)` in its run configuration. */
export const TAU2_SEED = 300;

/**
 * The per-trial seeds τ² gives both models (τ²'s `run_tasks`: `random.seed(seed)` then one
 * `random.randint(0, 1_000_000)` per trial); `trialSeeds(300, 4)` → `[626729, 373753, 361454, 1567]`.
 */
export function trialSeeds(seed: number, trials: number): number[] {
  const rng = new PyRandom(seed);
  return Array.from({ length: trials }, () => rng.randint(0, 1_000_000));
}
