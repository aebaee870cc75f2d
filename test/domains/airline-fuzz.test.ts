import { describe, expect, it } from 'vitest';
import { canonicalSha256, sha256Hex, TAU2_HASH_JSON } from '../../src/core/hash.js';
import { pyJsonDumps } from '../../src/core/py-json.js';
import { Rng } from '../../src/core/rng.js';
import type { Episode } from '../../src/env/episode.js';
import { num } from '../../src/env/sql.js';
import { tau2AirlineBase } from '../helpers/airline-base.js';
import {
  AIRLINE_READ_TOOLS,
  AIRLINE_TOOL_NAMES,
  loadAirlinePools,
  randomAirlineCall,
} from './airline-fuzz-calls.js';

/**
 * Seeded fuzzing of the airline dispatcher: thousands of random calls (see airline-fuzz-calls.ts). Whatever comes
 * in, nothing may throw, the result is a string, no call may hit a non-ToolError (a cove bug), reads and generic
 * tools never write, and the incremental hashes equal hashes of a full dump. (Failed airline writes may leave
 * changes, as τ²'s do: a gift card debited before a `Payment` fails validation, a certificate removed before the
 * same certificate is looked up again.)
 *
 * This generator was also run offline, on seeds 1–4 (220 episodes, 8,800 calls), against τ²'s own `AirlineTools`
 * (tau2-bench a2c02472, pydantic 2.13): every output, error flag and end-of-episode `get_db_hash()` was identical,
 * apart from non-dict arguments and arguments named `self`, `requestor` or `tool_name`, which τ²'s environment
 * handles before the toolkit (see the retail fuzz test).
 */

const SEED = 20261201;
const EPISODES = 60;
const CALLS_PER_EPISODE = 40;
const FULL_DUMP_EVERY = 12;

function totalChanges(episode: Episode): bigint {
  const row = episode.sql.get('SELECT total_changes() AS n');
  return row === undefined ? -1n : BigInt(num(row, 'n'));
}

describe('airline dispatcher fuzz', () => {
  it(`survives ${EPISODES * CALLS_PER_EPISODE} random calls with τ²'s invariants`, {
    timeout: 240_000,
  }, () => {
    const loaded = tau2AirlineBase();
    const pools = loadAirlinePools(loaded.base.sql);
    const rng = new Rng(SEED);
    const outcomes = new Map<string, { ok: number; error: number }>();
    let calls = 0;
    for (let e = 0; e < EPISODES; e++) {
      const episode = loaded.base.fork({ semantics: rng.chance(0.2) ? 'fixed' : 'parity' });
      try {
        for (let i = 0; i < CALLS_PER_EPISODE; i++) {
          const [name, args] = randomAirlineCall(rng, pools);
          const where = `episode ${e} call ${i}: ${name} ${pyJsonDumps(args)}`;
          const before = totalChanges(episode);
          let result: ReturnType<Episode['call']>;
          try {
            result = episode.call(name, args);
          } catch (err) {
            throw new Error(`${where} threw ${String(err)}`);
          }
          calls++;
          expect(typeof result.content, where).toBe('string');
          expect(episode.stats.internalErrors, `${where} → ${result.content}`).toBe(0);
          expect(result.content.startsWith('Error: '), where).toBe(result.error);
          const tally = outcomes.get(name) ?? { ok: 0, error: 0 };
          tally[result.error ? 'error' : 'ok']++;
          outcomes.set(name, tally);
          if (AIRLINE_READ_TOOLS.has(name)) {
            expect(result.changed, where).toEqual([]);
            expect(totalChanges(episode), where).toBe(before);
          }
        }
        if (e % FULL_DUMP_EVERY === 0) {
          const dump = episode.dump('model_dump');
          const hashes = episode.hashes();
          expect(hashes.db_hash, `episode ${e}`).toBe(sha256Hex(pyJsonDumps(dump, TAU2_HASH_JSON)));
          expect(hashes.canonical_sha256, `episode ${e}`).toBe(canonicalSha256(dump));
        }
      } finally {
        episode.close();
      }
    }
    expect(calls).toBe(EPISODES * CALLS_PER_EPISODE);
    for (const tool of AIRLINE_TOOL_NAMES) {
      const tally = outcomes.get(tool);
      expect(tally?.ok, `${tool} successes`).toBeGreaterThan(0);
      if (tool !== 'list_all_airports' && tool !== 'transfer_to_human_agents') {
        expect(tally?.error, `${tool} errors`).toBeGreaterThan(0);
      }
    }
  });
});
