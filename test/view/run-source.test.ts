import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonlSource } from '../../src/view/run-source.js';

const dir = mkdtempSync(join(tmpdir(), 'cove-view-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const line = (id: string, score: number) =>
  JSON.stringify({
    id,
    task_id: `task-${id}`,
    task_index: 0,
    messages: [
      { role: 'assistant', content: 'Hi! How can I help you today?' },
      { role: 'user', content: `about ${id}` },
    ],
    tools: [],
    termination_reason: 'user_stop',
    verification: {
      score,
      stateMatch: score === 1,
      tau2Reward: score,
      constraints: [],
      redundant: [],
      terminationOk: true,
    },
    usage: { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 },
    leaks: 0,
    invalid_tool_arguments: 0,
    unknown_tool_calls: 0,
  });

describe('a trajectories file that changes while it is viewed', () => {
  it('is indexed again when appended to or rewritten, and says what it lacks when given alone', async () => {
    const file = join(dir, 'trajectories.jsonl');
    writeFileSync(file, `${line('a', 1)}\n`);
    const source = new JsonlSource(file);
    await source.ready();
    expect(source.facts().map((f) => f.id)).toEqual(['a']);
    expect(source.notes.join(' ')).toMatch(/given alone/);
    expect((await source.episode(0)).stateDiff).toEqual({
      available: false,
      reason: 'tasks not given (pass the run folder)',
    });
    appendFileSync(file, `${line('b', 0)}\n`);
    await source.ready();
    expect(source.facts().map((f) => f.id)).toEqual(['a', 'b']);
    expect([...(await source.search('ABOUT B'))]).toEqual([1]);
    // a finished run rewrites the file atomically, in another order
    writeFileSync(`${file}.tmp`, `${line('b', 0)}\n${line('a', 1)}\n${line('c', 1)}\n`);
    renameSync(`${file}.tmp`, file);
    await source.ready();
    expect(source.facts().map((f) => [f.id, f.line])).toEqual([
      ['b', 0],
      ['a', 1],
      ['c', 2],
    ]);
    expect([...(await source.search('about b'))]).toEqual([0]);
    expect((await source.episode(2)).messages?.[1]?.content).toBe('about c');
  });
});
