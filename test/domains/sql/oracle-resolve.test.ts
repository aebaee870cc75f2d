import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toPyValue } from '../../../src/core/py-value.js';
import { Rng } from '../../../src/core/rng.js';
import { referenceFor } from '../../../src/domains/sql/draw-call.js';
import { loadSqlDomain } from '../../../src/domains/sql/load-spec.js';
import type { Clause } from '../../../src/domains/sql/references.js';
import type { SqlFuzz } from '../../../src/domains/sql/sql-synthesis.js';
import { type ResolveCall, resolveNow, ToolReach } from '../../../src/domains/sql/tool-resolver.js';
import type { ChatMessage } from '../../../src/sim/messages.js';
import type { Constraint } from '../../../src/tasks/constraint.js';

/**
 * A small record shop, checked by hand. Album 10 is "Blue" by Nina (artist 2), 1999; album 12 is also "Blue" and
 * also 1999, by Nina Simone (artist 1); Nina also made "Red" (11). So "the album whose title is Blue and whose
 * artist's name is Nina" is album 10 and nothing else, and the tools reach it only through the artist: there is no
 * search of albums, so the artist is searched by name ("Nina" also finds "Nina Simone", which the exact filter
 * drops), then Nina's albums are listed and the title filters them.
 */
const dir = mkdtempSync(join(tmpdir(), 'cove-sql-oracle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, 'shop.sql'),
  `CREATE TABLE artist (artist_id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL);
   CREATE TABLE album (album_id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER NOT NULL,
     artist_id INTEGER NOT NULL REFERENCES artist(artist_id));`,
);
writeFileSync(
  join(dir, 'shop.rows.json'),
  JSON.stringify({
    artist: [
      { artist_id: 1, name: 'Nina Simone', country: 'US' },
      { artist_id: 2, name: 'Nina', country: 'DE' },
      { artist_id: 3, name: 'Otis', country: 'US' },
    ],
    album: [
      { album_id: 10, title: 'Blue', year: 1999, artist_id: 2 },
      { album_id: 11, title: 'Red', year: 2003, artist_id: 2 },
      { album_id: 12, title: 'Blue', year: 1999, artist_id: 1 },
      { album_id: 13, title: 'Dock', year: 1968, artist_id: 3 },
    ],
  }),
);
const specFile = join(dir, 'shop.json');
writeFileSync(
  specFile,
  JSON.stringify({
    name: 'shop',
    database: { ddl: 'shop.sql', rows: 'shop.rows.json' },
    policy: 'Look records up before changing them; confirm every change.',
    tools: [
      {
        name: 'search_artist_by_name',
        description: 'Artists whose name contains the text.',
        kind: 'read',
        sql: "SELECT * FROM artist WHERE name LIKE '%' || :name || '%' ORDER BY artist_id LIMIT 20",
        returns: 'rows',
      },
      {
        name: 'list_album_by_artist_id',
        description: 'The albums of one artist.',
        kind: 'read',
        sql: 'SELECT * FROM album WHERE artist_id = :artist_id ORDER BY album_id',
        returns: 'rows',
      },
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
const shop = loadSqlDomain(specFile);
const blueByNina: Clause[] = [
  { column: 'title', value: 'Blue' },
  { via: 0, column: 'name', value: 'Nina' },
];

describe('the SQL oracle resolves descriptions through the read tools', () => {
  it('finds album 10 by searching the artist, listing her albums and filtering by title', () => {
    const reach = new ToolReach(shop.templates, shop.tables);
    const base = shop.domain.files?.openBase(shop.dbFile);
    if (base === undefined) throw new Error('no base');
    const episode = base.fork();
    const calls: ResolveCall[] = [];
    const found = resolveNow(reach.resolve('album', blueByNina), (c) => {
      calls.push(c);
      return episode.call(c.name, toPyValue(c.args)).content;
    });
    expect(calls).toEqual([
      { name: 'search_artist_by_name', args: { name: 'Nina' } },
      { name: 'list_album_by_artist_id', args: { artist_id: 2 } },
    ]);
    expect(found).toEqual({ rows: [{ album_id: 10, title: 'Blue', year: 1999, artist_id: 2 }] });
    // no tool finds albums by year, and the year names no artist: unreachable, and no call is made
    expect(reach.routable('album', [{ column: 'year', value: 1968 }])).toBe(false);
    const none = resolveNow(reach.resolve('album', [{ column: 'year', value: 1968 }]), () => {
      throw new Error('no call expected');
    });
    expect('unresolved' in none).toBe(true);
    // the fuzzifier's choice: title alone and title + year match album 12 too; title + the artist's name is the
    // first unique set, and the tools resolve it
    const album = shop.tables.find((t) => t.name === 'album');
    if (album === undefined) throw new Error('no album table');
    const ref = referenceFor(episode, shop.tables, album, { album_id: 10 }, true, base.sql, reach);
    expect(ref?.clauses).toEqual(blueByNina);
    episode.close();
    base.close();
  });

  /** Plays the scripted user against the oracle agent on a copy of the shop; returns the calls and messages. */
  async function play(goalText: string, clauses: readonly Clause[]) {
    const fuzz: SqlFuzz = {
      hidden_ids: ['10'],
      goals: [
        {
          constraint: 'c1',
          kind: 'update_album_year',
          text: goalText,
          references: [{ table: 'album', key: { album_id: 10 }, clauses, param: 'album_id' }],
        },
      ],
    };
    const constraints: Constraint[] = [
      {
        id: 'c1',
        kind: 'update_album_year',
        args: { call: { album_id: 10, year: 2001 }, expect: [] },
        footprint: [],
      },
    ];
    const task = { fuzz, constraints, behaviour: { persona: 'friendly', knowledge: [], events: [] } };
    const sim = shop.domain.simulation;
    if (sim === undefined) throw new Error('no simulation');
    const agent = sim.createOracleAgent(task as never, new Rng(1));
    const user = sim.createScriptedUser(task as never, new Rng(2));
    const base = shop.domain.files?.openBase(shop.dbFile);
    if (base === undefined) throw new Error('no base');
    const episode = base.fork();
    const messages: ChatMessage[] = [{ role: 'assistant', content: 'Hi! How can I help you today?' }];
    const calls: [string, unknown][] = [];
    const visible = () =>
      messages.flatMap((m) =>
        (m.role === 'assistant' || m.role === 'user') && typeof m.content === 'string'
          ? [{ role: m.role === 'user' ? ('user' as const) : ('agent' as const), content: m.content }]
          : [],
      );
    for (let turn = 0; turn < 30; turn++) {
      const last = messages[messages.length - 1];
      if (last?.role === 'assistant' && last.tool_calls === undefined) {
        const said = (await user.respond(visible())).content;
        messages.push({ role: 'user', content: said });
        if (said.includes('###STOP###')) break;
      }
      const { message } = await agent.respond(messages);
      messages.push(message);
      for (const tc of message.tool_calls ?? []) {
        const args = JSON.parse(tc.function.arguments);
        calls.push([tc.function.name, args]);
        const r = episode.call(tc.function.name, toPyValue(args));
        messages.push({ role: 'tool', tool_call_id: tc.id, name: tc.function.name, content: r.content });
      }
    }
    const year = episode.sql.get('SELECT year FROM album WHERE album_id = 10')?.year;
    episode.close();
    base.close();
    return { calls, messages, year: Number(year) };
  }

  it('in an episode: the reads that resolve the description come first, then the write on the row found', async () => {
    const { calls, year } = await play(
      'You want the album whose title is "Blue" and whose artist\'s name is "Nina" changed, with the year set to 2001.',
      blueByNina,
    );
    expect(calls).toEqual([
      ['search_artist_by_name', { name: 'Nina' }],
      ['list_album_by_artist_id', { artist_id: 2 }],
      ['update_album_year', { album_id: 10, year: 2001 }],
    ]);
    expect(year).toBe(2001);
  });

  it('says so when the tools cannot resolve a description, and makes no write', async () => {
    const { calls, messages, year } = await play(
      'You want the album whose year is 1968 changed, with the year set to 2001.',
      [{ column: 'year', value: 1968 }],
    );
    expect(calls).toEqual([]);
    expect(year).toBe(1999);
    const said = messages.filter((m) => m.role === 'assistant').map((m) => m.content ?? '');
    expect(said.some((t) => t.includes('I could not look up the album whose year is 1968'))).toBe(true);
  });
});
