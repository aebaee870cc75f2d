import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadDbFile } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { RETAIL_DB } from '../helpers/paths.js';

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
    expect(files.map((f) => f.replace(/^[0-9a-f]{64}/, 'KEY'))).toEqual(['KEY.json', 'KEY.sqlite']);
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
    writeFileSync(join(dir, files[1] as string), 'not sqlite');
    const third = loadDbFile(retailDomain, RETAIL_DB, { expectTau2Pristine: true });
    expect(third.hashes).toEqual(first.hashes);
    const c = third.base.fork();
    expect(c.call('get_order_details', args).error).toBe(false);
    c.close();
    expect(readdirSync(dir).length).toBe(2);
    for (const l of [first, second, third]) l.base.close();
  });
});
