import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { PyValue } from '../core/py-value.js';
import { buildBase } from '../env/build-base.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import type { StateHashes } from '../env/state-digest.js';
import { readJsonInput } from '../io/read-input.js';
import { baseCacheKey, readCachedBase, writeCachedBase } from './base-cache.js';
import { type Domain, type DomainEnvironment, sandboxSize } from './domain.js';

/** A loaded base and what is known about where it came from. */
export interface LoadedDb {
  readonly base: EnvironmentBase;
  readonly file: string;
  readonly hashes: StateHashes;
  /** True when the state equals τ²'s pristine DB: outputs made from it are labelled benchmark data. */
  readonly isTau2Benchmark: boolean;
}

/** The last file read, so that a command which first looks at a file (which domain?) and then loads it parses it once. */
let lastRead: { file: string; mtimeMs: number; size: number; value: PyValue } | undefined;

/**
 * Reads a JSON file losslessly (ints stay ints, floats stay floats, dict order kept) through the shared bounded,
 * depth-limited, UTF-8-checked reader ({@link readJsonInput}). The value must be treated as read-only: the last
 * file read is kept and handed out again while the file is unchanged.
 * @throws {InputFileError} for unreadable, too large, non-UTF-8 or too deeply nested files and syntax errors.
 */
export function readJsonFile(file: string): PyValue {
  let stat: { mtimeMs: number; size: number };
  try {
    stat = statSync(file);
  } catch {
    return readJsonInput(file); // names the file and the cause
  }
  const hit = lastRead;
  if (
    hit !== undefined &&
    hit.file === resolve(file) &&
    hit.mtimeMs === stat.mtimeMs &&
    hit.size === stat.size
  ) {
    return hit.value;
  }
  const value = readJsonInput(file);
  lastRead = { file: resolve(file), mtimeMs: stat.mtimeMs, size: stat.size, value };
  return value;
}

/** Builds a base from an already parsed τ² DB value. */
export function baseFromValue(domain: Domain, value: PyValue, file: string): LoadedDb {
  const tau2 = domain.tau2;
  if (tau2 === undefined) {
    throw new ConfigError(
      `domain ${domain.name} cannot load a db.json (it has no τ² import); give it its SQLite database`,
    );
  }
  const base = buildBase(domain, (sql) => tau2.importDb(sql, value, file));
  const hashes = base.hashes();
  const known = tau2.initialHashes;
  return { base, file, hashes, isTau2Benchmark: known !== undefined && known.db_hash === hashes.db_hash };
}

/** The cached base of a db.json (see {@link readCachedBase}), or `undefined` when it is not in the cache. */
function readThroughCache(domain: DomainEnvironment, file: string): { loaded?: LoadedDb; key?: string } {
  if (domain.tau2 === undefined) return {}; // only τ² imports are cached
  let bytes: Buffer | undefined;
  try {
    bytes = readFileSync(file);
  } catch {
    // readJsonFile reports the problem with the file's name
  }
  const key = bytes === undefined ? undefined : baseCacheKey(domain, bytes);
  const cached = key === undefined ? undefined : readCachedBase(domain, key);
  if (cached === undefined) return key === undefined ? {} : { key };
  const known = domain.tau2?.initialHashes;
  return {
    loaded: {
      ...cached,
      file,
      isTau2Benchmark: known !== undefined && known.db_hash === cached.hashes.db_hash,
    },
  };
}

/** A db.json loaded through the disk cache of bases (see {@link readCachedBase}); parsed only on a miss. */
function loadThroughCache(domain: Domain, file: string): LoadedDb {
  const { loaded: cached, key } = readThroughCache(domain, file);
  if (cached !== undefined) return cached;
  const loaded = baseFromValue(domain, readJsonFile(file), file);
  if (key !== undefined) writeCachedBase(key, loaded.base, loaded.hashes);
  return loaded;
}

/** With `expectTau2Pristine`, refuses (closing the base) a DB whose hashes are not the domain's τ² pristine ones. */
function checkPristine(
  domain: DomainEnvironment,
  loaded: LoadedDb,
  options: { expectTau2Pristine?: boolean },
): LoadedDb {
  const known = domain.tau2?.initialHashes;
  if (options.expectTau2Pristine === true && known !== undefined) {
    if (
      loaded.hashes.db_hash !== known.db_hash ||
      loaded.hashes.canonical_sha256 !== known.canonical_sha256
    ) {
      loaded.base.close();
      throw new ConfigError(
        `${loaded.file}: this is not τ²'s pristine ${domain.name} DB (db_hash ${loaded.hashes.db_hash.slice(0, 16)}…, ` +
          `expected ${known.db_hash.slice(0, 16)}…); use --db for other databases`,
      );
    }
  }
  return loaded;
}

/**
 * Loads a τ² `db.json` file into a new base and hashes it. With `expectTau2Pristine` (a DB taken from a τ² data
 * directory) the hashes must equal the domain's known initial hashes.
 * @throws {InputFileError} for malformed files; {@link ConfigError} when a τ² DB does not match τ²'s hashes.
 */
export function loadDbFile(
  domain: Domain,
  file: string,
  options: { expectTau2Pristine?: boolean } = {},
): LoadedDb {
  if (domain.tau2 === undefined && domain.files !== undefined) {
    const base = domain.files.openBase(file);
    return { base, file, hashes: base.hashes(), isTau2Benchmark: false };
  }
  return checkPristine(domain, loadThroughCache(domain, file), options);
}

/**
 * {@link loadDbFile} when the db.json is in the disk cache of bases, else `undefined` (then load it with
 * `loadDbFile` and the whole domain): a cached base needs only the domain's environment, not its db.json import.
 * @throws {ConfigError} when a τ² DB does not match τ²'s hashes.
 */
export function loadCachedDbFile(
  domain: DomainEnvironment,
  file: string,
  options: { expectTau2Pristine?: boolean } = {},
): LoadedDb | undefined {
  const { loaded } = readThroughCache(domain, file);
  return loaded === undefined ? undefined : checkPristine(domain, loaded, options);
}

/**
 * A fresh, seeded sandbox of a domain loaded as a base (see the domain's `sandbox` capability); `size` overrides
 * the domain's declared defaults, e.g. retail `{users: 50, orders: 100}`.
 * @throws {ConfigError} for a domain without a sandbox generator.
 */
export function sandboxBase(
  domain: Domain,
  seed: number,
  size: Readonly<Record<string, number>> = {},
): LoadedDb {
  const sandbox = domain.sandbox;
  if (sandbox === undefined) throw new ConfigError(`domain ${domain.name} has no sandbox generator`);
  return baseFromValue(domain, sandbox.generate(seed, sandboxSize(sandbox, size)), `sandbox(seed=${seed})`);
}
