import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSqlDomain } from '../../../src/domains/sql/load-spec.js';
import { synthesizeTask } from '../../../src/tasks/sampler.js';

/**
 * A hand-built catalogue: artists 1, 2 and 3 have albums, artists 4, 5 and 6 have none. The rule "an artist with
 * albums cannot be renamed" therefore forbids renaming 1–3 and allows 4–6.
 */
const dir = mkdtempSync(join(tmpdir(), 'cove-sql-rule-writes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, 'cat.sql'),
  `CREATE TABLE artist (artist_id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL);
   CREATE TABLE album (album_id INTEGER PRIMARY KEY, title TEXT NOT NULL,
     artist_id INTEGER NOT NULL REFERENCES artist(artist_id));`,
);
writeFileSync(
  join(dir, 'cat.rows.json'),
  JSON.stringify({
    artist: [
      { artist_id: 1, name: 'Amber Lane', country: 'Chile' },
      { artist_id: 2, name: 'Basalt', country: 'Norway' },
      { artist_id: 3, name: 'Copper Sky', country: 'Kenya' },
      { artist_id: 4, name: 'Dune Choir', country: 'Peru' },
      { artist_id: 5, name: 'Ember Row', country: 'Japan' },
      { artist_id: 6, name: 'Fjord Line', country: 'Ghana' },
    ],
    album: [
      { album_id: 10, title: 'First Light', artist_id: 1 },
      { album_id: 11, title: 'Grey Stone', artist_id: 2 },
      { album_id: 12, title: 'High Tide', artist_id: 3 },
      { album_id: 13, title: 'Iron Gate', artist_id: 3 },
    ],
  }),
);
const specFile = join(dir, 'cat.json');
writeFileSync(
  specFile,
  JSON.stringify({
    name: 'cat',
    database: { ddl: 'cat.sql', rows: 'cat.rows.json' },
    policy: 'Help with the catalogue.',
    rules: [
      {
        name: 'artist_with_albums',
        tool: 'rename_artist',
        when: 'EXISTS (SELECT 1 FROM album WHERE album.artist_id = :artist_id)',
        refusal: 'An artist who has albums cannot be renamed.',
      },
    ],
    tools: [
      {
        name: 'get_artist',
        description: 'One artist by id.',
        kind: 'read',
        sql: 'SELECT * FROM artist WHERE artist_id = :artist_id',
        returns: 'row',
      },
      {
        name: 'search_artist_by_name',
        description: 'Artists by name.',
        kind: 'read',
        sql: "SELECT * FROM artist WHERE name LIKE '%' || :name || '%' ORDER BY artist_id LIMIT 20",
        returns: 'rows',
      },
      {
        name: 'rename_artist',
        description: 'Rename an artist.',
        kind: 'write',
        sql: [
          'UPDATE artist SET name = :name WHERE artist_id = :artist_id',
          'SELECT * FROM artist WHERE artist_id = :artist_id',
        ],
        returns: 'row',
      },
    ],
  }),
);

describe('a rule on a write tool', () => {
  it('keeps ordinary write tasks of that tool off the rows it forbids; refusals concern only those', () => {
    const sql = loadSqlDomain(specFile);
    const synthesis = sql.domain.synthesis as NonNullable<typeof sql.domain.synthesis>;
    const base = sql.domain.files?.openBase(sql.dbFile);
    if (base === undefined) throw new Error('no base');
    const renamed = new Set<number>();
    const refused = new Set<number>();
    for (let i = 0; i < 60; i++) {
      for (const fuzz of [0, 2] as const) {
        const task = synthesizeTask(
          synthesis,
          base,
          {
            domain: 'cat',
            seed: 11,
            difficulty: 'easy',
            fuzz,
            semantics: 'parity',
            db: { path: 'x', canonical_sha256: 'y', benchmark: false },
            coveVersion: 'test',
          },
          i,
        );
        for (const c of task.cove.constraints) {
          if (c.kind === 'rename_artist')
            renamed.add(Number((c.args.call as { artist_id: number }).artist_id));
          if (c.kind === 'refuse_artist_with_albums') refused.add(Number(c.args.entity_key));
        }
      }
    }
    base.close();
    expect([...renamed].sort()).toEqual([4, 5, 6]);
    expect([...refused].sort()).toEqual([1, 2, 3]);
  });
});
