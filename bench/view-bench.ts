import { spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
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
 * new id) into a run folder of `records` trajectories (about 20 kB each, as real ones: messages and tools). The
 * timing covers opening the folder (streaming index of the JSONL, tasks.json), starting the HTTP server and
 * answering the page's first requests: the overview and the first page of 50 episodes (wall time, and the CPU
 * time of this process, which a busy machine inflates less). A text search over all records is timed too.
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

    const cpu0 = process.cpuUsage();
    const start = performance.now();
    const source = new JsonlSource(big);
    const server = await serveApp(
      createViewApp({ sources: [source], assets: loadPageAssets(), allowedHosts: [] }),
    );
    const [overview, page] = await Promise.all([
      fetch(`${server.url}/api/overview?src=0`).then((r) => r.json() as Promise<{ episodes: number }>),
      fetch(`${server.url}/api/episodes?src=0&limit=50`).then(
        (r) => r.json() as Promise<{ rows: unknown[] }>,
      ),
    ]);
    const openMs = performance.now() - start;
    const cpu = process.cpuUsage(cpu0);
    const searchStart = performance.now();
    await fetch(`${server.url}/api/episodes?src=0&limit=50&q=no%20such%20words%20anywhere`).then((r) =>
      r.json(),
    );
    const searchMs = performance.now() - searchStart;
    await server.close();
    if (overview.episodes !== records || page.rows.length !== 50) {
      throw new Error(`viewer bench: ${overview.episodes} episodes, ${page.rows.length} rows`);
    }
    return {
      viewer_records: records,
      viewer_jsonl_mb: round(bytes / 2 ** 20, 0),
      viewer_open_100k_ms: round(openMs, 0),
      viewer_open_100k_cpu_ms: round((cpu.user + cpu.system) / 1000, 0),
      viewer_search_100k_ms: round(searchMs, 0),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
