import { createHash, type Hash } from 'node:crypto';
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

/** Byte offsets of one collection inside a base text (see {@link BaseDigest}). */
export interface CollectionText {
  readonly name: string;
  /** Base keys sorted by code point, and their index. */
  readonly keys: readonly string[];
  readonly index: ReadonlyMap<string, number>;
  /** Per entity: where `"key": chunk` starts, where its chunk starts, where it ends. */
  readonly segStart: Int32Array;
  readonly chunkStart: Int32Array;
  readonly segEnd: Int32Array;
  /** Offset just after this collection's `"name": {`, and of its closing `}`. */
  readonly open: number;
  readonly close: number;
  /**
   * SHA-256 states of the base text up to {@link resumePoint} i for every i = 0, K, 2K, … ≤ n
   * (K = {@link CHECKPOINT_EVERY}): where an episode's digest resumes, after hashing at most K - 1 entities more.
   */
  readonly checkpoints: readonly Hash[];
}

/** The whole base state serialised in one style, with what is needed to resume its hash anywhere. */
export interface StyleText {
  readonly buf: Buffer;
  readonly collections: readonly CollectionText[];
  readonly digest: string;
}

/**
 * The base state's digests, built once: the whole state serialised in each style as one buffer, entity by entity
 * in τ²'s `sort_keys` order, with the SHA-256 state saved before every entity. An episode's digest then reuses the
 * hash of the unchanged prefix up to its first changed entity, and hashes the rest from the buffer (unchanged
 * entities as slices of it, never re-serialised) and from the few changed entities' new text. The digests are
 * byte-for-byte those of the whole dump (`tau2-spec.md` §2.3).
 */
export class BaseDigest {
  readonly #spec: EnvironmentSpec;
  readonly #sql: SqlConnection;
  readonly #keys = new Map<string, string[]>();
  readonly #keySets = new Map<string, Set<string>>();
  readonly #texts: Partial<Record<DigestStyle, StyleText>> = {};

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
    const text = this.#text(style);
    const c = text.collections.find((x) => x.name === collection);
    const i = c?.index.get(key);
    if (c === undefined || i === undefined) throw new Error(`no base entity ${collection}/${key}`);
    return text.buf.toString('utf8', c.chunkStart[i], c.segEnd[i]);
  }

  /** The collections in the order of the base texts (τ²'s `sort_keys`). */
  collectionNames(): string[] {
    return this.#spec.collections.map((c) => c.name).sort(comparePyStr);
  }

  /** Both base texts, built (from one dump of each entity) unless already built or adopted. */
  texts(): Record<DigestStyle, StyleText> {
    this.#text('tau2');
    return this.#texts as Record<DigestStyle, StyleText>;
  }

  /**
   * Uses base texts built elsewhere (a disk cache, see `digest-image.ts`) instead of dumping every entity. The
   * caller vouches that they are this base's texts; nothing is re-checked here.
   */
  adoptTexts(texts: Record<DigestStyle, StyleText>): void {
    this.#texts.tau2 = texts.tau2;
    this.#texts.canonical = texts.canonical;
  }

  /** The base text of one style (both styles are built together, from one dump of each entity). */
  #text(style: DigestStyle): StyleText {
    const known = this.#texts[style];
    if (known !== undefined) return known;
    const names = this.collectionNames();
    const builders = { tau2: new TextBuilder('tau2'), canonical: new TextBuilder('canonical') };
    for (const name of names) {
      const collection = this.#spec.collections.find((c) => c.name === name);
      if (collection === undefined) throw new Error(`unknown collection ${name}`);
      const keys = this.sortedKeys(name);
      builders.tau2.openCollection(name, keys);
      builders.canonical.openCollection(name, keys);
      for (const key of keys) {
        const dump = collection.dump(this.#sql, key, 'model_dump');
        builders.tau2.entity(key, dump === undefined ? 'null' : pyJsonDumps(dump, OPTIONS.tau2));
        builders.canonical.entity(key, dump === undefined ? 'null' : pyJsonDumps(dump, OPTIONS.canonical));
      }
      builders.tau2.closeCollection();
      builders.canonical.closeCollection();
    }
    this.#texts.tau2 = builders.tau2.finish();
    this.#texts.canonical = builders.canonical.finish();
    return this.#texts[style] as StyleText;
  }

  /**
   * SHA-256 of the whole state in `style`, where `overrides` replaces (or, with `null`, deletes) entities of
   * the base and adds new ones. Costs one pass of SHA-256 over the text from the first overridden entity on.
   */
  digest(
    style: DigestStyle,
    overrides: ReadonlyMap<string, ReadonlyMap<string, string | null>> = new Map(),
  ): string {
    const text = this.#text(style);
    const [itemSep, keySep] = style === 'tau2' ? [', ', ': '] : [',', ':'];
    const ascii = style === 'tau2';
    const sepLen = Buffer.byteLength(itemSep);
    const { buf, collections } = text;
    let hash: Hash | undefined;
    let resumed = 0; // buffer offset up to which the base text has been accounted for
    for (let ci = 0; ci < collections.length; ci++) {
      const c = collections[ci] as CollectionText;
      const changes = overrides.get(c.name);
      if (changes === undefined || changes.size === 0) continue;
      const changedKeys = [...changes.keys()].sort(comparePyStr);
      const p = lowerBound(c.keys, changedKeys[0] as string);
      if (hash === undefined) {
        const q = p - (p % CHECKPOINT_EVERY);
        hash = (c.checkpoints[q / CHECKPOINT_EVERY] as Hash).copy();
        if (q < p) hash.update(buf.subarray(resumePoint(c, q, sepLen), resumePoint(c, p, sepLen)));
      } else {
        // the unchanged text between the previous collection's end and this collection's entity p
        hash.update(buf.subarray(resumed, p === 0 ? c.open : (c.segStart[p] as number) - sepLen));
      }
      const h = hash;
      let first = p === 0;
      let runStart = -1;
      const flush = (end: number): void => {
        if (runStart >= 0 && end > runStart) {
          let from = c.segStart[runStart] as number;
          if (!first) {
            if (runStart > 0) from -= sepLen;
            else h.update(itemSep);
          }
          h.update(buf.subarray(from, c.segEnd[end - 1]));
          first = false;
        }
        runStart = -1;
      };
      const emit = (key: string, chunk: string): void => {
        h.update(`${first ? '' : itemSep}${pyJsonString(key, ascii)}${keySep}${chunk}`);
        first = false;
      };
      const added = changedKeys.filter((k) => changes.get(k) !== null && !c.index.has(k));
      let i = p;
      let j = 0;
      while (i < c.keys.length || j < added.length) {
        const bk = c.keys[i];
        const ak = added[j];
        if (ak === undefined || (bk !== undefined && comparePyStr(bk, ak) < 0)) {
          const key = bk as string;
          if (changes.has(key)) {
            flush(i);
            const chunk = changes.get(key);
            if (chunk !== null && chunk !== undefined) emit(key, chunk);
          } else if (runStart < 0) runStart = i;
          i++;
        } else {
          flush(i);
          emit(ak, changes.get(ak) as string);
          j++;
        }
      }
      flush(c.keys.length);
      resumed = c.close;
    }
    if (hash === undefined) return text.digest;
    hash.update(buf.subarray(resumed));
    return hash.digest('hex');
  }
}

