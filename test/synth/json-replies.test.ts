import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contentId } from '../../src/synth/records.js';
import { normaliseResultSchema, returnsOf } from '../../src/synth/stages/schemas.js';
import { kindOf, listReply } from '../../src/synth/stages/tool-records.js';
import { cleanParameters, FunctionSpec } from '../../src/synth/stages/tools.js';
import { extractJson } from '../../src/synth/unit-context.js';

describe('reading model replies', () => {
  it('finds the JSON in a bare, fenced or prose-wrapped reply, and says why when there is none', () => {
    expect(extractJson('[1, 2]')).toEqual({ value: [1, 2] });
    expect(extractJson('Here:\n```json\n{"a": 1}\n```\nDone.')).toEqual({ value: { a: 1 } });
    expect(extractJson('Sure! {"sql": "SELECT 1"} Hope it helps.')).toEqual({ value: { sql: 'SELECT 1' } });
    expect(extractJson('')).toEqual({ error: 'the reply is empty' });
    expect(extractJson('1. first\n2. second')).toMatchObject({
      error: expect.stringMatching(/^the reply is not JSON/),
    });
  });

  it('takes a list wrapped in a one-key object, and a function spec bare or wrapped', () => {
    const list = listReply(z.array(z.string()));
    expect(list.parse({ questions: ['a', 'b'] })).toEqual(['a', 'b']);
    expect(list.parse(['c'])).toEqual(['c']);
    expect(list.safeParse({ a: ['x'], b: ['y'] }).success).toBe(false);
    const bare = {
      name: 'get_album',
      description: 'One album.',
      parameters: {
        type: 'object',
        properties: { album_id: { type: 'integer', description: 'id', minimum: 1 } },
      },
    };
    expect(FunctionSpec.parse({ type: 'function', function: bare })).toEqual(FunctionSpec.parse(bare));
    expect(cleanParameters(FunctionSpec.parse(bare).parameters)).toEqual({
      type: 'object',
      properties: { album_id: { type: 'integer', description: 'id' } },
      required: ['album_id'],
    });
    expect(FunctionSpec.safeParse({ ...bare, name: 'Get Album' }).success).toBe(false);
  });

  it('types results and tools', () => {
    const rows = { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } };
    expect(normaliseResultSchema(rows)).toEqual({
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    });
    expect([returnsOf(rows), returnsOf({ type: 'object' }), returnsOf({ type: 'integer' })]).toEqual([
      'rows',
      'row',
      'count',
    ]);
    expect(
      ['update_track_price', 'delete_playlist', 'get_track', 'search_albums', 'cancel_order'].map(kindOf),
    ).toEqual(['write', 'write', 'read', 'read', 'write']);
    // a content id does not depend on key order
    expect(contentId('t', { a: 1, b: [2] })).toBe(contentId('t', { b: [2], a: 1 }));
    expect(contentId('t', { a: 1 })).toMatch(/^t-[0-9a-f]{16}$/);
  });
});
