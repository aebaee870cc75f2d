import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexJsonl } from '../../src/view/jsonl-index.js';
import { buildIndex, lineStartAt } from '../../src/view/parallel-index.js';

// A large file is split into byte ranges indexed by worker threads; the index must be the one a single pass
// gives, line for line. Here the split is forced on a small file whose lines are known by hand.

const dir = mkdtempSync(join(tmpdir(), 'cove-view-parallel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (id: string, score: number, failure?: string) =>
  JSON.stringify({
    id,
    task_id: `task-${id}`,
    task_index: 0,
    messages: [
      { role: 'assistant', content: 'Hi! How can I help you today?' },
      { role: 'user', content: `about ${id}` },
      { role: 'tool', tool_call_id: 'c', name: 'x', content: 'ok' },
    ],
    tools: [],
    termination_reason: 'user_stop',
    verification: { score, stateMatch: score === 1, constraints: [], redundant: [] },
    leaks: 0,
    invalid_tool_arguments: 0,
    unknown_tool_calls: 0,
    ...(failure === undefined ? {} : { failure }),
  });

// 12 lines: records r0..r9 at lines 0-6 and 8-10 (line 7 blank, line 3 not JSON), line 11 repeats r1 (it
// supersedes line 1) and has no final newline
const lines: string[] = [];
for (let i = 0; i < 11; i++) {
  if (i === 3) lines.push('{"id": broken');
  else if (i === 7) lines.push('');
  else lines.push(record(`r${i}`, i % 2 === 0 ? 1 : 0, i % 2 === 0 ? undefined : 'wrong_write'));
}
lines.push(record('r1', 1));
const file = join(dir, 'trajectories.jsonl');
writeFileSync(file, lines.join('\n'));
const starts = [0];
for (const l of lines) starts.push((starts.at(-1) as number) + Buffer.byteLength(l) + 1);

describe('buildIndex over byte ranges in worker threads', () => {
  it('finds line starts from any byte', () => {
    expect(lineStartAt(file, 0)).toBe(0);
    expect(lineStartAt(file, 1)).toBe(starts[1]);
    expect(lineStartAt(file, starts[1] as number)).toBe(starts[1]);
    expect(lineStartAt(file, (starts[1] as number) + 1)).toBe(starts[2]);
  });

  it('gives the index of a single pass, renumbering each range’s lines, and keeps a prefix while it builds', async () => {
    const prefixes: { lines: number; episodes: number; first: string[] }[] = [];
    const index = await buildIndex(file, [], {
      workers: 3,
      minParallelBytes: 0,
      headBytes: 1, // the head is line 0; three workers share lines 1-11
      onProgress: (_bytes, builder) => {
        const part = builder.snapshot();
        prefixes.push({
          lines: builder.lines,
          episodes: part.facts.length,
          first: part.facts.map((f) => `${f.id}@${f.line}`),
        });
      },
    });
    // by hand: 12 lines, malformed line 3, blank line 7, r1 of line 1 superseded by line 11
    expect(index.spans.count).toBe(12);
    expect(index.malformed.map((m) => m.line)).toEqual([3]);
    expect(index.blank).toBe(1);
    expect(index.superseded).toBe(1);
    expect(index.bytes).toBe((starts[12] as number) - 1);
    expect(index.facts.map((f) => `${f.id}@${f.line}`)).toEqual([
      'r0@0',
      'r2@2',
      'r4@4',
      'r5@5',
      'r6@6',
      'r8@8',
      'r9@9',
      'r10@10',
      'r1@11',
    ]);
    expect(index.facts.map((f) => f.failure)).toEqual([
      null,
      null,
      null,
      'wrong_write',
      null,
      null,
      'wrong_write',
      null,
      null,
    ]);
    for (let i = 0; i < 12; i++) {
      expect(index.spans.get(i).offset).toBe(starts[i]);
      expect(index.spans.get(i).length).toBe(Buffer.byteLength(lines[i] as string));
    }
    const one = await indexJsonl(file, []);
    expect(index.facts).toEqual(one.facts);
    expect(index.malformed).toEqual(one.malformed);
    expect([...index.spans.arrays().offsets]).toEqual([...one.spans.arrays().offsets]);
    expect([...index.spans.arrays().ints]).toEqual([...one.spans.arrays().ints]);
    // every part seen while building was a prefix of the file: lines grew, and line 0's record came first
    expect(prefixes.length).toBeGreaterThan(1);
    for (let k = 1; k < prefixes.length; k++)
      expect((prefixes[k] as { lines: number }).lines).toBeGreaterThanOrEqual(
        (prefixes[k - 1] as { lines: number }).lines,
      );
    // (a worker may report before the head is in: nothing is appended then)
    expect(prefixes.find((p) => p.lines > 0)?.first).toEqual(['r0@0']);
    expect(prefixes.at(-1)?.lines).toBe(12);
  });
});
