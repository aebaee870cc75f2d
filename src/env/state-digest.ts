import { createHash } from 'node:crypto';
import { CANONICAL_JSON, TAU2_HASH_JSON } from '../core/hash.js';
import { type PyJsonOptions, pyJsonDumps, pyJsonString } from '../core/py-json.js';
import { comparePyStr } from '../core/py-value.js';
import type { EntityRef } from './change-tracking.js';
import type { EnvironmentSpec } from './environment.js';
import type { SqlConnection } from './sql.js';

/** The two state hashes of τ²'s `get_db_hash`, as lower-case hex. */
export interface StateHashes {
  /** τ²'s `get_db_hash()`: sha256 of `json.dumps(db.model_dump(), sort_keys=True)`. */
  readonly db_hash: string;
  /** cove's canonical hash (sorted keys, compact, integral floats as ints, UTF-8). */
  readonly canonical_sha256: string;
}

/** Which serialisation an entity chunk is in. */
export type DigestStyle = 'tau2' | 'canonical';

const OPTIONS: Record<DigestStyle, PyJsonOptions> = { tau2: TAU2_HASH_JSON, canonical: CANONICAL_JSON };

/** Serialises one entity for a digest, or `null` when it does not exist. */
export function entityChunk(
  spec: EnvironmentSpec,
  sql: SqlConnection,
  ref: EntityRef,
  style: DigestStyle,
): string | null {
  const collection = spec.collections.find((c) => c.name === ref.collection);
  if (collection === undefined) throw new Error(`unknown collection ${ref.collection}`);
  const dump = collection.dump(sql, ref.key, 'model_dump');
  return dump === undefined ? null : pyJsonDumps(dump, OPTIONS[style]);
}

/**
 * Per-entity serialisations of a base state, computed lazily and kept, so that an episode's hash costs only
 * the entities it changed plus one pass of SHA-256 over the cached text.
 */
export class BaseDigest {
  readonly #spec: EnvironmentSpec;
  readonly #sql: SqlConnection;
  readonly #keys = new Map<string, string[]>();
  readonly #keySets = new Map<string, Set<string>>();
  readonly #chunks: Record<DigestStyle, Map<string, Map<string, string>>> = {
    tau2: new Map(),
    canonical: new Map(),
  };

  constructor(spec: EnvironmentSpec, sql: SqlConnection) {
    this.#spec = spec;
    this.#sql = sql;
  }

  /** Keys of a collection in the base, sorted by code point. */
  sortedKeys(collection: string): string[] {
    let keys = this.#keys.get(collection);
    if (keys === undefined) {
      const c = this.#spec.collections.find((x) => x.name === collection);
      if (c === undefined) throw new Error(`unknown collection ${collection}`);
      keys = this.#sql
        .all(`SELECT ${c.key} AS k FROM ${c.table}`)
        .map((r) => String(r.k))
        .sort(comparePyStr);
      this.#keys.set(collection, keys);
    }
    return keys;
  }

  /** Whether the base has an entity with this key. */
  has(collection: string, key: string): boolean {
    let set = this.#keySets.get(collection);
    if (set === undefined) {
      set = new Set(this.sortedKeys(collection));
      this.#keySets.set(collection, set);
    }
    return set.has(key);
  }

  /** The base chunk of one entity (it must exist in the base). */
  chunk(style: DigestStyle, collection: string, key: string): string {
    let byKey = this.#chunks[style].get(collection);
    if (byKey === undefined) {
      byKey = new Map();
      this.#chunks[style].set(collection, byKey);
    }
    let chunk = byKey.get(key);
    if (chunk === undefined) {
      chunk = entityChunk(this.#spec, this.#sql, { collection, key }, style) ?? 'null';
      byKey.set(key, chunk);
    }
    return chunk;
  }

  /**
   * SHA-256 of the whole state in `style`, where `overrides` replaces (or, with `null`, deletes) entities of
   * the base and adds new ones.
   */
  digest(
    style: DigestStyle,
    overrides: ReadonlyMap<string, ReadonlyMap<string, string | null>> = new Map(),
  ): string {
    const [itemSep, keySep] = style === 'tau2' ? [', ', ': '] : [',', ':'];
    const ascii = style === 'tau2';
    const hash = createHash('sha256');
    const names = this.#spec.collections.map((c) => c.name).sort(comparePyStr);
    hash.update('{');
    names.forEach((name, ci) => {
      if (ci > 0) hash.update(itemSep);
      hash.update(`${pyJsonString(name, ascii)}${keySep}{`);
      const changed = overrides.get(name) ?? new Map<string, string | null>();
      const baseKeys = this.sortedKeys(name);
      const added = [...changed.keys()].filter((k) => changed.get(k) !== null).sort(comparePyStr);
      let first = true;
      const emit = (key: string, chunk: string): void => {
        hash.update(`${first ? '' : itemSep}${pyJsonString(key, ascii)}${keySep}${chunk}`);
        first = false;
      };
      let i = 0;
      let j = 0;
      while (i < baseKeys.length || j < added.length) {
        const bk = baseKeys[i];
        const ak = added[j];
        const takeBase = ak === undefined || (bk !== undefined && comparePyStr(bk, ak) < 0);
        if (takeBase && bk !== undefined) {
          i++;
          if (changed.has(bk)) continue; // deleted, or emitted from `added`
          emit(bk, this.chunk(style, name, bk));
        } else if (ak !== undefined) {
          j++;
          if (bk === ak) i++;
          emit(ak, changed.get(ak) as string);
        }
      }
      hash.update('}');
    });
    hash.update('}');
    return hash.digest('hex');
  }
}
