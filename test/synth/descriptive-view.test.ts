import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { readSchema } from '../../src/domains/sql/schema-info.js';
import { dataView } from '../../src/synth/descriptive/data-view.js';
import { readTaskReply, TaskReplyError } from '../../src/synth/descriptive/task-prompt.js';

/**
 * The task writer's limited view of a database, on Chinook: every shown row is a real row of its table (looked up
 * by its key), the same seed shows the same rows, and the row counts are Chinook's own (Album 347, Artist 275,
 * Track 3503, as its SQL dump inserts them).
 */

const CHINOOK = join(import.meta.dirname, '../../../shared/sql/chinook/Chinook_Sqlite.sqlite');

describe('limited data view', () => {
  const db = new Database(CHINOOK, { readonly: true });
  const tables = readSchema(db);

  it('shows each table with its row count and a few real rows, the same for the same seed', () => {
    const view = dataView(db, tables, new Rng(7), 3);
    expect(view).toContain(
      'Table Album (347 rows): AlbumId INTEGER key, Title NVARCHAR(160), ArtistId INTEGER → Artist.ArtistId',
    );
    expect(view).toContain('Table Artist (275 rows)');
    expect(view).toContain('Table Track (3503 rows)');
    expect(dataView(db, tables, new Rng(7), 3)).toBe(view);
    expect(dataView(db, tables, new Rng(8), 3)).not.toBe(view);
    const albums = view
      .split('\n')
      .slice(view.split('\n').findIndex((l) => l.startsWith('Table Album')) + 1)
      .filter((_, i, all) => i < all.findIndex((l) => l.startsWith('Table ')))
      .map((l) => JSON.parse(l.trim()) as { AlbumId: number; Title: string; ArtistId: number });
    expect(albums).toHaveLength(3);
    for (const a of albums) {
      expect(
        db.prepare('SELECT AlbumId, Title, ArtistId FROM Album WHERE AlbumId = ?').get(a.AlbumId),
      ).toEqual(a);
    }
  });

  it('shows no rows with 0 rows per table', () => {
    expect(dataView(db, tables, new Rng(1), 0).split('\n')).toHaveLength(tables.length);
  });
});

describe('task writer replies', () => {
  const goal = {
    description: 'Find the album Pop and tell me its artist.',
    difficulty: 'easy',
    rubric: ['The artist is told'],
  };

  it('reads a fenced reply with the goals asked for', () => {
    const r = readTaskReply(
      `\`\`\`json\n${JSON.stringify({ persona: 'Curt.', goals: [goal, goal] })}\n\`\`\``,
      2,
    );
    expect(r.goals).toHaveLength(2);
    expect(r.persona).toBe('Curt.');
  });

  it('refuses another number of goals, a bad difficulty or an empty rubric, naming the field', () => {
    expect(() => readTaskReply(JSON.stringify({ goals: [goal] }), 2)).toThrow(
      '$.goals: 1 goals, 2 asked for',
    );
    expect(() => readTaskReply(JSON.stringify({ goals: [{ ...goal, difficulty: 'trivial' }] }), 1)).toThrow(
      '$.goals[0].difficulty',
    );
    expect(() => readTaskReply(JSON.stringify({ goals: [{ ...goal, rubric: [] }] }), 1)).toThrow(
      TaskReplyError,
    );
    expect(() => readTaskReply('no tasks today', 1)).toThrow('not a JSON object');
  });
});
