import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, InputFileError } from '../../src/core/errors.js';
import { openSource } from '../../src/view/open-source.js';
import { JsonlSource } from '../../src/view/run-source.js';
import { runCoveAsync } from '../helpers/cli.js';
import { startView, type ViewProcess } from '../helpers/view-process.js';
import { makeViewRuns, readSummary, type ViewRuns } from '../helpers/view-runs.js';

// `cove view` as a user runs it, over runs made by the real CLI in the test: 24 tasks played once by a faulty
// `cove mock-llm` (some episodes fail) and once by the oracle (all pass). Expected numbers come from the
// runs' own summary.json files, written by `cove generate`.

const N = 24;
let runs: ViewRuns;
let view: ViewProcess;

beforeAll(async () => {
  runs = await makeViewRuns(N, 'cove-view-server-');
  view = await startView([runs.model, runs.oracle]);
}, 240_000);

afterAll(async () => {
  await view?.close();
  runs?.remove();
});

interface OverviewJson {
  episodes: number;
  tasks: number;
  sft: number;
  passed: number;
  malformed: number;
  termination: { label: string; total: number }[];
  failure: { label: string; total: number }[];
  byDifficulty: { label: string; total: number; passed: number }[];
  usage: { promptTokens: number; completionTokens: number; retries: number };
}

describe('cove view over a run folder', () => {
  it('binds to loopback and prints its address', () => {
    expect(view.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves an overview whose counts are the run summary’s', async () => {
    const summary = readSummary(runs.model);
    const o = await view.json<OverviewJson>('/api/overview?src=0');
    expect(o.episodes).toBe(summary.episodes);
    expect(o.tasks).toBe(summary.tasks);
    expect(o.sft).toBe(summary.sft_trajectories);
    expect(o.passed).toBe(summary.sft_trajectories);
    expect(o.sft).toBeLessThan(N); // the faults made some episodes fail
    expect(o.malformed).toBe(0);
    expect(Object.fromEntries(o.termination.map((b) => [b.label, b.total]))).toEqual(
      summary.termination_reasons,
    );
    expect(Object.fromEntries(o.failure.map((b) => [b.label, b.total]))).toEqual(summary.failures);
    // one episode per task, so per-episode and per-task yields agree
    expect(
      Object.fromEntries(o.byDifficulty.map((b) => [b.label, { tasks: b.total, passed: b.passed }])),
    ).toEqual(
      Object.fromEntries(
        Object.entries(summary.yield_by_difficulty).map(([k, v]) => [
          k,
          { tasks: v.tasks, passed: v.passed },
        ]),
      ),
    );
    expect(o.usage.promptTokens).toBe(summary.usage.prompt_tokens);
    expect(o.usage.retries).toBe(summary.usage.retries);
  });

  it('filters, searches and pages the list', async () => {
    const summary = readSummary(runs.model);
    const [cause, count] = Object.entries(summary.failures)[0] as [string, number];
    const byCause = await view.json<{ total: number; rows: { failure: string }[] }>(
      `/api/episodes?src=0&failure=${cause}`,
    );
    expect(byCause.total).toBe(count);
    expect(byCause.rows.every((r) => r.failure === cause)).toBe(true);
    const kept = await view.json<{ total: number }>('/api/episodes?src=0&sft=yes');
    expect(kept.total).toBe(summary.sft_trajectories);
    const page = await view.json<{ total: number; rows: { line: number }[] }>(
      '/api/episodes?src=0&limit=5&offset=20',
    );
    expect(page.total).toBe(N);
    expect(page.rows.map((r) => r.line)).toEqual([20, 21, 22, 23]);
    // text search: every conversation has the fixed greeting; a made-up word none
    expect((await view.json<{ total: number }>('/api/episodes?src=0&q=HOW%20CAN%20I%20help')).total).toBe(N);
    expect((await view.json<{ total: number }>('/api/episodes?src=0&q=zyxwvut')).total).toBe(0);
  });

  it('recomputes every episode’s state diff in agreement with the verifier’s stateMatch', async () => {
    for (const dir of [runs.model, runs.oracle]) {
      const source = new JsonlSource(dir);
      await source.ready();
      const records = readFileSync(join(dir, 'trajectories.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { verification: { stateMatch: boolean } });
      for (const [line, r] of records.entries()) {
        const diff = await source.stateDiff(line);
        expect(diff.available, diff.notes.join('; ')).toBe(true);
        expect(diff.divergences).toEqual([]);
        expect(
          diff.entities.every((e) => e.match),
          `${dir} line ${line}`,
        ).toBe(r.verification.stateMatch);
      }
    }
  });

  it('compares two runs over the same tasks', async () => {
    const a = readSummary(runs.model);
    const c = await view.json<{ counts: Record<string, number>; total: number }>('/api/compare');
    // the oracle passes every task: tasks passed by the model run are "both", the others "only B"
    expect(c.counts).toEqual({
      both: a.sft_trajectories,
      only_a: 0,
      only_b: N - a.sft_trajectories,
      neither: 0,
      different: 0,
      missing: 0,
    });
  });

  it('serves only its page and API: no other file, no foreign Host, no framing or inline script', async () => {
    for (const path of [
      '/assets/..%2F..%2Fpackage.json',
      '/assets/%2e%2e%2fsource-hash.txt',
      '/package.json',
      '/src/view/app.ts',
      '/tasks.json',
    ]) {
      const res = await fetch(`${view.origin}${path}`);
      expect(res.status, path).toBe(404);
    }
    const page = await fetch(`${view.origin}/`);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    // fetch() may not set Host: a raw request, as a DNS-rebinding page's browser would send it
    const foreign = await new Promise<number>((done, fail) => {
      const req = request(`${view.origin}/api/sources`, { headers: { host: 'attacker.example' } }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.end();
    });
    expect(foreign).toBe(421);
  });
});

describe('cove view: user mistakes', () => {
  it('names a path that does not exist (exit 2), a folder that is not a run and a JSON file that is not τ² results', async () => {
    const missing = await runCoveAsync(['view', join(runs.root, 'nope')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/nope does not exist/);
    const empty = join(runs.root, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.txt'), 'x');
    expect(() => openSource(empty)).toThrow(ConfigError);
    expect(() => openSource(empty)).toThrow(/is not a run folder.*notes\.txt/);
    const json = join(runs.root, 'other.json');
    writeFileSync(json, '{"a": 1}');
    expect(() => openSource(json)).toThrow(InputFileError);
    expect(() => openSource(json)).toThrow(/other\.json: \$: not a τ² results file/);
  });
});
