import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputFileError } from '../../../src/core/errors.js';
import { toPyValue } from '../../../src/core/py-value.js';
import { loadSqlDomain } from '../../../src/domains/sql/load-spec.js';
import type { ChatMessage } from '../../../src/sim/messages.js';
import type { ExecutedToolCall } from '../../../src/sim/run-episode.js';
import { synthesizeTask } from '../../../src/tasks/sampler.js';
import { verifyTrajectory } from '../../../src/verify/verification.js';
import { SHARED } from '../../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'cove-sql-rule-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SPEC = {
  name: 'chinook-rules',
  database: { sqlite: join(SHARED, 'sql', 'chinook', 'Chinook_Sqlite.sqlite') },
  policy: 'Help with the catalogue.',
  rules: [
    {
      name: 'artist_with_albums',
      tool: 'rename_artist',
      when: 'EXISTS (SELECT 1 FROM Album WHERE Album.ArtistId = :artist_id)',
      refusal: 'An artist who has albums in the catalogue cannot be renamed.',
    },
  ],
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
};

function load(spec: Record<string, unknown>) {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(spec));
  return loadSqlDomain(file);
}

const options = {
  domain: 'chinook-rules',
  seed: 3,
  difficulty: 'easy' as const,
  fuzz: 2 as const,
  semantics: 'parity' as const,
  db: { path: 'x', canonical_sha256: 'y', benchmark: false },
  coveVersion: 'test',
};

describe('SQL rules become refusal kinds', () => {
  it('states the rules in the policy text', () => {
    expect(load(SPEC).domain.policy.cove).toContain(
      '- An artist who has albums in the catalogue cannot be renamed.',
    );
  });
  it('refuses an unsafe or foreign-parameter rule condition by its JSON path', () => {
    const bad = (when: string) => {
      try {
        load({ ...SPEC, rules: [{ ...SPEC.rules[0], when }] });
      } catch (e) {
        return e instanceof InputFileError ? e.path : String(e);
      }
      return 'loaded';
    };
    expect(bad('EXISTS (SELECT 1 FROM sqlite_master)')).toBe('$.rules[0].when');
    expect(bad('1) THEN 1 END; ATTACH x AS y; SELECT (1')).toBe('$.rules[0].when');
    expect(bad(':other = 1')).toBe('$.rules[0].when');
  });

  it('a refusal task: the forbidden entity has albums; looking it up and saying no scores 1, renaming it 0', () => {
    const sql = load(SPEC);
    const synthesis = sql.domain.synthesis as NonNullable<typeof sql.domain.synthesis>;
    const base = sql.domain.files?.openBase(sql.dbFile);
    if (base === undefined) throw new Error('no base');
    let task: ReturnType<typeof synthesizeTask> | undefined;
    for (let i = 0; i < 200 && task === undefined; i++) {
      const t = synthesizeTask(synthesis, base, options, i);
      if (t.cove.constraints[0]?.kind === 'refuse_artist_with_albums') task = t;
    }
    if (task === undefined) throw new Error('no refusal task drawn');
    const c = task.cove.constraints[0] as (typeof task.cove.constraints)[number];
    const artist = Number(c.args.entity_key);
    // the rule's own condition, checked by hand on the data: the artist has at least one album
    expect(
      base.sql.get('SELECT count(*) AS n FROM Album WHERE ArtistId = ?', BigInt(artist))?.n,
    ).toBeGreaterThan(0n);
    expect(task.evaluation_criteria.actions).toEqual([]);
    const run = (calls: [string, Record<string, unknown>][], say: string) => {
      const episode = base.fork();
      const messages: ChatMessage[] = [{ role: 'user', content: 'hi' }];
      const toolCalls: ExecutedToolCall[] = calls.map(([name, args], i) => {
        const r = episode.call(name, toPyValue(args));
        messages.push({ role: 'tool', tool_call_id: `t${i}`, name, content: r.content });
        return {
          id: `t${i}`,
          name,
          arguments: JSON.stringify(args),
          argumentsValid: true,
          error: r.error,
          changed: r.changed,
          messageIndex: messages.length - 1,
        };
      });
      messages.push({ role: 'assistant', content: say });
      const v = verifyTrajectory({
        synthesis,
        tools: sql.domain.tools,
        task: task as NonNullable<typeof task>,
        final: episode,
        messages,
        toolCalls,
        termination: 'user_stop',
      });
      episode.close();
      return v;
    };
    const good = run(
      [['get_artist', { artist_id: artist }]],
      'Sorry, I cannot rename an artist with albums.',
    );
    expect({ score: good.score, stateMatch: good.stateMatch }).toEqual({ score: 1, stateMatch: true });
    const bad = run(
      [
        ['get_artist', { artist_id: artist }],
        ['rename_artist', { artist_id: artist, name: 'Renamed' }],
      ],
      'Done.',
    );
    expect(bad.score).toBeLessThan(1);
    expect(bad.stateMatch).toBe(false);
    base.close();
  });
});
