import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSqlDomain } from '../../../src/domains/sql/load-spec.js';
import { synthesizeTask } from '../../../src/tasks/sampler.js';

/**
 * Two specs that cannot make the asked tasks. In `shop.json` the only read tool looks an album up by its id: at
 * fuzz level 2 (every reference a description) no album can ever be described in a way the agent's tools resolve,
 * which is known before any draw, so the first draw fails with what to change (it used to spend every attempt,
 * minutes on a real database, before saying so). In `twins.json` a search by title exists but the two albums are
 * alike in every column: the draws are tried and the error says what to change in SQL-domain terms (not Retail's
 * "more orders per user").
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
  join(dir, 'twins.rows.json'),
  JSON.stringify({
    album: [
      { album_id: 10, title: 'Blue', year: 1999 },
      { album_id: 11, title: 'Blue', year: 1999 },
    ],
  }),
);
const getAlbum = {
  name: 'get_album',
  description: 'One album by its id.',
  kind: 'read',
  sql: 'SELECT * FROM album WHERE album_id = :album_id',
  returns: 'row',
};
const updateYear = {
  name: 'update_album_year',
  description: 'Change the year of an album.',
  kind: 'write',
  sql: [
    'UPDATE album SET year = :year WHERE album_id = :album_id',
    'SELECT * FROM album WHERE album_id = :album_id',
  ],
  returns: 'row',
};
writeFileSync(
  join(dir, 'twins.json'),
  JSON.stringify({
    name: 'twins',
    database: { ddl: 'shop.sql', rows: 'twins.rows.json' },
    policy: 'Confirm every change.',
    tools: [
      getAlbum,
      {
        name: 'search_album_by_title',
        description: 'Albums with this title.',
        kind: 'read',
        sql: 'SELECT * FROM album WHERE title = :title',
        returns: 'rows',
      },
      updateYear,
    ],
  }),
);
writeFileSync(
  join(dir, 'shop.json'),
  JSON.stringify({
    name: 'shop',
    database: { ddl: 'shop.sql', rows: 'shop.rows.json' },
    policy: 'Confirm every change.',
    tools: [getAlbum, updateYear],
  }),
);

const options = {
  domain: 'shop',
  seed: 1,
  difficulty: 'easy',
  fuzz: 2,
  semantics: 'parity',
  db: { path: 'shop.db', canonical_sha256: '0', benchmark: false },
  coveVersion: 'test',
} as const;

function open(spec: string) {
  const loaded = loadSqlDomain(join(dir, spec));
  const synthesis = loaded.domain.synthesis;
  const base = loaded.domain.files?.openBase(loaded.dbFile);
  if (synthesis === undefined || base === undefined) throw new Error('the spec gave no synthesis or base');
  return { synthesis, base };
}

function failure(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    return (e as Error).message;
  }
  return '';
}

describe('a SQL domain that cannot make the asked tasks', () => {
  it('fails on the first draw when no read tool can find a described row, naming the table and the fixes', () => {
    const { synthesis, base } = open('shop.json');
    let draws = 0;
    const counted = {
      ...synthesis,
      draw: (...a: Parameters<typeof synthesis.draw>) => {
        draws++;
        return synthesis.draw(...a);
      },
    };
    const message = failure(() => synthesizeTask(counted, base, options, 0));
    expect(draws).toBe(1);
    expect(message).toMatch(
      /^no task can be drawn at --fuzz 2: every kind of goal refers to a row of album, /,
    );
    expect(message).toContain('add such a read tool to the spec, or use --fuzz 0');
    // rows named by their key need no description: the same spec makes tasks at --fuzz 0
    expect(synthesizeTask(synthesis, base, { ...options, fuzz: 0 }, 0).cove.constraints).toHaveLength(1);
  });

  it('tries the draws when descriptions can be routed but none is unique, with a hint about the read tools', () => {
    const { synthesis, base } = open('twins.json');
    const message = failure(() => synthesizeTask(synthesis, base, { ...options, maxAttempts: 20 }, 0));
    expect(message).toMatch(/^task 0: no valid draw of 1 constraint in 20 attempts \(/);
    expect(message).toContain('no unique description of album');
    expect(message).toMatch(
      /or give the spec read tools that reach more tables .*, or use a DB with more rows$/,
    );
    expect(message).not.toContain('orders per user');
  });
});
