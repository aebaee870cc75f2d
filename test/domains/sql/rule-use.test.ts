import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSqlDomain } from '../../../src/domains/sql/load-spec.js';
import { runCove } from '../../helpers/cli.js';

/**
 * Rules that can never give a refusal task are named with the reason (docs/sql-domains.md, "Constraints, references and verification"); `cove synth
 * tools` gives each table an update or delete changes its lookup by key, which refusals need.
 */
const dir = mkdtempSync(join(tmpdir(), 'cove-sql-rule-use-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dbFile = join(dir, 'club.sqlite');
{
  const db = new Database(dbFile);
  db.exec(`
    CREATE TABLE aa_tag (tag_id INTEGER PRIMARY KEY);
    CREATE TABLE member (member_id INTEGER PRIMARY KEY, name TEXT NOT NULL, level INTEGER NOT NULL);
    CREATE TABLE seat (row_no INTEGER NOT NULL, seat_no INTEGER NOT NULL, holder TEXT,
      PRIMARY KEY (row_no, seat_no));
    INSERT INTO aa_tag VALUES (1), (2);
    INSERT INTO member VALUES (1, 'Ines', 2), (2, 'Jonas', 1), (3, 'Kira', 3);
    INSERT INTO seat VALUES (1, 1, 'Ines'), (1, 2, NULL), (2, 1, 'Kira');
  `);
  db.close();
}
const READS = [
  {
    name: 'search_member_by_name',
    description: 'Members by name.',
    kind: 'read',
    sql: "SELECT * FROM member WHERE name LIKE '%' || :name || '%' ORDER BY member_id LIMIT 20",
    returns: 'rows',
  },
];
const WRITES = [
  {
    name: 'set_level',
    description: 'Set the level of a member.',
    kind: 'write',
    sql: 'UPDATE member SET level = :level WHERE member_id = :member_id',
    returns: 'count',
  },
  {
    name: 'give_seat',
    description: 'Give a seat to someone.',
    kind: 'write',
    sql: 'UPDATE seat SET holder = :holder WHERE row_no = :row_no AND seat_no = :seat_no',
    returns: 'count',
  },
  {
    name: 'add_member',
    description: 'A new member.',
    kind: 'write',
    sql: 'INSERT INTO member (name, level) VALUES (:name, :level)',
    returns: 'count',
  },
];
const RULES = [
  { name: 'top_level', tool: 'set_level', when: ':level > 3', refusal: 'No level above 3.' },
  { name: 'front_row', tool: 'give_seat', when: ':row_no = 1', refusal: 'The front row is reserved.' },
  { name: 'no_dups', tool: 'add_member', when: ':level = 0', refusal: 'Level 0 does not exist.' },
];

function writeSpec(name: string, tools: unknown[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name: 'club',
      database: { sqlite: 'club.sqlite' },
      policy: 'Help.',
      rules: RULES,
      tools,
    }),
  );
  return file;
}

describe('rules that can never give a refusal task', () => {
  it('are each named with why, at load and by cove tasks (stderr)', () => {
    const file = writeSpec('no-lookup', [...READS, ...WRITES]);
    const expected = [
      `${file}: $.rules[0]: rule top_level can never give a refusal task: no read tool looks up one member row by its member_id alone (add one, e.g. SELECT * FROM member WHERE member_id = :key)`,
      `${file}: $.rules[1]: rule front_row can never give a refusal task: give_seat writes seat, whose key has 2 columns (a refusal needs a one-column key)`,
      `${file}: $.rules[2]: rule no_dups can never give a refusal task: add_member inserts a row: there is no existing row whose change could be refused`,
    ];
    expect(loadSqlDomain(file).warnings).toEqual(expected);
    const r = runCove(['tasks', '--domain-spec', file, '--n', '2', '--out', join(dir, 't.json')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('warning: '))).toEqual(
      expected.map((w) => `warning: ${w}`),
    );
  });
  it('a lookup by key of the table makes the rule usable', () => {
    const get = {
      name: 'get_member',
      description: 'One member by id.',
      kind: 'read',
      sql: 'SELECT * FROM member WHERE member_id = :member_id',
      returns: 'row',
    };
    const loaded = loadSqlDomain(writeSpec('with-lookup', [...READS, get, ...WRITES]));
    expect(loaded.warnings.map((w) => w.split(': ')[2])).toEqual([
      'rule front_row can never give a refusal task',
      'rule no_dups can never give a refusal task',
    ]);
    expect(loaded.domain.synthesis?.kinds.map((k) => k.name)).toContain('refuse_top_level');
  });
});

describe('cove synth tools', () => {
  it('gives each table an update or delete changes a get_ lookup by key', () => {
    const spec = join(dir, 'synth.json');
    // few tools: the first of each kind is taken round-robin over the tables by rank (aa_tag, member, seat), so
    // get_aa_tag is the first lookup and update_member_level the first update; get_member must come with the
    // update, before the create and the delete (delete_aa_tag no longer fits)
    const r = runCove(['synth', 'tools', '--db', dbFile, '--max-tools', '5', '--out', spec]);
    expect(r.status, r.stderr).toBe(0);
    const tools = (JSON.parse(readFileSync(spec, 'utf8')) as { tools: { name: string }[] }).tools.map(
      (t) => t.name,
    );
    expect(tools).toEqual([
      'get_aa_tag',
      'search_seat_by_holder',
      'update_member_level',
      'get_member',
      'create_member',
    ]);
  });
});