/** A collection's offsets inside a base text, without its hash checkpoints. */
export type Layout = { -readonly [K in keyof Omit<CollectionText, 'checkpoints'>]: CollectionText[K] };

/**
 * Entities between two saved hash states: a copy of a hash state costs more than hashing a few entities' text,
 * so a digest resumes from the nearest earlier checkpoint and hashes the (at most 15) entities in between.
 */
const CHECKPOINT_EVERY = 16;

/**
 * Where a digest that changes entity i of a collection resumes in the base text: before entity i's separator
 * (i = 0..n-1), or at the collection's closing `}` (i = n).
 */
function resumePoint(l: Layout, i: number, sepLen: number): number {
  if (i === l.keys.length) return l.close;
  return i === 0 ? (l.segStart[0] as number) : (l.segStart[i] as number) - sepLen;
}

/**
 * Completes a base text from its buffer and collection layouts: one SHA-256 pass over the buffer, saving a copy of
 * the hash state at every {@link CHECKPOINT_EVERY}-th resume point of each collection (the checkpoints an
 * episode's digest resumes from), and the digest of the whole buffer.
 */
export function withCheckpoints(style: DigestStyle, buf: Buffer, layouts: readonly Layout[]): StyleText {
  const sepLen = style === 'tau2' ? 2 : 1;
  const hash = createHash('sha256');
  let hashed = 0;
  const upTo = (end: number): Hash => {
    hash.update(buf.subarray(hashed, end));
    hashed = end;
    return hash.copy();
  };
  const collections = layouts.map((l) => {
    const checkpoints: Hash[] = [];
    for (let i = 0; i <= l.keys.length; i += CHECKPOINT_EVERY)
      checkpoints.push(upTo(resumePoint(l, i, sepLen)));
    return { ...l, checkpoints };
  });
  hash.update(buf.subarray(hashed));
  return { buf, collections, digest: hash.digest('hex') };
}

/** Writes a base text entity by entity, recording offsets, then the buffer and its hash checkpoints. */
class TextBuilder {
  readonly #style: DigestStyle;
  readonly #itemSep: string;
  readonly #keySep: string;
  readonly #ascii: boolean;
  readonly #parts: string[] = ['{'];
  #offset = 1;
  readonly #layouts: Layout[] = [];
  #current: Layout | undefined;
  #i = 0;

  constructor(style: DigestStyle) {
    this.#style = style;
    [this.#itemSep, this.#keySep] = style === 'tau2' ? [', ', ': '] : [',', ':'];
    this.#ascii = style === 'tau2';
  }

  #push(s: string): void {
    this.#parts.push(s);
    this.#offset += Buffer.byteLength(s, 'utf8');
  }

  openCollection(name: string, keys: readonly string[]): void {
    this.#push(
      `${this.#layouts.length > 0 ? this.#itemSep : ''}${pyJsonString(name, this.#ascii)}${this.#keySep}{`,
    );
    const n = keys.length;
    this.#current = {
      name,
      keys,
      index: new Map(keys.map((k, i) => [k, i])),
      segStart: new Int32Array(n),
      chunkStart: new Int32Array(n),
      segEnd: new Int32Array(n),
      open: this.#offset,
      close: 0,
    };
    this.#i = 0;
  }

  entity(key: string, chunk: string): void {
    const c = this.#current as Layout;
    if (this.#i > 0) this.#push(this.#itemSep);
    c.segStart[this.#i] = this.#offset;
    this.#push(`${pyJsonString(key, this.#ascii)}${this.#keySep}`);
    c.chunkStart[this.#i] = this.#offset;
    this.#push(chunk);
    c.segEnd[this.#i] = this.#offset;
    this.#i++;
  }

  closeCollection(): void {
    const c = this.#current as Layout;
    c.close = this.#offset;
    this.#push('}');
    this.#layouts.push(c);
    this.#current = undefined;
  }

  finish(): StyleText {
    this.#push('}');
    return withCheckpoints(this.#style, Buffer.from(this.#parts.join(''), 'utf8'), this.#layouts);
  }
}

/** The index of the first key not sorting before `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comparePyStr(keys[mid] as string, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
