import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ExportOptions, runExport } from '../../src/export/export.js';
import { assignSplits, parseSplit } from '../../src/export/split.js';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import { COVE_VERSION } from '../../src/version.js';
import { runCove } from '../helpers/cli.js';
import { readJsonl, readRecords } from '../helpers/run-files.js';
import { exportRun, makeRun, tempDir } from './helpers.js';

describe('--split', () => {
  it('parses shares and refuses bad ones', () => {
    expect(parseSplit('train=0.95,test=0.05')).toEqual([
      { name: 'train', fraction: 0.95 },
      { name: 'test', fraction: 0.05 },
    ]);
    expect(() => parseSplit('train=0.9,test=0.2')).toThrow(/add up to 1.1/);
    expect(() => parseSplit('train=0.5,train=0.5')).toThrow(/appears twice/);
    expect(() => parseSplit('train')).toThrow(/'train' is not NAME=SHARE/);
    expect(() => parseSplit('data=1')).toThrow(/'data'/);
  });

  it('cuts whole tasks by largest remainder (hand-computed sizes)', () => {
    const keys = Array.from({ length: 10 }, (_, i) => `t${i}`);
    // 9.5 and 0.5: floors 9 and 0, the one left goes to the earlier of two equal remainders
    const a = assignSplits(keys, parseSplit('train=0.95,test=0.05'), 1);
    expect([...a.values()].filter((s) => s === 'train').length).toBe(10);
    // 3.5, 2.1, 1.4 of 7: floors 3, 2, 1, the one left to the largest remainder (0.5, train)
    const b = assignSplits(keys.slice(0, 7), parseSplit('train=0.5,dev=0.3,test=0.2'), 1);
    const count = (s: string) => [...b.values()].filter((x) => x === s).length;
    expect([count('train'), count('dev'), count('test')]).toEqual([4, 2, 1]);
  });

  it('depends on the seed and the set of tasks only, not their order', () => {
    const keys = Array.from({ length: 50 }, (_, i) => `retail/t${i}`);
    const specs = parseSplit('train=0.8,test=0.2');
    const one = assignSplits(keys, specs, 7);
    expect(assignSplits([...keys].reverse(), specs, 7)).toEqual(one);
    const test = (m: Map<string, string>) =>
      [...m]
        .filter(([, s]) => s === 'test')
        .map(([k]) => k)
        .sort();
    expect(test(one).length).toBe(10);
    expect(test(assignSplits(keys, specs, 8))).not.toEqual(test(one));
  });
});

