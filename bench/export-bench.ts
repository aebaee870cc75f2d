import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Domain, sandboxSize } from '../src/domains/domain.js';
import { baseFromValue } from '../src/domains/load-db.js';
import { runExport } from '../src/export/export.js';
import { runTaskEpisode } from '../src/run/episode-runner.js';
import type { TrajectoryRecord } from '../src/run/trajectory.js';
import { synthesizeTasks } from '../src/tasks/synthesize-tasks.js';
import { scriptedBenchContext } from './scripted-context.js';
import { round } from './stats.js';

/** Real trajectory records: `tasksCount` default tasks (sandbox seed 1) played by the oracle and the scripted user. */
export async function sampleTrajectories(domain: Domain, tasksCount = 100): Promise<TrajectoryRecord[]> {
  const sandbox = domain.sandbox;
  const synthesis = domain.synthesis;
  if (sandbox === undefined || synthesis === undefined) throw new Error('domain cannot generate');
  const { base, hashes } = baseFromValue(domain, sandbox.generate(1, sandboxSize(sandbox)), 'sandbox');
  const db = {
    sandbox: { domain: domain.name, seed: 1, size: { users: 500, orders: 1000 } },
    canonical_sha256: hashes.canonical_sha256,
  };
  const { tasks } = await synthesizeTasks(
    domain,
    base,
    {
      domain: domain.name,
      seed: 1,
      difficulty: 'mixed',
      fuzz: 2,
      semantics: 'parity',
      db,
      coveVersion: 'bench',
    },
    tasksCount,
  );
  const context = scriptedBenchContext(domain, base, hashes.canonical_sha256);
  const records: TrajectoryRecord[] = [];
  for (const task of tasks)
    records.push(await runTaskEpisode(context, { task, index: task.cove.index }, 0, 0));
  base.close();
  return records;
}

/**
 * Writes `n` trajectory lines made from `samples` (record i is sample i mod |samples| with its own id, task id and
 * task index), streaming with backpressure; returns the bytes written.
 */
export async function writeReplicatedTrajectories(
  samples: readonly TrajectoryRecord[],
  n: number,
  file: string,
): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const s = samples[i % samples.length] as TrajectoryRecord;
    const line = `${JSON.stringify({ ...s, id: `r${i}`, task_id: `retail-x-${i}`, task_index: i })}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

/** `export_rows_per_s`: trajectories.jsonl → hf JSONL (and → verl Parquet), rows written per second, one process. */
export async function benchExport(domain: Domain, rows = 5000): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'cove-bench-export-'));
  try {
    const input = join(dir, 'trajectories.jsonl');
    const bytes = await writeReplicatedTrajectories(await sampleTrajectories(domain), rows, input);
    const time = async (format: 'hf' | 'verl') => {
      const start = performance.now();
      const result = await runExport({
        input,
        format,
        out: join(dir, format),
        select: { minScore: 1, stateMatch: true },
        seed: 1,
        force: false,
        tau2: {},
        coveVersion: 'bench',
      });
      if (result.selected !== rows) throw new Error(`export selected ${result.selected} of ${rows}`);
      return (performance.now() - start) / 1000;
    };
    const hf = await time('hf');
    const verl = await time('verl');
    return {
      export_rows_per_s: round(rows / hf, 1),
      export_parquet_rows_per_s: round(rows / verl, 1),
      export_input_mb_per_s: round(bytes / 1e6 / hf, 1),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
