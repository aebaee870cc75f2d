import { spawn } from 'node:child_process';
import { createReadStream, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sampleTrajectories, writeReplicatedTrajectories } from '../../bench/export-bench.js';
import { getDomain } from '../../src/domains/registry.js';
import { tempDir } from '../export/helpers.js';
import { REPO } from '../helpers/cli.js';

// Scale check (issue 16): exporting 100,000 trajectories (about 2.4 GB of trajectories.jsonl) streams. Slow, so
// it runs only with COVE_SCALE=1 (`COVE_SCALE=1 npx vitest run test/scale`). The export runs as the real CLI in
// a child process whose V8 heap is capped at 256 MB and whose resident memory is sampled from /proc: holding the
// input (or the output) would need gigabytes.
const ROWS = 100_000;
const HEAP_MB = 256;
const RSS_LIMIT_MB = 600;

/** Runs `cove export` with a capped heap; resolves with its exit code, stderr and the peak RSS seen (MB). */
function exportCapped(
  args: readonly string[],
): Promise<{ status: number | null; stderr: string; peakMb: number }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${HEAP_MB}`, join(REPO, 'bin/cove.js'), 'export', ...args],
      {
        cwd: REPO,
      },
    );
    let stderr = '';
    let peak = 0;
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) / 1024);
      } catch {
        // the process has ended
      }
    }, 100);
    child.on('close', (status) => {
      clearInterval(timer);
      resolve({ status, stderr, peakMb: peak });
    });
  });
}

async function countLines(file: string): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(file)) for (const b of chunk as Buffer) if (b === 10) n++;
  return n;
}

describe.skipIf(process.env.COVE_SCALE !== '1')('export at scale', () => {
  it(`streams ${ROWS} trajectories to hf and verl with bounded memory`, async () => {
    const dir = tempDir('cove-export-scale-');
    onTestFinished(() => rmSync(dir, { recursive: true, force: true })); // about 5 GB
    const input = join(dir, 'trajectories.jsonl');
    const bytes = await writeReplicatedTrajectories(
      await sampleTrajectories(getDomain('retail'), 40),
      ROWS,
      input,
    );
    expect(bytes).toBeGreaterThan(HEAP_MB * 4 * 1024 * 1024);

    const hf = await exportCapped([
      '--in',
      input,
      '--format',
      'hf',
      '--out',
      join(dir, 'hf'),
      '--split',
      'train=0.99,test=0.01',
    ]);
    expect(hf.status, hf.stderr).toBe(0);
    expect(hf.peakMb).toBeLessThan(RSS_LIMIT_MB);
    expect(
      (await countLines(join(dir, 'hf', 'train.jsonl'))) + (await countLines(join(dir, 'hf', 'test.jsonl'))),
    ).toBe(ROWS);

    const verl = await exportCapped(['--in', input, '--format', 'verl', '--out', join(dir, 'verl')]);
    expect(verl.status, verl.stderr).toBe(0);
    expect(verl.peakMb).toBeLessThan(RSS_LIMIT_MB);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const file = join(dir, 'verl', 'data.parquet');
    expect(
      (await c.runAndReadAll(`SELECT count(*)::INT AS n FROM read_parquet('${file}')`)).getRowObjects(),
    ).toEqual([{ n: ROWS }]);
    c.closeSync();
    process.stderr.write(
      `export scale: input ${(bytes / 1e9).toFixed(2)} GB; peak RSS hf ${hf.peakMb.toFixed(0)} MB, verl ${verl.peakMb.toFixed(0)} MB\n`,
    );
  }, 3_600_000);
});
