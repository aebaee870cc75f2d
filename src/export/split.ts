import { ConfigError } from '../core/errors.js';
import { deriveSeed, Rng } from '../core/rng.js';

/** A named share of the tasks. */
export interface SplitSpec {
  readonly name: string;
  readonly fraction: number;
}

/**
 * Parses `--split train=0.95,test=0.05`: names of letters, digits, `_` or `-`, each once, shares in (0, 1] that
 * add up to 1 (within 1e-6).
 * @throws {ConfigError} naming the flag and the faulty part
 */
export function parseSplit(text: string): SplitSpec[] {
  const parts = text.split(',').map((p) => p.trim());
  const specs = parts.map((part) => {
    const m = /^([A-Za-z0-9_-]+)=([0-9]*\.?[0-9]+)$/.exec(part);
    const fraction = m === null ? Number.NaN : Number(m[2]);
    if (m === null || !(fraction > 0 && fraction <= 1)) {
      throw new ConfigError(
        `--split: '${part}' is not NAME=SHARE with a share in (0, 1] (e.g. train=0.95,test=0.05)`,
      );
    }
    return { name: m[1] as string, fraction };
  });
  const names = new Set(specs.map((s) => s.name));
  if (names.size !== specs.length) throw new ConfigError(`--split: a split name appears twice in '${text}'`);
  if (names.has('data'))
    throw new ConfigError(`--split: 'data' is the name of the unsplit file; choose another`);
  const sum = specs.reduce((a, s) => a + s.fraction, 0);
  if (Math.abs(sum - 1) > 1e-6)
    throw new ConfigError(`--split: the shares of '${text}' add up to ${sum}, not 1`);
  return specs;
}

/**
 * Assigns whole tasks to splits, so two trajectories of one task never land in different splits: the distinct
 * task keys are sorted, shuffled with a generator seeded by `seed` alone (Fisher–Yates), and cut into runs whose
 * sizes are the shares times the number of tasks, rounded by largest remainder (ties to the earlier split).
 * The same keys and seed give the same assignment whatever order the keys come in.
 * @returns split name per task key
 */
export function assignSplits(
  taskKeys: Iterable<string>,
  specs: readonly SplitSpec[],
  seed: number,
): Map<string, string> {
  const keys = [...new Set(taskKeys)].sort();
  const rng = new Rng(deriveSeed(seed, 'export-split'));
  for (let i = keys.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
  }
  const exact = specs.map((s) => s.fraction * keys.length);
  const counts = exact.map(Math.floor);
  let left = keys.length - counts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((x, i) => ({ i, rest: x - Math.floor(x) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left-- <= 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
  }
  const out = new Map<string, string>();
  let at = 0;
  specs.forEach((s, i) => {
    for (let n = 0; n < (counts[i] ?? 0); n++) out.set(keys[at++] as string, s.name);
  });
  return out;
}
