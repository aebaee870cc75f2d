import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputFileError } from '../../../src/core/errors.js';
import { parsePyJson } from '../../../src/core/py-json-parse.js';
import { loadSqlDomain } from '../../../src/domains/sql/load-spec.js';
import { SHARED } from '../../helpers/paths.js';

const CHINOOK = join(SHARED, 'sql', 'chinook', 'Chinook_Sqlite.sqlite');
const dir = mkdtempSync(join(tmpdir(), 'cove-sql-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** Writes a spec into its own sub-folder (so relative paths are tested) and returns its path. */
function writeSpec(spec: Record<string, unknown>): string {
  const sub = join(dir, `s${n++}`);
  mkdirSync(sub);
  const file = join(sub, 'spec.json');
  writeFileSync(file, JSON.stringify({ database: { sqlite: relative(sub, CHINOOK) }, ...spec }));
  return file;
}

const TOOLS = [
  {
    name: 'get_track',
    description: 'One track by id.',
    kind: 'read',
    sql: 'SELECT * FROM Track WHERE TrackId = :track_id',
    returns: 'row',
  },
  {
    name: 'search_artists',
    description: 'Artists by name.',
    kind: 'read',
    sql: "SELECT * FROM Artist WHERE Name LIKE '%' || :q || '%' ORDER BY ArtistId LIMIT 3",
    returns: 'rows',
  },
  {
    name: 'create_genre',
    description: 'A new genre.',
    kind: 'write',
    sql: [
      'INSERT INTO Genre (GenreId, Name) VALUES (:genre_id, :name)',
      'SELECT * FROM Genre WHERE GenreId = :genre_id',
    ],
    returns: 'row',
  },
  {
    name: 'rename_artist',
    description: 'Rename an artist.',
    kind: 'write',
    sql: 'UPDATE Artist SET Name = :name WHERE ArtistId = :artist_id',
    returns: 'count',
  },
];
const base = { name: 'chinook', policy: 'Be helpful.', tools: TOOLS };

function errorOf(spec: Record<string, unknown>): InputFileError {
  const file = writeSpec(spec);
  try {
    loadSqlDomain(file);
  } catch (e) {
    if (e instanceof InputFileError) return e;
    throw e;
  }
  throw new Error('loaded');
}

describe('SQL domain spec', () => {
  it('names the file and the JSON path of a schema error', () => {
    const e = errorOf({ ...base, tools: [TOOLS[0], { ...TOOLS[1], kind: 'maybe' }] });
    expect(e.path).toBe('$.tools[1].kind');
    expect(e.message).toContain('spec.json');
  });
  it('refuses an unsafe statement by its path in the sql list', () => {
    const e = errorOf({ ...base, tools: [{ ...TOOLS[2], sql: ['SELECT 1', "ATTACH 'x' AS y"] }] });
    expect(e.path).toBe('$.tools[0].sql[1]');
  });
  it('refuses a read tool whose statement writes (a CTE that deletes)', () => {
    const e = errorOf({
      ...base,
      tools: [{ ...TOOLS[0], sql: 'WITH t AS (SELECT 1) DELETE FROM Track WHERE TrackId = :track_id' }],
    });
    expect(e.path).toBe('$.tools[0].sql');
    expect(e.reason).toMatch(/read tool/);
  });
  it('resolves the database relative to the spec file; a missing one names the spec and the field', () => {
    const e = errorOf({ ...base, database: { sqlite: 'missing.sqlite' } });
    const sub = join(dir, `s${n - 1}`);
    expect([e.file, e.path, e.reason]).toEqual([
      join(sub, 'spec.json'),
      '$.database.sqlite',
      `cannot read ${join(sub, 'missing.sqlite')} (ENOENT); fix the path (relative to the spec's folder)`,
    ]);
    const ddl = errorOf({ ...base, database: { ddl: 'schema.sql' } });
    expect([ddl.path, ddl.reason]).toEqual([
      '$.database.ddl',
      `cannot read ${join(dir, `s${n - 1}`, 'schema.sql')} (ENOENT); fix the path (relative to the spec's folder)`,
    ]);
    const notDb = errorOf({ ...base, database: { sqlite: 'spec.json' } });
    expect([notDb.path, notDb.reason]).toEqual([
      '$.database.sqlite',
      `${join(dir, `s${n - 1}`, 'spec.json')}: not a SQLite database (no "SQLite format 3" header)`,
    ]);
  });
  it('refuses parameters that do not match the placeholders', () => {
    const e = errorOf({
      ...base,
      tools: [{ ...TOOLS[0], parameters: { type: 'object', properties: { id: { type: 'integer' } } } }],
    });
    expect(e.path).toBe('$.tools[0].parameters.properties');
  });

  it('derives parameter schemas from placeholders and column types', () => {
    const { domain } = loadSqlDomain(writeSpec(base));
    const params = Object.fromEntries(
      domain.tools.map((t) => [t.name, t.params.map((p) => [p.name, p.schema.type])]),
    );
    expect(params).toEqual({
      get_track: [['track_id', 'integer']],
      search_artists: [['q', 'string']],
      create_genre: [
        ['genre_id', 'integer'],
        ['name', 'string'],
      ],
      rename_artist: [
        ['name', 'string'],
        ['artist_id', 'integer'],
      ],
    });
  });

  it('returns rows verbatim, and SQL errors and empty results as Error: tool results', () => {
    const sql = loadSqlDomain(writeSpec(base));
    const b = sql.domain.files?.openBase(sql.dbFile);
    if (b === undefined) throw new Error('no base');
    const ep = b.fork();
    const call = (name: string, args: string) => ep.call(name, parsePyJson(args));
    try {
      // TrackId 1 as the sqlite3 shell prints it (UnitPrice is the REAL 0.99)
      expect(call('get_track', '{"track_id": 1}').content).toBe(
        '{"TrackId": 1, "Name": "For Those About To Rock (We Salute You)", "AlbumId": 1, "MediaTypeId": 1, "GenreId": 1, ' +
          '"Composer": "Angus Young, Malcolm Young, Brian Johnson", "Milliseconds": 343719, "Bytes": 11170334, "UnitPrice": 0.99}',
      );
      expect(call('get_track', '{"track_id": 999999}')).toMatchObject({
        error: true,
        content: 'Error: no matching row',
      });
      expect(call('get_track', '{"track_id": "1"}')).toMatchObject({
        error: true,
        content: 'Error: track_id must be integer',
      });
      expect(JSON.parse(call('search_artists', '{"q": "zeppelin"}').content)).toEqual([
        { ArtistId: 22, Name: 'Led Zeppelin' },
        { ArtistId: 157, Name: 'Dread Zeppelin' },
      ]);
      expect(call('create_genre', '{"genre_id": 1, "name": "Again"}')).toMatchObject({
        error: true,
        content: 'Error: UNIQUE constraint failed: Genre.GenreId',
      });
      expect(call('rename_artist', '{"name": "X", "artist_id": 999999}')).toMatchObject({
        error: true,
        content: 'Error: no row matched: nothing was changed',
      });
      expect(ep.changedEntities()).toEqual([]);
      expect(call('rename_artist', '{"name": "Led Zep", "artist_id": 22}')).toMatchObject({
        error: false,
        content: '1',
      });
      expect(ep.changedEntities()).toEqual([{ collection: 'Artist', key: '22' }]);
    } finally {
      ep.close();
      b.close();
    }
  });

  it('runs read tools in a read-only transaction even if a write slipped through', () => {
    const sql = loadSqlDomain(writeSpec(base));
    const b = sql.domain.files?.openBase(sql.dbFile);
    if (b === undefined) throw new Error('no base');
    const ep = b.fork();
    try {
      ep.sql.db.pragma('query_only = 1');
      expect(() => ep.sql.db.exec("UPDATE Artist SET Name = 'x' WHERE ArtistId = 1")).toThrow(/readonly/);
      ep.sql.db.pragma('query_only = 0');
      // after a read tool ran, writes are possible again (the pragma is restored)
      expect(ep.call('get_track', parsePyJson('{"track_id": 2}')).error).toBe(false);
      expect(ep.call('rename_artist', parsePyJson('{"name": "Y", "artist_id": 1}')).error).toBe(false);
    } finally {
      ep.close();
      b.close();
    }
  });
});
