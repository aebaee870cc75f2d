import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/hash.js';
import { pyJsonDumps } from '../../src/core/py-json.js';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import { pyDict } from '../../src/core/py-value.js';
import { baseFromValue } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { stateFileText } from '../../src/env/state-file.js';
import { RETAIL_DB } from '../helpers/paths.js';
import { tau2RetailBase } from '../helpers/retail-base.js';

describe('db.json writer', () => {
  it('writes τ²’s retail db.json back byte for byte in file style', () => {
    const { base } = tau2RetailBase();
    expect(stateFileText(base.spec, base.sql, 'file')).toBe(readFileSync(RETAIL_DB, 'utf8'));
  });

  it('writes every field in model_dump style, and that text hashes to τ²’s db_hash', () => {
    const { base, hashes } = tau2RetailBase();
    const dumped = stateFileText(base.spec, base.sql, 'model_dump');
    expect(dumped).toContain('"cancel_reason": null');
    // τ²'s hash is over json.dumps(model_dump, sort_keys=True) of the same value
    expect(sha256Hex(pyJsonDumps(parsePyJson(dumped), { sortKeys: true }))).toBe(hashes.db_hash);
  });

  it('round-trips a changed state: writing and reloading gives the same hashes', () => {
    const { base } = tau2RetailBase();
    const episode = base.fork();
    const orderId = String(
      base.sql.get("SELECT order_id FROM orders WHERE status = 'pending' LIMIT 1")?.order_id,
    );
    episode.call('cancel_pending_order', pyDict({ order_id: orderId, reason: 'no longer needed' }));
    const text = stateFileText(base.spec, episode.sql, 'file');
    expect(text).toContain('"cancel_reason": "no longer needed"');
    const reloaded = baseFromValue(retailDomain, parsePyJson(text), 'memory');
    expect(reloaded.hashes).toEqual(episode.hashes());
    expect(reloaded.isTau2Benchmark).toBe(false);
    reloaded.base.close();
    episode.close();
  });
});
