import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSqlDomain } from '../../../src/domains/sql/load-spec.js';
import { synthesizeTask } from '../../../src/tasks/sampler.js';

/**
 * A spec whose only read tool looks an album up by its id: at fuzz level 2 (every reference a description) no
 * album can be described in a way the agent's tools resolve, so no task can be made, and the error says what to
 * change in SQL-domain terms (not Retail's "more orders per user").
 */
const dir = mkdtempSync(join(tmpdir(), 'cove-sql-scarcity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, 'shop.sql'),
  'CREATE TABLE album (album_id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER NOT NULL);',
);
writeFileSync(
  join(dir, 'shop.rows.json'),
  JSON.stringify({
    album: [
      { album_id: 10, title: 'Blue', year: 1999 },
      { album_id: 11, title: 'Red', year: 2003 },
    ],
  }),
);
writeFileSync(
  join(dir, 'shop.json'),
  JSON.stringify({
    name: 'shop',
    database: { ddl: 'shop.sql', rows: 'shop.rows.json' },
    policy: 'Confirm every change.',
    tools: [
      {
        name: 'get_album',
        description: 'One album by its id.',
        kind: 'read',
        sql: 'SELECT * FROM album WHERE album_id = :album_id',
        returns: 'row',
      },
      {
        name: 'update_album_year',
        description: 'Change the year of an album.',
        kind: 'write',
        sql: [
          'UPDATE album SET year = :year WHERE album_id = :album_id',
          'SELECT * FROM album WHERE album_id = :album_id',
        ],
        returns: 'row',
      },
    ],
  }),
);

describe('a SQL domain that cannot make the asked tasks', () => {
  it('fails with the reason and a hint about the spec read tools, not about orders', () => {
    const shop = loadSqlDomain(join(dir, 'shop.json'));
    const synthesis = shop.domain.synthesis;
    const base = shop.domain.files?.openBase(shop.dbFile);
    if (synthesis === undefined || base === undefined) throw new Error('the spec gave no synthesis or base');
    const options = {
      domain: 'shop',
      seed: 1,
      difficulty: 'easy',
      fuzz: 2,
      semantics: 'parity',
      db: { path: 'shop.db', canonical_sha256: '0', benchmark: false },
      coveVersion: 'test',
      maxAttempts: 20,
    } as const;
    let message = '';
    try {
      synthesizeTask(synthesis, base, options, 0);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^task 0: no valid draw of 1 constraint in 20 attempts \(/);
    expect(message).toContain('read tools');
    expect(message).toMatch(
      /or give the spec read tools that reach more tables .*, or use a DB with more rows$/,
    );
    expect(message).not.toContain('orders per user');
  });
});
