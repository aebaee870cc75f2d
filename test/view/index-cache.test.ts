import { appendFileSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentStamp, readIndexSidecar, writeIndexSidecar } from '../../src/view/index-cache.js';
import { indexJsonl } from '../../src/view/jsonl-index.js';
import { overview } from '../../src/view/overview.js';
import { JsonlSource } from '../../src/view/run-source.js';

const dir = mkdtempSync(join(tmpdir(), 'cove-view-sidecar-'));
const cache = join(dir, 'cache');
const saved = { dir: process.env.COVE_CACHE_DIR, off: process.env.COVE_NO_CACHE };
beforeAll(() => {
  // the suite turns caches off (vitest.config.ts); this file tests the viewer's
  process.env.COVE_CACHE_DIR = cache;
  delete process.env.COVE_NO_CACHE;
});
afterAll(() => {
  if (saved.dir === undefined) delete process.env.COVE_CACHE_DIR;
  else process.env.COVE_CACHE_DIR = saved.dir;
  if (saved.off !== undefined) process.env.COVE_NO_CACHE = saved.off;
  rmSync(dir, { recursive: true, force: true });
});

const record = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    task_id: `task-${id}`,
    task_index: 0,
    domain: 'retail',
    trial: 1,
    agent: 'openai:m',
    user: 'scripted',
    messages: [
      { role: 'assistant', content: 'Hi! How can I help you today?' },
      { role: 'user', content: `about ${id}` },
      { role: 'tool', tool_call_id: 'c', name: 'x', content: 'ok' },
    ],
    tools: [],
    termination_reason: 'user_stop',
    verification: {
      score: 0.5,
      stateMatch: false,
      constraints: [
        { id: 'c1', kind: 'refusal', satisfied: true },
        { id: 'c2', kind: 'cancel_pending_order', satisfied: false },
      ],
      redundant: [{ call: 1 }],
    },
    usage: { prompt_tokens: 7, completion_tokens: 3, cost_usd: 0.125, retries: 1 },
    leaks: 0,
    invalid_tool_arguments: 0,
    unknown_tool_calls: 0,
    ...extra,
  });

/** Waits (up to 30 s, for a busy machine) for the sidecar written just after a source's first index (setImmediate). */
async function sidecars(): Promise<string[]> {
  for (let i = 0; i < 1500; i++) {
    const files = (() => {
      try {
        return readdirSync(join(cache, 'view')).filter((f) => f.endsWith('.idx'));
      } catch {
        return [];
      }
    })();
    if (files.length > 0) return files;
    await new Promise((r) => setTimeout(r, 20));
  }
  return [];
}

describe('the index sidecar of a trajectories file', () => {
  it('gives back the index it stored: spans, facts (nulls too), malformed and superseded lines', async () => {
    const file = join(dir, 'a.jsonl');
    const graded = record('c', { verification: undefined, evaluation: { reward: 1 }, failure: 'gave_up' });
    writeFileSync(file, `${record('a')}\n{"id": broken\n\n${record('b')}\n${record('a')}\n${graded}\n`);
    const index = await indexJsonl(file, []);
    const stamp = contentStamp(file, undefined) as string;
    writeIndexSidecar(stamp, index);
    const back = readIndexSidecar(stamp);
    expect(back).toBeDefined();
    if (back === undefined) return;
    // hand-read from the file: 6 lines, line 1 not JSON, line 2 blank, line 4 supersedes line 0
    expect(back.spans.count).toBe(6);
    expect(back.malformed.map((m) => m.line)).toEqual([1]);
    expect([back.superseded, back.blank]).toEqual([1, 1]);
    expect(back.facts.map((f) => [f.id, f.line])).toEqual([
      ['b', 3],
      ['a', 4],
      ['c', 5],
    ]);
    const a = back.facts[1];
    expect(a).toMatchObject({
      taskIndex: 0,
      trial: 1,
      score: 0.5,
      stateMatch: false,
      reward: null,
      sft: false,
      k: 2,
      kinds: ['refusal', 'cancel_pending_order'],
      difficulty: null,
      userTurns: 1,
      messages: 3,
      toolCalls: 1,
      redundant: 1,
      promptTokens: 7,
      costUsd: 0.125,
      retries: 1,
      failure: null,
    });
    expect(back.facts[2]).toMatchObject({
      score: null,
      stateMatch: null,
      reward: 1,
      sft: true,
      failure: 'gave_up',
    });
    expect(back.facts).toEqual(index.facts);
    // the overview is stored with it: 3 episodes, 1 malformed line, 1 superseded, 1 kept for SFT ('c')
    expect(back.overview).toEqual(overview(index.facts, 1, 1));
    expect(back.overview).toMatchObject({ episodes: 3, malformed: 1, superseded: 1, sft: 1 });
    for (let i = 0; i < 6; i++) expect(back.spans.get(i)).toEqual(index.spans.get(i));
  });

  it('is not used once the file changes, nor when damaged', async () => {
    const file = join(dir, 'b.jsonl');
    writeFileSync(file, `${record('a')}\n`);
    const first = contentStamp(file, undefined);
    appendFileSync(file, `${record('b')}\n`);
    expect(contentStamp(file, undefined)).not.toBe(first);
    // same size, other bytes
    writeFileSync(file, `${record('x')}\n${record('y')}\n`);
    const second = contentStamp(file, undefined) as string;
    expect(second).not.toBe(first);
    writeIndexSidecar(second, await indexJsonl(file, []));
    expect(await sidecars()).toContain(`${second}.idx`);
    truncateSync(join(cache, 'view', `${second}.idx`), 100);
    expect(readIndexSidecar(second)).toBeUndefined();
  });

  it('is what a second open of the same file reads, and a stale or damaged one is indexed again', async () => {
    rmSync(cache, { recursive: true, force: true });
    const file = join(dir, 'c.jsonl');
    writeFileSync(file, `${record('a')}\n${record('b')}\n`);
    const one = new JsonlSource(file);
    await one.ready();
    const [name] = await sidecars();
    expect(name).toBeDefined();
    // plant a recognisable index under the stamp: a second source must show it instead of reading the file
    const stamp = contentStamp(file, undefined) as string;
    expect(name).toBe(`${stamp}.idx`);
    const planted = await indexJsonl(file, []);
    planted.facts.pop();
    writeIndexSidecar(stamp, planted);
    const two = new JsonlSource(file);
    await two.ready();
    expect(two.facts().map((f) => f.id)).toEqual(['a']);
    expect((await two.episode(1)).line).toBe(1);
    // damaged: read from the file again
    truncateSync(join(cache, 'view', `${stamp}.idx`), 40);
    const three = new JsonlSource(file);
    await three.ready();
    expect(three.facts().map((f) => f.id)).toEqual(['a', 'b']);
    // the file changes: its new sidecar replaces the old one (one per file)
    appendFileSync(file, `${record('c')}\n`);
    await three.ready();
    expect(three.facts().map((f) => f.id)).toEqual(['a', 'b', 'c']);
    const newStamp = contentStamp(file, undefined) as string;
    for (let i = 0; i < 1500 && (await sidecars()).join() !== `${newStamp}.idx`; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await sidecars()).toEqual([`${newStamp}.idx`]);
  });
});
