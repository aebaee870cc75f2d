import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../domains/base-cache.js';
import { COVE_VERSION } from '../version.js';
import { DICT_COLUMNS, decodeFacts, encodeFacts, NUM_COLUMNS } from './facts-columns.js';
import { type JsonlIndex, SpanTable } from './jsonl-index.js';
import { type Overview, overview } from './overview.js';

/** Version of the sidecar layout; a different one is never read. */
const FORMAT = 2;
const MAGIC = Buffer.from('COVE-VIEW-INDEX\n');
/** Bytes hashed at each end of the file, besides its inode, size and modification time. */
const EDGE = 64 * 1024;

interface Header {
  format: number;
  cove: string;
  stamp: string;
  count: number;
  superseded: number;
  bytes: number;
  blank: number;
  malformed: JsonlIndex['malformed'];
  /** The index's overview (`overview.ts`), so a re-open need not compute it. */
  overview: Overview;
  /** Episodes with facts (superseded and malformed lines have none). */
  facts: number;
  ids: string[];
  taskIds: string[];
  dict: Record<string, unknown[]>;
}

/**
 * Identity of a trajectories file's content as far as a cheap look can tell: its path, inode, size,
 * modification time, the first and last 64 kB of its bytes, and the same of the tasks.json its facts took
 * difficulties from. Written `<path key>-<content key>`: the first part (16 hex digits of the path's hash) names
 * the file, so a new sidecar replaces the older ones of the same file. Returns `undefined` when the file cannot be
 * read.
 */
export function contentStamp(jsonl: string, tasksFile: string | undefined): string | undefined {
  try {
    const hash = createHash('sha256').update(
      `${COVE_VERSION}\u0000${FORMAT}\u0000${realpathSync(jsonl)}\u0000`,
    );
    const fd = openSync(jsonl, 'r');
    try {
      const s = fstatSync(fd);
      hash.update(`${s.ino}:${s.size}:${s.mtimeMs}\u0000`);
      const buf = Buffer.allocUnsafe(Math.min(EDGE, s.size));
      hash.update(buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)));
      hash.update(buf.subarray(0, readSync(fd, buf, 0, buf.length, Math.max(0, s.size - EDGE))));
    } finally {
      closeSync(fd);
    }
    if (tasksFile !== undefined) {
      const t = statSync(tasksFile);
      hash.update(`\u0000${realpathSync(tasksFile)}:${t.ino}:${t.size}:${t.mtimeMs}`);
    }
    const pathKey = createHash('sha256').update(realpathSync(jsonl)).digest('hex').slice(0, 16);
    return `${pathKey}-${hash.digest('hex')}`;
  } catch {
    return undefined;
  }
}

/** Where the sidecar of a stamp lives (`<cache>/view/<stamp>.idx`), `undefined` when the cache is off. */
function sidecarPath(stamp: string): string | undefined {
  const dir = cacheDir();
  return dir === undefined ? undefined : join(dir, 'view', `${stamp}.idx`);
}

/**
 * Stores the index of a trajectories file under the stamp of its content (see {@link contentStamp}) in the user
 * cache (`$COVE_CACHE_DIR`, else `$XDG_CACHE_HOME/cove`, else `~/.cache/cove`; off with `COVE_NO_CACHE=1`), so
 * opening the same file again skips the pass over its bytes. Layout: a magic line, the byte length of a JSON
 * header (4 bytes, little-endian), the header (counts, malformed lines, the facts by column), zero padding to a
 * multiple of 8, then the line offsets (float64) and lengths and `messages` bounds (int32). Written atomically;
 * failing to write only costs the next open its time. Sidecars of the same file's earlier contents are removed.
 * `known` is the index's overview when the caller has computed it already.
 */
