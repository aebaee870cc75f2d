import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { toPyValue } from '../../../src/core/py-value.js';
import { loadSqlDomain } from '../../../src/domains/sql/load-spec.js';
import { affinityOf, jsonTypesOf } from '../../../src/domains/sql/schema-info.js';
import { runCove } from '../../helpers/cli.js';

describe('column types by SQLite affinity', () => {
  it('follows the examples of §3.1.1 of SQLite’s datatype docs', () => {
    const table: [string, string][] = [
      ['INT', 'INTEGER'],
      ['TINYINT', 'INTEGER'],
      ['UNSIGNED BIG INT', 'INTEGER'],
      ['INT8', 'INTEGER'],
      ['CHARACTER(20)', 'TEXT'],
      ['VARCHAR(255)', 'TEXT'],
      ['NATIVE CHARACTER(70)', 'TEXT'],
      ['NVARCHAR(100)', 'TEXT'],
      ['TEXT', 'TEXT'],
      ['CLOB', 'TEXT'],
      ['BLOB', 'BLOB'],
      ['', 'BLOB'],
      ['REAL', 'REAL'],
      ['DOUBLE PRECISION', 'REAL'],
      ['FLOAT', 'REAL'],
      ['NUMERIC', 'NUMERIC'],
      ['DECIMAL(10,5)', 'NUMERIC'],
      ['BOOLEAN', 'NUMERIC'],
      ['DATE', 'NUMERIC'],
      ['DATETIME', 'NUMERIC'],
      // the docs' own caveats: "FLOATING POINT" contains INT, "STRING" matches no rule
      ['FLOATING POINT', 'INTEGER'],
      ['STRING', 'NUMERIC'],
      ['BIT', 'NUMERIC'],
    ];
    expect(table.map(([d]) => [d, affinityOf(d)])).toEqual(table);
  });
  it('gives JSON types: INT integer, text string, REAL number, NUMERIC number or string, BLOB/none any', () => {
    expect(['BIGINT', 'NVARCHAR(5)', 'FLOAT', 'BIT', 'DATE', 'BLOB', ''].map(jsonTypesOf)).toEqual([
      ['integer'],
      ['string'],
      ['number'],
      ['number', 'string'],
      ['number', 'string'],
      undefined,
      undefined,
    ]);
  });
});

/** A Spider-like table: a BIT flag, a DATETIME stored as text, a DECIMAL, and a column of no type. */
const dir = mkdtempSync(join(tmpdir(), 'cove-sql-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dbFile = join(dir, 'units.sqlite');
{
  const db = new Database(dbFile);
  db.exec(`
    CREATE TABLE unit (unit_id INTEGER PRIMARY KEY, code VARCHAR(10) NOT NULL, available_yn BIT,
      opened DATETIME, rent DECIMAL(10,2), extra);
    INSERT INTO unit VALUES (1, 'A-1', 1, '2017-03-04 10:00:00', 950.5, 7),
      (2, 'B-2', 0, '2018-11-20 09:30:00', 1200, 'n/a'), (3, 'C-3', 1, NULL, 700.25, NULL);
  `);
  db.close();
}

describe('cove synth tools on numeric-affinity columns', () => {
  it('keeps the lookup (a BIT holds integers, a DATETIME text) and its tools take what the columns hold', () => {
    const spec = join(dir, 'spec.json');
    const r = runCove(['synth', 'tools', '--db', dbFile, '--out', spec]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('dropped get_unit');
    const names = (JSON.parse(readFileSync(spec, 'utf8')) as { tools: { name: string }[] }).tools.map(
      (t) => t.name,
    );
    expect(names).toContain('get_unit');
    const sql = loadSqlDomain(spec);
    const get = sql.templates.find((t) => t.json.name === 'get_unit');
    expect((get?.output as { properties?: Record<string, unknown> } | undefined)?.properties).toEqual({
      unit_id: { type: ['integer', 'null'] },
      code: { type: ['string', 'null'] },
      available_yn: { type: ['number', 'string', 'null'] },
      opened: { type: ['number', 'string', 'null'] },
      rent: { type: ['number', 'string', 'null'] },
      extra: {},
    });
    const base = sql.domain.files?.openBase(sql.dbFile);
    if (base === undefined) throw new Error('no base');
    const episode = base.fork();
    expect(episode.call('get_unit', toPyValue({ unit_id: 2 })).content).toBe(
      '{"unit_id": 2, "code": "B-2", "available_yn": 0, "opened": "2018-11-20 09:30:00", "rent": 1200, "extra": "n/a"}',
    );
    episode.close();
    base.close();
  });
});
