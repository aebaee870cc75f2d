import { spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveApp } from '../src/server/serve.js';
import { createViewApp } from '../src/view/app.js';
import { loadPageAssets } from '../src/view/assets.js';
import { JsonlSource } from '../src/view/run-source.js';
import { round } from './stats.js';

const BIN = fileURLToPath(new URL('../bin/cove.js', import.meta.url));

/**
 * `cove view` on a large run: a real run of 200 tasks made by `cove generate`, its records copied (each with a
 * new id) into a run folder of `records` trajectories (about 25 kB each, as real ones: messages and tools).
 * - `viewer_open_100k_ms`: the first open until the page is usable — the source made (tasks.json read, the
 *   index started), the HTTP server listening, and both first answers of the page received: the overview and
 *   the first page of 50 episodes in file order. While the JSONL is still being indexed these answers cover the
 *   part of the file indexed so far (`coverage.complete: false`, docs/view.md); the bench checks the 50 rows and
 *   that the overview counts no more episodes than the part covers.
 * - `viewer_index_complete_100k_ms`: from the same start until the overview of the complete index is received
 *   (`/api/overview?wait=1`, asked at the start): all `records` episodes counted, `coverage.complete: true`.
 * - `viewer_reopen_100k_ms`: the open again once the index sidecar of the first open is in the cache (`cove
 *   view` on a run looked at before): complete at once.
 * The `_cpu_ms` keys are the CPU time of this process (all its threads, the indexing workers too) over the same
 * spans, which a busy machine inflates less than wall time. A text search over all records is timed too.
 */
export async function benchViewer(records = 100_000): Promise<Record<string, number>> {
  const root = mkdtempSync(join(tmpdir(), 'cove-bench-view-'));
  try {
    const small = join(root, 'small');
    const made = spawnSync(process.execPath, [BIN, 'generate', '--n', '200', '--quiet', '--out', small], {
      encoding: 'utf8',
    });
    if (made.status !== 0) throw new Error(`cove generate failed: ${made.stderr}`);
    const lines = readFileSync(join(small, 'trajectories.jsonl'), 'utf8').trim().split('\n');
    const big = join(root, 'big');
    spawnSync('mkdir', [big]);
    for (const f of ['run.json', 'tasks.json', 'db.json']) copyFileSync(join(small, f), join(big, f));
    const fd = openSync(join(big, 'trajectories.jsonl'), 'w');
    let batch: string[] = [];
    for (let i = 0; i < records; i++) {
      const line = lines[i % lines.length] as string;
      batch.push(line.replace(/^\{"id":"[^"]*"/, `{"id":"bench-${i}"`));
      if (batch.length === 1000) {
        writeSync(fd, `${batch.join('\n')}\n`);
        batch = [];
      }
    }
    if (batch.length > 0) writeSync(fd, `${batch.join('\n')}\n`);
    closeSync(fd);
    const bytes = statSync(join(big, 'trajectories.jsonl')).size;

    // the index sidecar goes to a cache of this bench alone: the first open is cold, the second finds it
    const env = process.env;
    const saved = { dir: env.COVE_CACHE_DIR, off: env.COVE_NO_CACHE };
    env.COVE_CACHE_DIR = join(root, 'cache');
    delete env.COVE_NO_CACHE;
    try {
      const first = await openViewer(big, records);
      // the sidecar is written just after the first answers; a re-open is timed once it is there
      await new Promise((r) => setTimeout(r, 200));
      for (let i = 0; i < 100 && !existsSync(join(root, 'cache', 'view')); i++)
        await new Promise((r) => setTimeout(r, 100));
      const again = await openViewer(big, records);
      const searchStart = performance.now();
      await fetch(`${again.url}/api/episodes?src=0&limit=50&q=no%20such%20words%20anywhere`).then((r) =>
        r.json(),
      );
      const searchMs = performance.now() - searchStart;
      await first.close();
      await again.close();
      return {
        viewer_records: records,
        viewer_jsonl_mb: round(bytes / 2 ** 20, 0),
        viewer_open_100k_ms: round(first.ms, 0),
        viewer_open_100k_cpu_ms: round(first.cpuMs, 0),
        viewer_open_100k_indexed_episodes: first.indexedEpisodes,
        viewer_index_complete_100k_ms: round(first.completeMs, 0),
        viewer_index_complete_100k_cpu_ms: round(first.completeCpuMs, 0),
        viewer_reopen_100k_ms: round(again.ms, 0),
        viewer_reopen_100k_cpu_ms: round(again.cpuMs, 0),
        viewer_search_100k_ms: round(searchMs, 0),
      };
    } finally {
      if (saved.dir === undefined) delete env.COVE_CACHE_DIR;
      else env.COVE_CACHE_DIR = saved.dir;
      if (saved.off !== undefined) env.COVE_NO_CACHE = saved.off;
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

interface OverviewAnswer {
  episodes: number;
  coverage: { complete: boolean; bytes: number; bytesTotal: number };
}

/**
 * Opens a run folder as `cove view` does and times it until the page's first two answers are in (the source
 * made, the HTTP server listening, the overview and the first page of 50 episodes received, partial or not), and
 * until the overview of the complete index is in (wall time, and the CPU time of this process, all threads).
 */
async function openViewer(
  folder: string,
  records: number,
): Promise<{
  ms: number;
  cpuMs: number;
  indexedEpisodes: number;
  completeMs: number;
  completeCpuMs: number;
  url: string;
  close: () => Promise<void>;
}> {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const source = new JsonlSource(folder);
  const server = await serveApp(
    createViewApp({ sources: [source], assets: loadPageAssets(), allowedHosts: [] }),
  );
  const cpuMs = () => {
    const cpu = process.cpuUsage(cpu0);
    return (cpu.user + cpu.system) / 1000;
  };
  const complete = fetch(`${server.url}/api/overview?src=0&wait=1`)
    .then((r) => r.json() as Promise<OverviewAnswer>)
    .then((o) => ({ o, ms: performance.now() - start, cpuMs: cpuMs() }));
  const [overview, page] = await Promise.all([
    fetch(`${server.url}/api/overview?src=0`).then((r) => r.json() as Promise<OverviewAnswer>),
    fetch(`${server.url}/api/episodes?src=0&limit=50`).then((r) => r.json() as Promise<{ rows: unknown[] }>),
  ]);
  const ms = performance.now() - start;
  const firstCpu = cpuMs();
  const whole = await complete;
  const partialOk = overview.coverage.complete
    ? overview.episodes === records
    : overview.episodes <= records && overview.coverage.bytes < overview.coverage.bytesTotal;
  if (!partialOk || page.rows.length !== 50 || whole.o.episodes !== records || !whole.o.coverage.complete) {
    await server.close();
    throw new Error(
      `viewer bench: ${overview.episodes} episodes first, ${page.rows.length} rows, ${whole.o.episodes} at the end`,
    );
  }
  return {
    ms,
    cpuMs: firstCpu,
    indexedEpisodes: overview.episodes,
    completeMs: whole.ms,
    completeCpuMs: whole.cpuMs,
    url: server.url,
    close: () => server.close(),
  };
}
