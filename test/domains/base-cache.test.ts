import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type LoadedDb, loadDbFile, readJsonFile } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { decodeDigestImage } from '../../src/env/digest-image.js';
import { replayCalls } from '../../src/env/replay.js';
import { parseTau2Tasks } from '../../src/tasks/tau2-task.js';
import { GOLDEN, RETAIL_DB, RETAIL_TASKS } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'cove-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.env.COVE_NO_CACHE = '1';
  delete process.env.COVE_CACHE_DIR;
});

/** τ²'s initial retail hashes (tau2-spec §11), written here from the reference, not from the code. */
const TAU2_RETAIL_DB_HASH_PREFIX = 'b25c9cb211f5';

describe('the disk cache of loaded bases', () => {
  it('stores a loaded db.json once, loads it back with the same hashes and state, and rebuilds a damaged entry', () => {
    process.env.COVE_NO_CACHE = '0';
    process.env.COVE_CACHE_DIR = dir;
    const first = loadDbFile(retailDomain, RETAIL_DB, { expectTau2Pristine: true });
    const files = readdirSync(dir).sort();
    expect(files.map((f) => f.replace(/^[0-9a-f]{64}/, 'KEY'))).toEqual([
      'KEY.digest',
      'KEY.json',
      'KEY.sqlite',
    ]);
    const second = loadDbFile(retailDomain, RETAIL_DB, { expectTau2Pristine: true });
    expect(second.hashes).toEqual(first.hashes);
    expect(second.hashes.db_hash.startsWith(TAU2_RETAIL_DB_HASH_PREFIX)).toBe(true);
    expect(second.isTau2Benchmark).toBe(true);
    const a = first.base.fork();
    const b = second.base.fork();
    const args = new Map([['order_id', '#W2378156']]);
    expect(b.call('get_order_details', args)).toEqual(a.call('get_order_details', args));
    a.close();
    b.close();
    // a damaged image is ignored and rebuilt
    writeFileSync(join(dir, files[2] as string), 'not sqlite');
    const third = loadDbFile(retailDomain, RETAIL_DB, { expectTau2Pristine: true });
    expect(third.hashes).toEqual(first.hashes);
    const c = third.base.fork();
    expect(c.call('get_order_details', args).error).toBe(false);
    c.close();
    expect(readdirSync(dir).length).toBe(3);
    for (const l of [first, second, third]) l.base.close();
  });
});

/** τ²'s recorded hashes after each retail task's gold actions (the golden file of the parity suite). */
const golden = JSON.parse(readFileSync(join(GOLDEN, 'retail.head.train.json'), 'utf8')) as Record<
  string,
  { db_hash: string; canonical_sha256: string; changed_db: boolean }
>;
const tasks = parseTau2Tasks(readJsonFile(RETAIL_TASKS), RETAIL_TASKS);
const changing = Object.keys(golden).filter((id) => !id.startsWith('_') && golden[id]?.changed_db === true);

/** Replays every golden task that changes the DB on `loaded` and returns each task's hashes. */
function replayHashes(loaded: LoadedDb): Record<string, { db_hash: string; canonical_sha256: string }> {
  const out: Record<string, { db_hash: string; canonical_sha256: string }> = {};
  for (const id of changing) {
    const actions = tasks.find((t) => t.task.id === id)?.task.evaluation_criteria?.actions ?? [];
    const { episode } = replayCalls(
      loaded.base,
      actions.map((a) => ({ name: a.name, arguments: a.arguments })),
    );
    const { db_hash, canonical_sha256 } = episode.hashes();
    out[id] = { db_hash, canonical_sha256 };
    episode.close();
  }
  return out;
}

describe('the digest texts in the disk cache', () => {
  it('a cached base digests changed states exactly as τ² does, and a tampered digest entry is rebuilt', () => {
    const cache = mkdtempSync(join(tmpdir(), 'cove-digest-'));
    try {
      const expected = Object.fromEntries(
        changing.map((id) => [
          id,
          { db_hash: golden[id]?.db_hash, canonical_sha256: golden[id]?.canonical_sha256 },
        ]),
      );
      expect(changing.length).toBeGreaterThan(40);
      process.env.COVE_NO_CACHE = '0';
      process.env.COVE_CACHE_DIR = cache;
      loadDbFile(retailDomain, RETAIL_DB).base.close(); // writes the entry
      const file = join(cache, readdirSync(cache).find((f) => f.endsWith('.digest')) as string);
      const image = readFileSync(file);
      const cached = loadDbFile(retailDomain, RETAIL_DB);
      const names = cached.base.digest.collectionNames();
      expect(names).toEqual(['orders', 'products', 'users']);
      // the stored texts are valid for these hashes, and the cached base uses them
      expect(decodeDigestImage(image, names, cached.hashes)).toBeDefined();
      expect(replayHashes(cached)).toEqual(expected);
      cached.base.close();
      expect(readFileSync(file).equals(image)).toBe(true);

      // one byte of an entity's text changed: the hash check refuses it; the entry is rebuilt from the state
      const at = image.indexOf('"#W2378156"') + 40;
      const tampered = Buffer.from(image);
      tampered[at] = (tampered[at] as number) ^ 1;
      expect(decodeDigestImage(tampered, names, cached.hashes)).toBeUndefined();
      // and texts of other hashes, a truncated file or a changed version are refused as well
      expect(
        decodeDigestImage(image, names, { ...cached.hashes, canonical_sha256: '0'.repeat(64) }),
      ).toBeUndefined();
      expect(decodeDigestImage(image.subarray(0, image.length - 4), names, cached.hashes)).toBeUndefined();
      const otherVersion = Buffer.from(image);
      otherVersion.writeUInt32LE(999, 8);
      expect(decodeDigestImage(otherVersion, names, cached.hashes)).toBeUndefined();
      writeFileSync(file, tampered);
      const again = loadDbFile(retailDomain, RETAIL_DB);
      expect(replayHashes(again)).toEqual(expected);
      again.base.close();
      expect(readFileSync(file).equals(image)).toBe(true);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
