import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import { keptForSft, type TrajectoryRecord } from '../../src/run/trajectory.js';
import { loadTrajectoryLog } from '../../src/run/trajectory-log.js';
import { runCoveAsync } from '../helpers/cli.js';
import { readJson, readJsonl, type SftRowView, stableRecords } from '../helpers/run-files.js';

const BIN = fileURLToPath(new URL('../../bin/cove.js', import.meta.url));
const N = 600;
const KILLS = 6;

const root = mkdtempSync(join(tmpdir(), 'cove-crash-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);

function args(dir: string): string[] {
  return ['generate', '--n', String(N), '--concurrency', '8', '--out', dir, '--quiet'];
}

interface Cycle {
  /** Whether SIGKILL ended the process (false: it finished before the kill). */
  readonly killed: boolean;
  /** The complete-line count at which the kill was sent. */
  readonly killAt: number;
  readonly linesBefore: number;
  readonly linesAfter: number;
  /** The file ended in the middle of a line after the kill. */
  readonly torn: boolean;
}

const completeLines = (file: string) =>
  existsSync(file) ? (readFileSync(file, 'utf8').match(/\n/g)?.length ?? 0) : 0;

/**
 * Starts `cove generate`, waits until trajectories.jsonl holds `killAt` complete lines (so the kill lands while
 * episodes are being written, whatever the machine's speed) and SIGKILLs it. The line count is the random
 * moment: a wall-clock delay would land after the end of the run on a fast machine.
 */
async function killDuringEpisodes(dir: string, killAt: number): Promise<Cycle> {
  const log = join(dir, 'trajectories.jsonl');
  const linesBefore = completeLines(log);
  const startSize = sizeOf(log);
  const child = spawn(process.execPath, [BIN, ...args(dir)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => {
    done = true;
  });
  // A resume first cuts a torn tail (the file may shrink), then appends: wait for the file to outgrow its start
  // size and reach the target line count.
  while (!done && !(sizeOf(log) > startSize && completeLines(log) >= killAt)) await sleep(1);
  if (!done) child.kill('SIGKILL');
  const { code, signal } = await exited;
  if (signal !== 'SIGKILL' && code !== 0) throw new Error(`cove generate failed (${code}): ${stderr}`);
  const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
  return {
    killed: signal === 'SIGKILL',
    killAt,
    linesBefore,
    linesAfter: completeLines(log),
    torn: text.length > 0 && !text.endsWith('\n'),
  };
}

describe('crash safety of cove generate (design.md §7.6)', () => {
  it('SIGKILL at random moments, rerun: every episode exactly once, no torn line, derived files agree', async () => {
    const dir = join(root, 'killed', 'run');
    // The same command never interrupted, for comparison (same folder name: records carry it as `run`).
    const reference = runCoveAsync(args(join(root, 'clean', 'run')));
    const rng = new Rng(20240607);
    const cycles: Cycle[] = [];
    for (let i = 0; i < KILLS; i++) {
      // Somewhere in the first 12 % of what is left, so that even the last kill has hundreds of episodes still to
      // interrupt (at 25 % the last kills met a remainder a fast machine wrote between two polls of the file).
      const before = completeLines(join(dir, 'trajectories.jsonl'));
      cycles.push(await killDuringEpisodes(dir, before + 1 + Math.floor(rng.float() * 0.12 * (N - before))));
      if (i === 1) {
        // Simulate a crash in the middle of a write as well: half of a record line, no newline.
        const log = join(dir, 'trajectories.jsonl');
        const lastLine = readFileSync(log, 'utf8').trimEnd().split('\n').pop() ?? '';
        appendFileSync(log, lastLine.slice(0, Math.floor(lastLine.length / 2)));
      }
    }
    const final = await runCoveAsync(args(dir));
    expect(final.status, final.stderr).toBe(0);
    const story = cycles
      .map(
        (c) =>
          `${c.killed ? 'killed' : 'finished'} @${c.killAt} ${c.linesBefore}→${c.linesAfter}${c.torn ? ' torn' : ''}`,
      )
      .join('; ');
    process.stdout.write(`[crash-safety] kills: ${story}\n`);
    expect(cycles.filter((c) => c.killed).length, story).toBeGreaterThanOrEqual(4);
    // At least four kills landed while episodes were being written: each had added some and left some.
    expect(
      cycles.filter((c) => c.killed && c.linesAfter > c.linesBefore && c.linesAfter < N).length,
      story,
    ).toBeGreaterThanOrEqual(4);

    const logText = readFileSync(join(dir, 'trajectories.jsonl'), 'utf8');
    expect(logText.endsWith('\n')).toBe(true);
    const records = readJsonl<TrajectoryRecord>(join(dir, 'trajectories.jsonl')); // every line parses
    expect(records).toHaveLength(N);
    expect(new Set(records.map((r) => r.id)).size).toBe(N);
    expect(records.map((r) => r.task_index).sort((a, b) => a - b)).toEqual([...Array(N).keys()]);
    for (const r of records) expect(r.attempt).toBe(0); // --attempts 1: one episode per task

    const kept = records.filter(keptForSft).sort((a, b) => a.task_index - b.task_index);
    const rows = readJsonl<SftRowView>(join(dir, 'sft.jsonl'));
    expect(rows).toHaveLength(kept.length);
    rows.forEach((row, i) => {
      expect(row.messages.slice(1).map((m) => m.content)).toEqual(kept[i]?.messages.map((m) => m.content));
    });
    const summary = readJson<{ tasks: number; episodes: number; sft_trajectories: number }>(
      join(dir, 'summary.json'),
    );
    expect(summary).toMatchObject({ tasks: N, episodes: records.length, sft_trajectories: kept.length });

    // Nothing lost or changed by the kills: the same data as the uninterrupted run.
    const clean = await reference;
    expect(clean.status, clean.stderr).toBe(0);
    const cleanDir = join(root, 'clean', 'run');
    expect(readFileSync(join(dir, 'sft.jsonl')).equals(readFileSync(join(cleanDir, 'sft.jsonl')))).toBe(true);
    expect(stableRecords(records)).toEqual(
      stableRecords(readJsonl<TrajectoryRecord>(join(cleanDir, 'trajectories.jsonl'))),
    );
  }, 240_000);
});

describe('loadTrajectoryLog', () => {
  // the smallest record a resume accepts
  const line = (id: string, text: string) =>
    `${JSON.stringify({
      id,
      note: text,
      task_index: 0,
      termination_reason: 'user_stop',
      verification: {},
      messages: [],
      usage: { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 },
    })}\n`;

  it('keeps the complete lines and cuts a torn last line off the file', () => {
    const file = join(root, 'torn.jsonl');
    const good = line('a', 'τ² — multi-byte text ✓') + line('b', 'plain');
    const half = line('c', 'ünïcödé tail').slice(0, 17);
    writeFileSync(file, good + half);
    const loaded = loadTrajectoryLog(file);
    expect(loaded.records.map((r) => r.id)).toEqual(['a', 'b']);
    expect(loaded.truncatedBytes).toBe(Buffer.byteLength(half));
    expect(loaded.duplicates).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(good);
    // A second load finds nothing to repair.
    expect(loadTrajectoryLog(file).truncatedBytes).toBe(0);
  });

  it('cuts a tail torn inside a multi-byte character and a complete record lacking its newline', () => {
    const file = join(root, 'torn-utf8.jsonl');
    const good = line('a', 'x') + line('b', 'y');
    const bytes = Buffer.from(line('c', '€€€'));
    const cut = bytes.indexOf(Buffer.from('€')) + 1; // inside the 3-byte euro sign
    writeFileSync(file, Buffer.concat([Buffer.from(good), bytes.subarray(0, cut)]));
    expect(loadTrajectoryLog(file).records).toHaveLength(2);
    expect(readFileSync(file, 'utf8')).toBe(good);
    writeFileSync(file, good + line('c', 'z').trimEnd());
    const loaded = loadTrajectoryLog(file);
    expect(loaded.records).toHaveLength(2);
    expect(readFileSync(file, 'utf8')).toBe(good);
  });

  it('lets a later line replace an earlier one with the same id (a retried episode) and returns nothing for a missing file', () => {
    const file = join(root, 'dupes.jsonl');
    writeFileSync(file, line('a', '1') + line('b', '2') + line('a', '3'));
    const loaded = loadTrajectoryLog(file);
    expect(loaded.records.map((r) => (r as unknown as { note: string }).note)).toEqual(['2', '3']);
    expect(loaded.duplicates).toBe(1);
    expect(loadTrajectoryLog(join(root, 'missing.jsonl'))).toEqual({
      records: [],
      truncatedBytes: 0,
      duplicates: 0,
      corrupt: [],
    });
  });

  it('skips and reports damaged complete lines, keeping every record after them', () => {
    const file = join(root, 'damaged.jsonl');
    const text = `${line('a', '1')}{"id": "b", "no${'\n'}[1, 2]\n${line('c', '3')}null\n{"id": "zzz"}\n${line('d', '4')}`;
    writeFileSync(file, text);
    const loaded = loadTrajectoryLog(file);
    expect(loaded.records.map((r) => r.id)).toEqual(['a', 'c', 'd']);
    expect(loaded.corrupt.map(({ line, text, reason }) => ({ line, text, reason }))).toEqual([
      { line: 2, text: '{"id": "b", "no', reason: 'not a trajectory record' },
      { line: 3, text: '[1, 2]', reason: 'not a trajectory record' },
      { line: 5, text: 'null', reason: 'not a trajectory record' },
      { line: 6, text: '{"id": "zzz"}', reason: 'not a trajectory record' }, // JSON, but not a record
    ]);
    expect(loaded.corrupt.map((c) => c.raw.toString('utf8'))).toEqual(loaded.corrupt.map((c) => c.text));
    expect(loaded.truncatedBytes).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text); // the loader itself changes nothing but a torn tail
  });
});

describe('a damaged line in the middle of trajectories.jsonl', () => {
  it('is set aside with a warning; only its episode runs again and the file ends with one line per episode', async () => {
    const dir = join(root, 'damaged-run');
    const run = ['generate', '--n', '20', '--concurrency', '4', '--out', dir, '--quiet'];
    expect((await runCoveAsync(run)).status).toBe(0);
    const log = join(dir, 'trajectories.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n').slice(0, -1);
    const victim = JSON.parse(lines[7] ?? '') as TrajectoryRecord;
    const damaged = lines[7]?.slice(0, 40) ?? '';
    writeFileSync(log, `${[...lines.slice(0, 7), damaged, ...lines.slice(8)].join('\n')}\n`);
    const again = await runCoveAsync(run);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `warning: ${log}: skipped 1 damaged line(s): line 8 (not a trajectory record)`,
    );
    expect(again.stderr).toContain('20 episodes (1 new)');
    expect(readFileSync(`${log}.damaged`, 'utf8')).toBe(`${damaged}\n`);
    const records = readJsonl<TrajectoryRecord>(log);
    expect(records).toHaveLength(20);
    expect(new Set(records.map((r) => r.id)).size).toBe(20);
    expect(stableRecords([records.find((r) => r.id === victim.id) as TrajectoryRecord])).toEqual(
      stableRecords([victim]),
    );
  });
});