export function writeIndexSidecar(stamp: string, index: JsonlIndex, known?: Overview): void {
  const file = sidecarPath(stamp);
  if (file === undefined) return;
  try {
    const columns = encodeFacts(index.facts);
    const header: Header = {
      format: FORMAT,
      cove: COVE_VERSION,
      stamp,
      count: index.spans.count,
      superseded: index.superseded,
      bytes: index.bytes,
      blank: index.blank,
      malformed: index.malformed,
      overview: known ?? overview(index.facts, index.malformed.length, index.superseded),
      facts: columns.count,
      ids: columns.ids,
      taskIds: columns.taskIds,
      dict: columns.dict,
    };
    const json = Buffer.from(JSON.stringify(header));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(json.length);
    const used = MAGIC.length + 4 + json.length;
    const pad = Buffer.alloc((8 - (used % 8)) % 8);
    const { offsets, ints } = index.spans.arrays();
    mkdirSync(join(file, '..'), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(
      tmp,
      Buffer.concat([
        MAGIC,
        length,
        json,
        pad,
        bytesOf(offsets),
        bytesOf(columns.numbers),
        bytesOf(ints),
        bytesOf(columns.at),
      ]),
    );
    renameSync(tmp, file);
    // the sidecars of the same file's earlier contents are of no more use
    const dir = join(file, '..');
    const prefix = `${stamp.split('-')[0]}-`;
    for (const name of readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith('.idx') && name !== `${stamp}.idx`)
        rmSync(join(dir, name), { force: true });
    }
  } catch {
    // a cache that cannot be written only costs time
  }
}

function bytesOf(a: Float64Array | Int32Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * The index stored for `stamp` by {@link writeIndexSidecar}, or `undefined` when there is none, the cache is
 * off, or the sidecar is damaged or of another layout (the caller then indexes the file).
 */
export function readIndexSidecar(stamp: string): (JsonlIndex & { readonly overview: Overview }) | undefined {
  const file = sidecarPath(stamp);
  if (file === undefined) return undefined;
  try {
    const buf = readFileSync(file);
    if (!buf.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const jsonLength = buf.readUInt32LE(MAGIC.length);
    const jsonStart = MAGIC.length + 4;
    const header = JSON.parse(buf.toString('utf8', jsonStart, jsonStart + jsonLength)) as Header;
    if (header.format !== FORMAT || header.cove !== COVE_VERSION || header.stamp !== stamp) return undefined;
    const used = jsonStart + jsonLength;
    const binStart = used + ((8 - (used % 8)) % 8);
    const lines = header.count;
    const n = header.facts;
    const sizes = [8 * lines, 8 * NUM_COLUMNS * n, 12 * lines, 4 * DICT_COLUMNS * n];
    if (buf.length !== binStart + sizes.reduce((a, b) => a + b, 0)) return undefined;
    // views of the file's buffer when it is aligned (a file this large has its own memory), else copies
    let at = binStart;
    const take = (size: number): [ArrayBuffer, number] => {
      const from = buf.byteOffset + at;
      at += size;
      if (from % 8 === 0 && buf.buffer instanceof ArrayBuffer) return [buf.buffer, from];
      const copy = new Uint8Array(size);
      copy.set(buf.subarray(at - size, at));
      return [copy.buffer, 0];
    };
    const offsets = new Float64Array(...take(sizes[0] as number), lines);
    const numbers = new Float64Array(...take(sizes[1] as number), NUM_COLUMNS * n);
    const ints = new Int32Array(...take(sizes[2] as number), 3 * lines);
    const dictAt = new Int32Array(...take(sizes[3] as number), DICT_COLUMNS * n);
    const facts = decodeFacts({
      count: n,
      numbers,
      at: dictAt,
      dict: header.dict,
      ids: header.ids,
      taskIds: header.taskIds,
    });
    return {
      spans: SpanTable.fromArrays(offsets, ints, lines),
      facts,
      malformed: header.malformed,
      overview: header.overview,
      superseded: header.superseded,
      bytes: header.bytes,
      blank: header.blank,
    };
  } catch {
    return undefined;
  }
}
