import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseStatement, UnsafeStatementError } from '../../../src/domains/sql/statement-safety.js';
import { SHARED } from '../../helpers/paths.js';

const CHINOOK = join(SHARED, 'sql', 'chinook', 'Chinook_Sqlite.sqlite');
const db = new Database(CHINOOK, { readonly: true, fileMustExist: true });
afterAll(() => db.close());
// the spec of these tests leaves Employee out: touching it is touching a table outside the spec
const ALLOWED = new Set([
  'Album',
  'Artist',
  'Customer',
  'Genre',
  'Invoice',
  'InvoiceLine',
  'MediaType',
  'Playlist',
  'PlaylistTrack',
  'Track',
]);
const analyse = (sql: string) => analyseStatement(db, sql, ALLOWED);

const REFUSED: [string, string][] = [
  ['attach', "ATTACH DATABASE '/tmp/x.db' AS x"],
  ['attach, lower case', "attach '/tmp/x.db' as x"],
  ['detach', 'DETACH x'],
  ['pragma behind a comment and mixed case', '/* look */ PrAgMa foreign_keys = OFF'],
  ['pragma function', "SELECT * FROM pragma_table_info('Track')"],
  ['vacuum into', "VACUUM INTO '/tmp/copy.db'"],
  ['load_extension', "SELECT load_extension('/tmp/evil.so')"],
  ['load_extension with whitespace and case', "SELECT LOAD_EXTENSION\n  ('/tmp/evil.so')"],
  ['a second statement', 'SELECT 1; DROP TABLE Track'],
  ['a second statement after a string holding ;', "SELECT ';' AS a; DELETE FROM Track"],
  ['a second statement after a comment', 'SELECT 1 /* ; */; ATTACH x AS y'],
  ['a table outside the spec', 'SELECT * FROM Employee'],
  ['outside, double-quoted', 'SELECT * FROM "Employee"'],
  ['outside, bracketed', 'SELECT * FROM [Employee]'],
  ['outside, backticked', 'SELECT * FROM `Employee`'],
  ['outside, lower case', 'SELECT * FROM employee'],
  ['outside, in a subquery', 'SELECT * FROM Track WHERE TrackId IN (SELECT EmployeeId FROM Employee)'],
  [
    'outside, through a CTE of a write',
    'WITH e AS (SELECT EmployeeId FROM Employee) DELETE FROM Track WHERE TrackId IN (SELECT * FROM e)',
  ],
  ['outside, a write', "UPDATE Employee SET Title = 'x' WHERE EmployeeId = :id"],
  ['outside, behind a line comment', '-- harmless\nDELETE FROM Employee'],
  ['the schema table', 'SELECT * FROM sqlite_master'],
  ['the schema table, quoted', 'SELECT sql FROM "sqlite_schema"'],
  ['a temp table', 'CREATE TEMP TABLE t (x)'],
  ['DDL', 'DROP TABLE Track'],
  ['transaction control', 'COMMIT'],
  ['a fullwidth keyword letter', "ＡTTACH '/tmp/x' AS x"],
  ['a fullwidth semicolon', 'SELECT * FROM Track WHERE Name = :n；DROP TABLE Track'],
  ['a Cyrillic look-alike in a table name', 'SELECT * FROM Trаck'],
  ['positional parameter', 'SELECT * FROM Track WHERE TrackId = ?'],
  ['$ parameter', 'SELECT * FROM Track WHERE TrackId = $id'],
  ['@ parameter', 'SELECT * FROM Track WHERE TrackId = @id'],
  ['an unterminated string', "SELECT 'abc FROM Track"],
];

const ACCEPTED: [string, string, boolean][] = [
  ['a lookup', 'SELECT * FROM Track WHERE TrackId = :track_id', true],
  ['a ; inside a string', "SELECT * FROM Track WHERE Name = ';DROP TABLE Track' OR TrackId = :id", true],
  ['comments holding ;', 'SELECT 1 AS one /* ; DROP */ -- ;\n', true],
  ['a trailing ;', 'SELECT * FROM Genre;', true],
  ['a unicode string literal', "SELECT * FROM Artist WHERE Name = 'Motörhead'", true],
  ['a CTE that writes', 'WITH t AS (SELECT 1) DELETE FROM PlaylistTrack WHERE TrackId = :id', false],
  ['an insert', 'INSERT INTO Genre (Name) VALUES (:name)', false],
];

describe('statement safety (issue 18 item 2)', () => {
  for (const [what, sql] of REFUSED) {
    it(`refuses ${what}`, () => {
      expect(() => analyse(sql)).toThrow(UnsafeStatementError);
    });
  }
  for (const [what, sql, readonly] of ACCEPTED) {
    it(`accepts ${what} (read-only: ${readonly})`, () => {
      expect(analyse(sql).readonly).toBe(readonly);
    });
  }
  it('names the table it found outside the spec and the parameters in order', () => {
    expect(() => analyse('SELECT * FROM "Employee"')).toThrow(/touches table 'Employee', outside the spec/);
    const info = analyse(
      'SELECT * FROM Track WHERE AlbumId = :album AND (GenreId = :genre OR AlbumId = :album)',
    );
    expect(info.params).toEqual(['album', 'genre']);
    expect(info.tables).toEqual(['Track']);
  });
});
