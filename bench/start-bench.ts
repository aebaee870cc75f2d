import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePyJson } from '../src/core/py-json-parse.js';
import type { Domain } from '../src/domains/domain.js';
import { baseFromValue } from '../src/domains/load-db.js';
import { p50, round } from './stats.js';

/**
 * Start-up costs: `cove --version` as a fresh process (the built CLI; wall time per run, p50 of 7), and τ²'s
 * Retail db.json turned into a ready base (read, lossless parse, SQL import, change tracking, both state hashes;
 * p50 of 3 fresh loads in this process).
 */
export function benchStartup(domain: Domain, tau2Dir: string): Record<string, number> {
  const bin = fileURLToPath(new URL('../bin/cove.js', import.meta.url));
  const starts: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cove --version failed: ${r.stderr}`);
    starts.push(performance.now() - t);
  }
  const loads: number[] = [];
  const file = join(tau2Dir, domain.name, 'db.json');
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const loaded = baseFromValue(domain, parsePyJson(readFileSync(file, 'utf8')), file);
    loaded.base.hashes();
    loads.push(performance.now() - t);
    loaded.base.close();
  }
  return { cli_start_ms: round(p50(starts), 1), [`${domain.name}_db_load_ms`]: round(p50(loads), 1) };
}
