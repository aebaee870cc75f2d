import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PyDict } from '../../src/core/py-value.js';
import { toPyValue } from '../../src/core/py-value.js';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { loadSqlDomain } from '../../src/domains/sql/load-spec.js';
import type { ConstraintKind } from '../../src/tasks/constraint.js';
import { identifyReads, lastIdentifiedUser } from '../../src/tasks/identified-user.js';
import { synthesizeTask, UnsatisfiableTaskError } from '../../src/tasks/sampler.js';
import { SHARED } from '../helpers/paths.js';

// The customer a conversation identified, read through the identify reads each domain's kinds declare
// (`Grounding.identify`): Retail's lookups by email or name and zip (their result is the user id), Airline's
// `get_user_details(user_id)`; a SQL spec domain's kinds declare none (its policies need no identification),
// so its conversations pin nothing and its draw refuses a pinned customer.

const kindsOf = (d: { synthesis?: { kinds: readonly ConstraintKind[] } }) => d.synthesis?.kinds ?? [];
const args = (v: Record<string, unknown>) => toPyValue(v) as PyDict;

describe('identify reads by domain', () => {
  it('Retail: the lookups by email and by name and zip, read by their result', () => {
    const reads = identifyReads(kindsOf(retailDomain));
    expect(reads).toEqual([
      { tool: 'find_user_id_by_email', user: 'result' },
      { tool: 'find_user_id_by_name_zip', user: 'result' },
    ]);
    const calls = [
      { name: 'find_user_id_by_email', args: args({ email: 'a@example.com' }), result: 'amy_1\n' },
      { name: 'get_order_details', args: args({ order_id: '#W1' }), result: '{"user_id": "bob_2"}' },
    ];
    expect(lastIdentifiedUser(reads, calls)).toEqual({ userId: 'amy_1', call: 0 });
    // the later of two identifications wins
    const again = [...calls, { name: 'find_user_id_by_name_zip', args: args({}), result: 'cid_3' }];
    expect(lastIdentifiedUser(reads, again)).toEqual({ userId: 'cid_3', call: 2 });
    // a read of another tool identifies nobody
    expect(lastIdentifiedUser(reads, calls.slice(1))).toBeUndefined();
  });

  it('Airline: get_user_details, read by its user_id argument', () => {
    const reads = identifyReads(kindsOf(airlineDomain));
    expect(reads).toEqual([{ tool: 'get_user_details', user: { argument: 'user_id' } }]);
    const call = { name: 'get_user_details', args: args({ user_id: 'mia_li_3668' }), result: '{}' };
    expect(lastIdentifiedUser(reads, [call])).toEqual({ userId: 'mia_li_3668', call: 0 });
    expect(
      lastIdentifiedUser(reads, [{ ...call, args: args({ user_id: 7 }) }]),
      'not a string',
    ).toBeUndefined();
  });
});

describe('a SQL spec domain', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cove-identified-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const spec = join(dir, 'chinook.json');
  writeFileSync(
    spec,
    JSON.stringify({
      name: 'chinook-pin',
      database: { sqlite: join(SHARED, 'sql', 'chinook', 'Chinook_Sqlite.sqlite') },
      policy: 'Help with the catalogue.',
      tools: [
        {
          name: 'get_artist',
          description: 'One artist by id.',
          kind: 'read',
          sql: 'SELECT * FROM Artist WHERE ArtistId = :artist_id',
          returns: 'row',
        },
        {
          name: 'search_artists',
          description: 'Artists by name.',
          kind: 'read',
          sql: "SELECT * FROM Artist WHERE Name LIKE '%' || :q || '%' ORDER BY ArtistId LIMIT 20",
          returns: 'rows',
        },
        {
          name: 'rename_artist',
          description: 'Rename an artist.',
          kind: 'write',
          sql: [
            'UPDATE Artist SET Name = :name WHERE ArtistId = :artist_id',
            'SELECT * FROM Artist WHERE ArtistId = :artist_id',
          ],
          returns: 'row',
        },
      ],
    }),
  );

  it('declares no identify read, and its draw refuses a pinned customer', () => {
    const sql = loadSqlDomain(spec);
    const synthesis = sql.domain.synthesis as NonNullable<typeof sql.domain.synthesis>;
    expect(identifyReads(synthesis.kinds)).toEqual([]);
    const base = sql.domain.files?.openBase(sql.dbFile);
    if (base === undefined) throw new Error('no base');
    try {
      const options = {
        domain: 'chinook-pin',
        seed: 3,
        difficulty: 'easy' as const,
        fuzz: 2 as const,
        semantics: 'parity' as const,
        db: { path: 'x', canonical_sha256: 'y', benchmark: false },
        coveVersion: 'test',
      };
      expect(synthesizeTask(synthesis, base, options, 0).cove.user_id).toBe('user');
      expect(() =>
        synthesizeTask(synthesis, base, { ...options, userId: 'someone', maxAttempts: 5 }, 0),
      ).toThrow(UnsatisfiableTaskError);
      expect(() =>
        synthesizeTask(synthesis, base, { ...options, userId: 'someone', maxAttempts: 5 }, 0),
      ).toThrow('about no particular customer (asked for someone) (5×)');
    } finally {
      base.close();
    }
  });
});