describe('selection and splits on a real run (cove export CLI)', () => {
  let run: string;
  let records: TrajectoryRecord[];
  let file: string;

  beforeAll(async () => {
    run = await makeRun(12, 11);
    records = readRecords(run).sort((a, b) => a.task_index - b.task_index);
    // a trajectories file edited by hand: one record per reason to leave it out, one superseded line, a torn end
    const edit = (i: number, patch: (r: TrajectoryRecord) => object) => ({
      ...(records[i] as TrajectoryRecord),
      ...patch(records[i] as TrajectoryRecord),
    });
    const v = (r: TrajectoryRecord, x: object) => ({ verification: { ...r.verification, ...x } });
    const lines = [
      edit(0, (r) => v(r, { score: 0.5 })),
      edit(1, (r) => v(r, { stateMatch: false })),
      edit(2, () => ({ leaks: 1 })),
      edit(3, (r) => ({ ...v(r, { score: 0 }), evaluation: { evaluator: 'tau2', reward: 1, report: {} } })),
      edit(4, () => ({ evaluation: { evaluator: 'tau2', reward: 0, report: {} } })),
      edit(5, () => ({ termination_reason: 'infrastructure_error' })),
      edit(6, (r) => v(r, { score: 0 })),
      ...records.slice(6),
    ];
    file = join(tempDir(), 'trajectories.jsonl');
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"id": "torn`);
  });

  const rowsOf = (out: string, name = 'data.jsonl') => readJsonl<{ messages: unknown[] }>(join(out, name));
  /** The export in this process (the same code the CLI runs), for the cases that need no flag parsing. */
  const exportHere = (o: Partial<ExportOptions> & Pick<ExportOptions, 'input'>) => {
    const out = join(tempDir(), 'in-process');
    return runExport({
      format: 'openai',
      out,
      select: { minScore: 1, stateMatch: true },
      seed: 1,
      force: false,
      tau2: {},
      coveVersion: 'test',
      ...o,
    }).then((r) => ({ ...r, out }));
  };

  it("keeps what sft.jsonl would (τ²'s reward for τ²-evaluated records), the latest line per id", () => {
    const out = join(tempDir(), 'hf');
    const said = exportRun(['--in', file, '--format', 'hf', '--out', out]);
    expect(said).toContain('7 of 12 trajectories selected');
    expect(rowsOf(out).length).toBe(7);
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    for (const line of [
      '| infrastructure_error | 1 |',
      '| leak | 1 |',
      '| no_state_match | 1 |',
      '| score_below_min | 1 |',
      '| tau2_reward_below_min | 1 |',
      '1 damaged line(s) skipped',
    ]) {
      expect(card).toContain(line);
    }
  });

  it('--no-state-match and --min-score widen the selection; --domain narrows it', async () => {
    const a = join(tempDir(), 'a');
    expect(exportRun(['--in', file, '--format', 'openai', '--out', a, '--no-state-match'])).toContain(
      '8 of 12',
    );
    expect((await exportHere({ input: file, select: { minScore: 0.5, stateMatch: true } })).selected).toBe(8);
    const c = await exportHere({
      input: file,
      select: { minScore: 1, stateMatch: true, domains: ['airline'] },
    });
    expect(c.selected).toBe(0);
    expect(rowsOf(c.out).length).toBe(0);
  });

  it('never splits a task, same seed same bytes', async () => {
    // every task twice (two attempts), so a split by trajectory would tear tasks apart
    const twice = join(tempDir(), 'trajectories.jsonl');
    writeFileSync(
      twice,
      records
        .flatMap((r) => [r, { ...r, id: `${r.id}-b`, attempt: 1 }])
        .map((r) => `${JSON.stringify(r)}\n`)
        .join(''),
    );
    const one = join(tempDir(), 'split');
    exportRun([
      '--in',
      twice,
      '--format',
      'hf',
      '--out',
      one,
      '--split',
      'train=0.75,test=0.25',
      '--seed',
      '1',
    ]);
    const here = (seed: number) =>
      exportHere({
        input: twice,
        format: 'hf',
        splits: parseSplit('train=0.75,test=0.25'),
        seed,
        coveVersion: COVE_VERSION,
      });
    const again = (await here(1)).out;
    const other = (await here(2)).out;
    expect(rowsOf(one, 'train.jsonl').length).toBe(18);
    expect(rowsOf(one, 'test.jsonl').length).toBe(6);
    const tasksIn = (out: string, name: string) =>
      new Set(
        rowsOf(out, name).map((r) =>
          JSON.stringify((r.messages as { role: string; content: string }[]).find((m) => m.role === 'user')),
        ),
      );
    const train = tasksIn(one, 'train.jsonl');
    const test = tasksIn(one, 'test.jsonl');
    expect([train.size, test.size]).toEqual([9, 3]);
    expect([...test].some((t) => train.has(t))).toBe(false);
    for (const name of ['train.jsonl', 'test.jsonl', 'README.md']) {
      expect(readFileSync(join(again, name), 'utf8')).toBe(readFileSync(join(one, name), 'utf8'));
    }
    expect(readFileSync(join(other, 'test.jsonl'), 'utf8')).not.toBe(
      readFileSync(join(one, 'test.jsonl'), 'utf8'),
    );
  });

  it('refuses a non-empty --out unless --force, and bad flags, with exit code 2', async () => {
    const out = join(tempDir(), 'o');
    exportRun(['--in', run, '--format', 'hf', '--out', out]);
    const again = runCove(['export', '--in', run, '--format', 'hf', '--out', out]);
    expect([again.status, again.stderr]).toEqual([2, expect.stringContaining('is not empty')]);
    expect(exportRun(['--in', run, '--format', 'hf', '--out', out, '--force'])).toContain('12 of 12');
    const bad = runCove([
      'export',
      '--in',
      run,
      '--out',
      join(tempDir(), 'x'),
      '--format',
      'hf',
      '--min-score',
      '2',
    ]);
    expect([bad.status, bad.stderr]).toEqual([
      2,
      expect.stringContaining('--min-score must be a number in [0, 1]'),
    ]);
    await expect(exportHere({ input: join(tempDir(), 'nothing') })).rejects.toThrow(/does not exist/);
  });

  it('names the file, line and field of a malformed record', () => {
    const bad = join(tempDir(), 'trajectories.jsonl');
    const broken = { ...(records[0] as TrajectoryRecord), verification: 'not a verdict' };
    writeFileSync(bad, `${JSON.stringify(records[1])}\n${JSON.stringify(broken)}\n`);
    const out = join(tempDir(), 'z');
    const r = runCove(['export', '--in', bad, '--format', 'hf', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${bad}: line 2: $.verification:`);
    expect(existsSync(out)).toBe(false); // nothing half-written is left behind
  });
});
