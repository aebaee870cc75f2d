import { relative, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { pyJsonDumps } from '../core/py-json.js';
import type { PyValue } from '../core/py-value.js';
import { type Domain, sandboxSize } from '../domains/domain.js';
import { baseFromValue, type LoadedDb, loadDbFile } from '../domains/load-db.js';
import type { TaskDbSource } from '../tasks/cove-task.js';

/** A loaded DB with its provenance for the tasks' `cove.db` block. */
export interface DbChoice {
  readonly loaded: LoadedDb;
  readonly source: TaskDbSource;
  /** The sandbox's db.json text when cove generated it (a run writes it into its folder). */
  readonly sandboxText?: string;
}

/** Most tasks one run or tasks file holds (tasks.json is one JSON text: about 4 KB a task). */
export const MAX_TASKS = 50_000;
/** Largest seed (seeds are 32-bit unsigned, as numpy's and τ²'s are). */
export const MAX_SEED = 2 ** 32 - 1;

/**
 * Parses an integer flag in `[min, max]`; the message states the range.
 * @throws {ConfigError} naming the flag, the range and the value given.
 */
export function intFlag(
  name: string,
  value: string | undefined,
  fallback: number,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  const n = Number(value.trim());
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new ConfigError(`${name} must be an integer ${range}, not '${value}'`);
  }
  return n;
}

/** Loads `--db <file>`, or generates the domain's sandbox for `--sandbox-seed N`. */
export function chooseDb(
  domain: Domain,
  options: {
    db?: string | undefined;
    sandboxSeed?: number | undefined;
    /** Sandbox sizes by the domain's declared keys; missing keys take the domain's defaults. */
    size?: Readonly<Record<string, number | undefined>> | undefined;
    /** Folder the recorded `path` is made relative to (the tasks file's folder). @defaultValue absolute */
    pathBase?: string | undefined;
  },
): DbChoice {
  if (options.db !== undefined && options.sandboxSeed !== undefined) {
    throw new ConfigError('give either --db or --sandbox-seed, not both');
  }
  if (options.db !== undefined) {
    const loaded = loadDbFile(domain, options.db);
    return {
      loaded,
      source: {
        path:
          options.pathBase === undefined
            ? resolve(options.db)
            : relative(resolve(options.pathBase), resolve(options.db)),
        canonical_sha256: loaded.hashes.canonical_sha256,
        benchmark: loaded.isTau2Benchmark,
      },
    };
  }
  if (options.sandboxSeed === undefined) throw new ConfigError('give --db <db.json> or --sandbox-seed N');
  const sandbox = domain.sandbox;
  if (sandbox === undefined)
    throw new ConfigError(`domain ${domain.name} has no sandbox generator; give --db`);
  const size = sandboxSize(sandbox, options.size);
  const value: PyValue = sandbox.generate(options.sandboxSeed, size);
  const text = pyJsonDumps(value, { indent: 4 });
  const loaded = baseFromValue(domain, value, `sandbox(seed=${options.sandboxSeed})`);
  return {
    loaded,
    source: {
      sandbox: { domain: domain.name, seed: options.sandboxSeed, size },
      canonical_sha256: loaded.hashes.canonical_sha256,
    },
    sandboxText: text,
  };
}
