import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { decodeDigestImage, encodeDigestImage } from '../env/digest-image.js';
import { EnvironmentBase } from '../env/environment-base.js';
import { SqlConnection } from '../env/sql.js';
import type { StateHashes } from '../env/state-digest.js';
import { COVE_VERSION } from '../version.js';
import type { DomainEnvironment } from './domain.js';

/**
 * A disk cache of loaded bases, so that a db.json read before loads in milliseconds: the SQLite image of the
 * loaded base (with its change tracking), its two state hashes and its digest texts (see `digest-image.ts`), keyed by the sha256 of the file's bytes, the
 * domain's name, version and schema, and cove's version. The test suite turns it off (`COVE_NO_CACHE=1`) so that
 * every test exercises the real import. It lives in `$COVE_CACHE_DIR`, else `$XDG_CACHE_HOME/cove`, else
 * `~/.cache/cove`; `COVE_NO_CACHE=1` turns it off. A damaged or missing entry is simply rebuilt; failing to write
 * one never fails a command.
 */
export function cacheDir(): string | undefined {
  // biome-ignore lint/style/noProcessEnv: where a user cache lives is an environment setting by convention (XDG)
  const env = process.env;
  if (env.COVE_NO_CACHE === '1') return undefined;
  const explicit = env.COVE_CACHE_DIR;
  if (explicit !== undefined && explicit !== '') return explicit;
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.cache'), 'cove');
}

/** The cache key of a db.json's bytes for a domain. */
export function baseCacheKey(domain: DomainEnvironment, bytes: Buffer): string {
  return createHash('sha256')
    .update(`${COVE_VERSION}\u0000${domain.name}\u0000${domain.version}\u0000${domain.schemaSql}\u0000`)
    .update(bytes)
    .digest('hex');
}

/** The cached base of `key`, or `undefined` (no cache, no entry, or a damaged one). */
export function readCachedBase(
  domain: DomainEnvironment,
  key: string,
): { base: EnvironmentBase; hashes: StateHashes } | undefined {
  const dir = cacheDir();
  if (dir === undefined) return undefined;
  try {
    const meta = JSON.parse(readFileSync(join(dir, `${key}.json`), 'utf8')) as { hashes: StateHashes };
    const image = readFileSync(join(dir, `${key}.sqlite`));
    const sql = SqlConnection.open(image);
    // a damaged image fails here rather than in the first episode
    if (sql.all("SELECT name FROM sqlite_schema WHERE type = 'table'").length < domain.collections.length) {
      sql.close();
      return undefined;
    }
    const base = new EnvironmentBase(domain, sql);
    base.presetHashes(meta.hashes);
    const texts = readDigestImage(dir, key, base, meta.hashes);
    if (texts !== undefined) base.digest.adoptTexts(texts);
    else writeDigestImage(dir, key, base); // missing or damaged: rebuilt from the image's state
    return { base, hashes: meta.hashes };
  } catch {
    return undefined;
  }
}

/** Stores a freshly loaded base under `key` (atomically, image first); errors are ignored. */
export function writeCachedBase(key: string, base: EnvironmentBase, hashes: StateHashes): void {
  const dir = cacheDir();
  if (dir === undefined) return;
  try {
    mkdirSync(dir, { recursive: true });
    const tmp = `.${process.pid}.tmp`;
    writeFileSync(join(dir, `${key}.sqlite${tmp}`), base.sql.db.serialize());
    renameSync(join(dir, `${key}.sqlite${tmp}`), join(dir, `${key}.sqlite`));
    writeDigestImage(dir, key, base);
    writeFileSync(join(dir, `${key}.json${tmp}`), JSON.stringify({ hashes }));
    renameSync(join(dir, `${key}.json${tmp}`), join(dir, `${key}.json`));
  } catch {
    // a cache that cannot be written only costs time
  }
}

function readDigestImage(
  dir: string,
  key: string,
  base: EnvironmentBase,
  hashes: StateHashes,
): ReturnType<typeof decodeDigestImage> {
  try {
    return decodeDigestImage(readFileSync(join(dir, `${key}.digest`)), base.digest.collectionNames(), hashes);
  } catch {
    return undefined;
  }
}

/** Stores the base's digest texts (building them if needed) under `key`, atomically; errors are ignored. */
function writeDigestImage(dir: string, key: string, base: EnvironmentBase): void {
  try {
    const tmp = join(dir, `${key}.digest.${process.pid}.tmp`);
    writeFileSync(tmp, encodeDigestImage(base.digest.texts()));
    renameSync(tmp, join(dir, `${key}.digest`));
  } catch {
    // a cache that cannot be written only costs time
  }
}
