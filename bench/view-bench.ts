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
 * new id) into a run folder of `records` trajectories (about 20 kB each, as real ones: messages and tools).
 * `viewer_open_100k_ms` is the first open (streaming index of the JSONL, tasks.json, HTTP server, the page's
 * overview and first page of 50 episodes), `viewer_reopen_100k_ms` the same once the index sidecar of the first
 * open is in the cache (`cove view` on a run looked at before). A text search over all records is timed too.
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

/**
 * Opens a run folder as `cove view` does and times it until the page's first two answers are in: the source
 * made (its index built or read from the sidecar), the HTTP server listening, the overview and the first page of
 * 50 episodes received (wall time, and the CPU time of this process, which a busy machine inflates less).
 */
async function openViewer(
  folder: string,
  records: number,
): Promise<{ ms: number; cpuMs: number; url: string; close: () => Promise<void> }> {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const source = new JsonlSource(folder);
  const server = await serveApp(
    createViewApp({ sources: [source], assets: loadPageAssets(), allowedHosts: [] }),
  );
  const [overview, page] = await Promise.all([
    fetch(`${server.url}/api/overview?src=0`).then((r) => r.json() as Promise<{ episodes: number }>),
    fetch(`${server.url}/api/episodes?src=0&limit=50`).then((r) => r.json() as Promise<{ rows: unknown[] }>),
  ]);
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  if (overview.episodes !== records || page.rows.length !== 50) {
    await server.close();
    throw new Error(`viewer bench: ${overview.episodes} episodes, ${page.rows.length} rows`);
  }
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, url: server.url, close: () => server.close() };
}
