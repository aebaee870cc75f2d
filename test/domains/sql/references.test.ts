import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { describeRow, renderReference } from '../../../src/domains/sql/references.js';
import { readSchema } from '../../../src/domains/sql/schema-info.js';
import { SqlConnection } from '../../../src/env/sql.js';
import { SHARED } from '../../helpers/paths.js';
import { bruteForceMatches } from '../../helpers/sql-brute-force.js';

const CHINOOK = join(SHARED, 'sql', 'chinook', 'Chinook_Sqlite.sqlite');
const raw = new Database(CHINOOK, { readonly: true });
const tables = readSchema(raw);
const sql = new SqlConnection(raw);
afterAll(() => raw.close());
const table = (name: string) => tables.find((t) => t.name === name) as (typeof tables)[number];

// Expected descriptions worked out by hand with the sqlite3 shell on Chinook:
// - track 2 is the only "Balls to the Wall";
// - track 1986 is one of three "Intro" tracks, one of 26 by Kurt Cobain, and the only one of 52218 ms;
// - playlists 1 and 8 are both named "Music" and both hold track 1986: nothing but the key tells those rows apart;
// - playlist 5 is "90’s Music".
describe('fuzzy references: the smallest unique set of non-key columns', () => {
  it('one own column when it is unique', () => {
    expect(describeRow(sql, tables, table('Track'), { TrackId: 2 }, ['2'])).toEqual([
      { column: 'Name', value: 'Balls to the Wall' },
    ]);
  });
  it('a smaller set beats a more natural one: one unique number before a name and composer pair', () => {
    expect(describeRow(sql, tables, table('Track'), { TrackId: 1986 }, ['1986'])).toEqual([
      { column: 'Milliseconds', value: 52218 },
    ]);
  });
  it('no description when rows differ only by key', () => {
    expect(
      describeRow(sql, tables, table('PlaylistTrack'), { PlaylistId: 1, TrackId: 1986 }, ['1', '1986']),
    ).toBeUndefined();
  });
  it('a composite-key row through its parents, unique by the brute-force checker', () => {
    // 52218 ms holds the hidden id 5, so the track's length cannot be used here
    const clauses = describeRow(sql, tables, table('PlaylistTrack'), { PlaylistId: 5, TrackId: 1986 }, [
      '5',
      '1986',
    ]);
    expect(clauses?.length).toBeGreaterThanOrEqual(2);
    expect(clauses?.every((c) => c.via !== undefined && !String(c.value).includes('5'))).toBe(true);
    const ref = { table: 'PlaylistTrack', key: { PlaylistId: 5, TrackId: 1986 }, clauses: clauses ?? [] };
    expect(bruteForceMatches(CHINOOK, ref)).toEqual([{ PlaylistId: 5, TrackId: 1986 }]);
    expect(renderReference(tables, ref)).toContain(`whose playlist's name is "90’s Music"`);
  });
  it('never uses a value that contains a hidden id, nor one longer than 60 characters', () => {
    // with "Wall" hidden the unique name cannot be used, the composer is 76 characters long, and 342562 ms is unique
    expect(describeRow(sql, tables, table('Track'), { TrackId: 2 }, ['Wall'])).toEqual([
      { column: 'Milliseconds', value: 342562 },
    ]);
  });
});

describe('references in words', () => {
  it('a plural column takes "are", a plural parent only an apostrophe', () => {
    const orders = {
      name: 'order',
      columns: [],
      primaryKey: ['order_id'],
      rowidKey: true,
      withoutRowid: false,
      foreignKeys: [
        { parent: 'customers', columns: ['customer_id'], parentColumns: ['customer_id'] },
        { parent: 'Album', columns: ['album_id'], parentColumns: ['album_id'] },
      ],
    };
    const ref = {
      table: 'order',
      key: { order_id: 1 },
      clauses: [
        { column: 'minutes', value: 191 },
        { column: 'status', value: 'open' },
        { column: 'name', value: 'Ada', via: 0 },
        { column: 'Title', value: 'Blue', via: 1 },
        { column: 'ship_address', value: 'Quay 1' },
      ],
    };
    expect(renderReference([orders], ref)).toBe(
      'the order whose minutes are 191 and whose status is "open" and whose customers\' name is "Ada" and ' +
        'whose album\'s title is "Blue" and whose ship address is "Quay 1"',
    );
  });
});
