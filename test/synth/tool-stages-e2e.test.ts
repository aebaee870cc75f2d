import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockScript } from '../../src/server/mock-llm/app.js';
import { runCove } from '../helpers/cli.js';
import { type MockLlmProcess, spawnCove, startMockLlm } from '../helpers/llm-mock-process.js';
import { CHINOOK, chinookScript, NORTHWIND, northwindScript } from '../helpers/synth-scripts.js';

// `cove synth tools --db … --model …` over real sockets: cove mock-llm (script mode) plays every stage.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cove-stages-e2e-'));
  // prices per million tokens: cost = (prompt * 3 + completion * 15) / 1e6
  writeFileSync(
    join(dir, 'cove.json'),
    JSON.stringify({ prices: { mock: { prompt_per_mtok: 3, completion_per_mtok: 15 } } }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function mock(name: string, script: MockScript, extra: string[] = []): Promise<MockLlmProcess> {
  const file = join(dir, `${name}-script.json`);
  writeFileSync(file, JSON.stringify(script));
  return startMockLlm(['--mode', 'script', '--script', file, ...extra]);
}

function synthArgs(db: string, name: string, baseUrl: string, out: string): string[] {
  return [
    'synth',
    'tools',
    '--db',
    db,
    '--name',
    name,
    '--model',
    'openai:mock',
    '--base-url',
    baseUrl,
    '--config',
    join(dir, 'cove.json'),
    '--out',
    out,
    '--quiet',
  ];
}

const summaryOf = (work: string, stage: string) =>
  JSON.parse(readFileSync(join(work, `${stage}.summary.json`), 'utf8')) as {
    records: number;
    counts: Record<string, number>;
    usage: { calls: number; prompt_tokens: number; completion_tokens: number; cost_usd: number };
    interrupted_usage: { calls: number };
    model: { name: string };
  };

const records = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { id: string; name?: string });

describe.each([
  {
    name: 'chinook',
    db: CHINOOK,
    script: chinookScript,
    tools: ['search_albums', 'get_album_tracks', 'update_track_price', 'get_track'],
    // requests per stage, counted from the script: tools 1 + 2 (a retry), schemas one per tool, sql: search_albums
    // 2 (a repair), get_artist 3 (two repairs, then dropped), the other three 1 each
    calls: { questions: 1, tools: 3, expand: 1, schemas: 5, sql: 8 },
    counts: {
      tools: { json_retries: 1 },
      expand: { added: 2, duplicate_names: 1, trivial_dropped: 1 },
      sql: { dropped: 1, repaired: 1, repairs: 3, validated: 4 },
    },
  },
  {
    name: 'northwind',
    db: NORTHWIND,
    script: northwindScript,
    tools: ['search_products', 'update_product_stock', 'get_supplier'],
    calls: { questions: 2, tools: 2, expand: 1, schemas: 3, sql: 4 },
    counts: {
      questions: { json_retries: 1 },
      expand: { added: 1, duplicate_names: 2 },
      sql: { repaired: 1, repairs: 1, validated: 3 },
    },
  },
])('cove synth tools --model on $name', ({ name, db, script, tools, calls, counts }) => {
  it('runs questions → tools → expand → schemas → sql, writes a spec that cove tasks uses', async () => {
    const server = await mock(name, script);
    try {
      const out = join(dir, name, 'spec.json');
      const r = runCove(synthArgs(db, name, server.baseUrl, out));
      expect(r.stderr).toContain(`wrote ${out}`);
      expect(r.status).toBe(0);
      const spec = JSON.parse(readFileSync(out, 'utf8'));
      expect(spec.name).toBe(name);
      expect(spec.tools.map((t: { name: string }) => t.name)).toEqual(tools);
      const stats = await server.stats();
      expect(stats.byRole).toEqual(calls);
      const work = join(dir, name, 'spec.stages');
      for (const [stage, n] of Object.entries(calls)) {
        const s = summaryOf(work, stage);
        expect(s.usage.calls).toBe(n);
        expect(s.model.name).toBe('openai:mock');
        expect(s.usage.prompt_tokens).toBeGreaterThan(0);
        expect(s.usage.cost_usd).toBeCloseTo(
          (s.usage.prompt_tokens * 3 + s.usage.completion_tokens * 15) / 1e6,
          9,
        );
        expect(s.counts).toEqual((counts as Record<string, Record<string, number>>)[stage] ?? {});
      }
      expect(summaryOf(work, 'sql').records).toBe(tools.length);
      if (name === 'chinook') {
        // get_artist: DROP TABLE refused, then SELECT * with the table's own column names, then the same again
        const notes = (
          JSON.parse(readFileSync(join(work, 'sql.summary.json'), 'utf8')) as { notes: string[] }
        ).notes;
        expect(notes).toEqual([
          'sql chinook: get_artist dropped after 2 repair(s): the last statement returns the columns ["ArtistId","Name"] but the output schema has the properties ["artist_id","name"]; select exactly those (alias with AS)',
        ]);
      }
      // the spec is an ordinary spec: cove tasks makes verified tasks on it (ids kept: the scripted toolsets have
      // no search for every table, so not every row can be described)
      const tasksFile = join(dir, name, 'tasks.json');
      const t = runCove(
        [
          'tasks',
          '--domain-spec',
          out,
          '--n',
          '3',
          '--fuzz',
          '0',
          '--difficulty',
          'easy',
          '--out',
          tasksFile,
        ],
        { timeoutMs: 600_000 },
      );
      expect(t.stderr).not.toMatch(/error/i);
      expect(t.status).toBe(0);
      expect(JSON.parse(readFileSync(tasksFile, 'utf8'))).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});

describe('a pipeline killed in the middle of a stage', () => {
  it('resumes: the same bytes as a run without a kill, no record lost or duplicated, no call made twice', async () => {
    const server = await mock('resume', chinookScript, ['--latency-ms', '150']);
    try {
      const clean = join(dir, 'clean', 'spec.json');
      expect(
        runCove([...synthArgs(CHINOOK, 'chinook', server.baseUrl, clean), '--concurrency', '1']).status,
      ).toBe(0);
      const before = await server.stats();

      const out = join(dir, 'killed', 'spec.json');
      const progress = join(dir, 'killed', 'spec.stages', 'sql.jsonl.progress');
      const child = spawnCove([...synthArgs(CHINOOK, 'chinook', server.baseUrl, out), '--concurrency', '1']);
      for (let i = 0; i < 1200; i++) {
        // a unit of sql finished (a progress line per unit; the lines of single calls do not count)
        if (existsSync(progress) && readFileSync(progress, 'utf8').includes('"unit"')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      child.signal('SIGKILL');
      const killed = await child.result;
      expect(killed.signal).toBe('SIGKILL');
      expect(existsSync(out)).toBe(false);
      const mid = await server.stats();

      const r = runCove([...synthArgs(CHINOOK, 'chinook', server.baseUrl, out), '--concurrency', '1']);
      expect(r.status).toBe(0);
      const after = await server.stats();
      const work = (f: string) => join(f, '..', 'spec.stages');
      for (const stage of ['questions', 'tools', 'expand', 'schemas', 'sql']) {
        const a = join(work(clean), `${stage}.jsonl`);
        const b = join(work(out), `${stage}.jsonl`);
        expect(readFileSync(b, 'utf8'), stage).toBe(readFileSync(a, 'utf8'));
        const ids = records(b).map((x) => x.id);
        expect(new Set(ids).size).toBe(ids.length);
        // usage is counted once per finished unit, over both invocations, plus the calls of a unit cut short
        const resumed = summaryOf(work(out), stage);
        expect(resumed.usage.calls - resumed.interrupted_usage.calls).toBe(
          summaryOf(work(clean), stage).usage.calls,
        );
        if (stage !== 'sql') expect(resumed.interrupted_usage.calls, stage).toBe(0);
      }
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(clean, 'utf8'));
      // the resumed run asked nothing of the stages that had finished
      for (const stage of ['questions', 'tools', 'expand', 'schemas'])
        expect((after.byRole[stage] ?? 0) - (mid.byRole[stage] ?? 0), stage).toBe(0);
      // and the killed + resumed runs made at most one sql call more than a clean run (the unit in flight)
      const sqlCalls = (after.byRole.sql ?? 0) - (before.byRole.sql ?? 0);
      expect(sqlCalls).toBeGreaterThanOrEqual(8);
      expect(sqlCalls).toBeLessThanOrEqual(8 + 3);
    } finally {
      await server.close();
    }
  });
});
