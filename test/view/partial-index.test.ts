import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createViewApp } from '../../src/view/app.js';
import { loadPageAssets } from '../../src/view/assets.js';
import type { TaskFacts } from '../../src/view/facts.js';
import { IndexBuilder, type JsonlIndex } from '../../src/view/jsonl-index.js';
import type { BuildIndexOptions } from '../../src/view/parallel-index.js';
import { type IndexSegment, indexRange } from '../../src/view/range-index.js';
import { JsonlSource } from '../../src/view/run-source.js';

// A large run is answered from the part of its file indexed so far, and says so. Here the index of a small
// file is built in three steps the test releases one by one, and every count is known by hand from the lines.

const dir = mkdtempSync(join(tmpdir(), 'cove-view-partial-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (id: string, score: number, failure?: string) =>
  JSON.stringify({
    id,
    task_id: `task-${id}`,
    task_index: 0,
    domain: 'retail',
    messages: [
      { role: 'assistant', content: 'Hi! How can I help you today?' },
      { role: 'user', content: `about ${id}` },
    ],
    tools: [],
    termination_reason: 'user_stop',
    verification: { score, stateMatch: score === 1, constraints: [], redundant: [] },
    usage: { prompt_tokens: 1, completion_tokens: 1, cost_usd: 0 },
    leaks: 0,
    invalid_tool_arguments: 0,
    unknown_tool_calls: 0,
    ...(failure === undefined ? {} : { failure }),
  });

// line 0: a passes · 1: b fails (wrong_write) · 2: not JSON · 3: c passes · 4: d fails (max_steps) · 5: b again,
// passing (supersedes line 1)
const lines = [
  record('a', 1),
  record('b', 0.5, 'wrong_write'),
  'not json',
  record('c', 1),
  record('d', 0, 'max_steps'),
  record('b', 1),
];
const file = join(dir, 'trajectories.jsonl');
writeFileSync(file, `${lines.join('\n')}\n`);
/** Byte offset of the start of each line, and the file's size. */
const starts = [0];
for (const l of lines) starts.push((starts.at(-1) as number) + Buffer.byteLength(l) + 1);
/** The steps: lines 0–1, 2–3, 4–5. */
const STEPS = [0, 2, 4, 6];

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** An index builder that appends the lines of each step once the test lets it (`go[k]`), then says so (`reached[k]`). */
function stepped() {
  const go = [deferred(), deferred(), deferred()];
  const reached = [deferred(), deferred(), deferred()];
  const build = async (
    path: string,
    tasks: readonly (TaskFacts | undefined)[],
    options: BuildIndexOptions = {},
  ): Promise<JsonlIndex> => {
    const builder = new IndexBuilder();
    for (let k = 0; k < 3; k++) {
      await go[k]?.promise;
      const segments: IndexSegment[] = [];
      await indexRange(path, tasks, {
        start: starts[STEPS[k] as number] as number,
        end: starts[STEPS[k + 1] as number] as number,
        firstLine: STEPS[k] as number,
        onSegment: (s) => segments.push(s),
      });
      for (const s of segments) builder.append(s);
      options.onProgress?.(builder.covered, builder);
      reached[k]?.resolve();
    }
    return builder.finish();
  };
  return { go, reached, build };
}

interface Answer {
  episodes: number;
  passed: number;
  malformed: number;
  superseded: number;
  failure: { label: string; total: number }[];
  coverage: { complete: boolean; bytes: number; bytesTotal: number; lines: number };
}
interface Page {
  total: number;
  coverage: Answer['coverage'];
  rows: { id: string; line: number }[];
}

describe('a run answered while its index is being built', () => {
  it('answers from the part indexed so far, marked partial, then complete with the full counts', {
    timeout: 20_000,
  }, async () => {
    const steps = stepped();
    const source = new JsonlSource(file, { buildIndex: steps.build });
    const app = createViewApp({ sources: [source], assets: loadPageAssets(), allowedHosts: [] });
    const get = async <T>(path: string) => (await app.request(path)).json() as Promise<T>;
    const settled: Record<string, boolean> = {};
    const track = <T>(name: string, p: Promise<T>) => p.finally(() => (settled[name] = true));
    // asked before anything is indexed: each waits for what it needs
    const waited = track('wait', get<Answer>('/api/overview?src=0&wait=1'));
    const searched = track('search', get<Page>('/api/episodes?src=0&q=about'));
    const episode = track('episode', get<{ facts: { id: string } }>('/api/episode?src=0&line=4'));
    const first = track('overview', get<Answer>('/api/overview?src=0'));
    await new Promise((r) => setImmediate(r));
    expect(settled).toEqual({});

    steps.go[0]?.resolve();
    await steps.reached[0]?.promise;
    const o1 = await first;
    // lines 0–1: a passed, b failed
    expect([o1.episodes, o1.passed, o1.malformed, o1.superseded]).toEqual([2, 1, 0, 0]);
    expect(o1.failure).toEqual([{ label: 'wrong_write', total: 1, filter: { failure: 'wrong_write' } }]);
    expect(o1.coverage).toEqual({ complete: false, bytes: starts[2], bytesTotal: starts[6], lines: 2 });
    // a page is answered once the part indexed holds it (offset + limit episodes), or the index is complete
    const p1 = await get<Page>('/api/episodes?src=0&limit=2');
    expect([p1.total, p1.coverage.complete, p1.rows.map((r) => r.id)]).toEqual([2, false, ['a', 'b']]);
    const f1 = await get<Page>('/api/episodes?src=0&failure=wrong_write&limit=1');
    expect([f1.total, f1.coverage.complete]).toEqual([1, false]);
    const later = track('later', get<Page>('/api/episodes?src=0&limit=3'));
    expect([settled.wait, settled.search, settled.episode]).toEqual([undefined, undefined, undefined]);

    steps.go[1]?.resolve();
    await steps.reached[1]?.promise;
    const o2 = await get<Answer>('/api/overview?src=0');
    // lines 0–3: a, b, c; line 2 is malformed
    expect([o2.episodes, o2.passed, o2.malformed, o2.coverage.complete, o2.coverage.lines]).toEqual([
      3,
      2,
      1,
      false,
      4,
    ]);
    const bad = await get<{ total: number; coverage: Answer['coverage'] }>(
      '/api/episodes?src=0&malformed=yes&limit=3',
    );
    expect([bad.total, bad.coverage.complete]).toEqual([1, false]);
    // the page of 3 asked when 2 episodes were in came once the third was
    const p2 = await later;
    expect([p2.total, p2.coverage.complete, p2.rows.map((r) => r.id)]).toEqual([3, false, ['a', 'b', 'c']]);
    expect([settled.wait, settled.search, settled.episode]).toEqual([undefined, undefined, undefined]);

    steps.go[2]?.resolve();
    await source.ready();
    // all lines: a, c, d and b (line 5 supersedes line 1); passed a, c, b; failures: max_steps only
    const done = await waited;
    expect([done.episodes, done.passed, done.malformed, done.superseded]).toEqual([4, 3, 1, 1]);
    expect(done.failure).toEqual([{ label: 'max_steps', total: 1, filter: { failure: 'max_steps' } }]);
    expect(done.coverage).toEqual({ complete: true, bytes: starts[6], bytesTotal: starts[6], lines: 6 });
    const all = await get<Page>('/api/episodes?src=0&limit=50');
    expect([all.total, all.coverage.complete, all.rows.map((r) => [r.id, r.line])]).toEqual([
      4,
      true,
      [
        ['a', 0],
        ['c', 3],
        ['d', 4],
        ['b', 5],
      ],
    ]);
    expect((await searched).total).toBe(4);
    expect((await searched).coverage.complete).toBe(true);
    expect((await episode).facts.id).toBe('d');
    const o3 = await get<Answer>('/api/overview?src=0');
    expect([o3.episodes, o3.coverage.complete]).toEqual([4, true]);
  });
});
