import { pyJsonString } from '../core/py-json.js';
import {
  type DigestStyle,
  type Layout,
  type StateHashes,
  type StyleText,
  withCheckpoints,
} from './state-digest.js';

/**
 * The base digest texts of a {@link BaseDigest} as one file, so that a cached base need not dump and serialise
 * every entity again. Layout (all integers unsigned or signed 32-bit little-endian):
 *
 * - the 8 bytes `COVEDGST`, then the format version ({@link DIGEST_IMAGE_VERSION});
 * - the byte length of a UTF-8 JSON header, then the header:
 *   `{ "collections": [{ "name", "keys": [...] }], "styles": { "tau2"|"canonical": { "length", "digest",
 *   "open": [...], "close": [...] } } }` (collections in text order, keys in code-point order);
 * - per style, `tau2` then `canonical`: the text's bytes, then per collection its `segStart`, `chunkStart` and
 *   `segEnd` arrays (one int32 per key each).
 *
 * Hash checkpoints are not stored: {@link decodeDigestImage} recomputes them in one SHA-256 pass over each text.
 */
export const DIGEST_IMAGE_VERSION = 1;

const MAGIC = Buffer.from('COVEDGST', 'latin1');
const STYLES: readonly DigestStyle[] = ['tau2', 'canonical'];

interface Header {
  collections: { name: string; keys: string[] }[];
  styles: Record<DigestStyle, { length: number; digest: string; open: number[]; close: number[] }>;
}

/** Encodes both base texts (built by `BaseDigest.texts()`) as a digest image. */
export function encodeDigestImage(texts: Record<DigestStyle, StyleText>): Buffer {
  const first = texts.tau2.collections;
  const header: Header = {
    collections: first.map((c) => ({ name: c.name, keys: [...c.keys] })),
    styles: {} as Header['styles'],
  };
  const body: Buffer[] = [];
  for (const style of STYLES) {
    const t = texts[style];
    header.styles[style] = {
      length: t.buf.length,
      digest: t.digest,
      open: t.collections.map((c) => c.open),
      close: t.collections.map((c) => c.close),
    };
    body.push(t.buf);
    for (const c of t.collections) {
      for (const arr of [c.segStart, c.chunkStart, c.segEnd]) body.push(int32Bytes(arr));
    }
  }
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const fixed = Buffer.alloc(MAGIC.length + 8);
  MAGIC.copy(fixed);
  fixed.writeUInt32LE(DIGEST_IMAGE_VERSION, MAGIC.length);
  fixed.writeUInt32LE(json.length, MAGIC.length + 4);
  return Buffer.concat([fixed, json, ...body]);
}

/**
 * Decodes a digest image into both base texts, or returns `undefined` when it is not a valid image of a base
 * whose hashes are `expected` and whose collections are `names` (in text order): wrong magic or version, lengths
 * that do not add up, any byte outside the entities' chunks that differs from what the keys and separators
 * dictate, or a text whose SHA-256 differs from the expected hash. A valid image thus gives exactly the texts a
 * fresh dump would give.
 */
export function decodeDigestImage(
  image: Buffer,
  names: readonly string[],
  expected: StateHashes,
): Record<DigestStyle, StyleText> | undefined {
  try {
    if (image.length < MAGIC.length + 8 || !image.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    if (image.readUInt32LE(MAGIC.length) !== DIGEST_IMAGE_VERSION) return undefined;
    const headerLength = image.readUInt32LE(MAGIC.length + 4);
    let at = MAGIC.length + 8;
    const header = JSON.parse(image.toString('utf8', at, at + headerLength)) as Header;
    at += headerLength;
    const { collections } = header;
    if (collections.length !== names.length || collections.some((c, i) => c.name !== names[i]))
      return undefined;
    const out: Partial<Record<DigestStyle, StyleText>> = {};
    for (const style of STYLES) {
      const s = header.styles[style];
      if (!Number.isInteger(s.length) || s.length < 0 || at + s.length > image.length) return undefined;
      // a view, not a copy: the texts are nearly all of the image
      const buf = image.subarray(at, at + s.length);
      at += s.length;
      const layouts: Layout[] = [];
      for (let ci = 0; ci < collections.length; ci++) {
        const { name, keys } = collections[ci] as Header['collections'][number];
        const n = keys.length;
        if (at + 12 * n > image.length) return undefined;
        const [segStart, chunkStart, segEnd] = [0, 1, 2].map((k) => readInt32s(image, at + 4 * n * k, n)) as [
          Int32Array,
          Int32Array,
          Int32Array,
        ];
        at += 12 * n;
        layouts.push({
          name,
          keys,
          index: new Map(keys.map((k, i) => [k, i])),
          segStart,
          chunkStart,
          segEnd,
          open: s.open[ci] as number,
          close: s.close[ci] as number,
        });
      }
      if (!skeletonMatches(style, buf, layouts)) return undefined;
      const text = withCheckpoints(style, buf, layouts);
      const want = style === 'tau2' ? expected.db_hash : expected.canonical_sha256;
      if (text.digest !== s.digest || text.digest !== want) return undefined;
      out[style] = text;
    }
    if (at !== image.length) return undefined;
    return out as Record<DigestStyle, StyleText>;
  } catch {
    return undefined;
  }
}

/**
 * Whether every byte of `buf` outside the entity chunks is what the collection names, keys and separators
 * dictate: `{"name": {"key": chunk, …}, …}` with the recorded offsets, and every chunk non-empty.
 */
function skeletonMatches(style: DigestStyle, buf: Buffer, layouts: readonly Layout[]): boolean {
  const [itemSep, keySep] = style === 'tau2' ? [', ', ': '] : [',', ':'];
  const ascii = style === 'tau2';
  let at = 0;
  const expect = (text: string, end?: number): boolean => {
    const len = Buffer.byteLength(text, 'utf8');
    if (end !== undefined && at + len !== end) return false;
    if (at + len > buf.length || buf.toString('utf8', at, at + len) !== text) return false;
    at += len;
    return true;
  };
  if (!expect('{')) return false;
  for (let ci = 0; ci < layouts.length; ci++) {
    const l = layouts[ci] as Layout;
    if (!expect(`${ci > 0 ? itemSep : ''}${pyJsonString(l.name, ascii)}${keySep}{`, l.open)) return false;
    for (let i = 0; i < l.keys.length; i++) {
      if (i > 0 && !expect(itemSep)) return false;
      if (at !== l.segStart[i]) return false;
      if (!expect(`${pyJsonString(l.keys[i] as string, ascii)}${keySep}`, l.chunkStart[i])) return false;
      const end = l.segEnd[i] as number;
      if (end <= at || end > buf.length) return false;
      at = end;
    }
    if (at !== l.close || !expect('}')) return false;
  }
  return expect('}') && at === buf.length;
}

function int32Bytes(arr: Int32Array): Buffer {
  const out = Buffer.alloc(4 * arr.length);
  for (let i = 0; i < arr.length; i++) out.writeInt32LE(arr[i] as number, 4 * i);
  return out;
}

function readInt32s(buf: Buffer, at: number, n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = buf.readInt32LE(at + 4 * i);
  return out;
}
