import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePyJson } from '../src/core/py-json-parse.js';
import type { Domain } from '../src/domains/domain.js';
import { baseFromValue, loadDbFile } from '../src/domains/load-db.js';
import { p50, round } from './stats.js';

/**
 * Start-up costs: `cove --version` as a fresh process (the built CLI; wall time per run, p50 of 7), and τ²'s
 * Retail db.json turned into a ready base with both state hashes, two ways (p50 of 3 loads each, in this process):
 * - `<domain>_db_load_ms`: the way every command loads it, through the disk cache of bases (docs/engine.md), warm:
 *   what each run after the first one on a machine pays;
 * - `<domain>_db_load_cold_ms`: without the cache (read, lossless parse, validation, SQL import, change tracking,
 *   both digests): what the first run pays.
 * Each key has a `_cpu` twin (process CPU time), which stays meaningful when the machine is busy.
 */
export function benchStartup(
  domain: Domain,
  tau2Dir: string,
  options: { cli?: boolean } = {},
): Record<string, number> {
  const bin = fileURLToPath(new URL('../bin/cove.js', import.meta.url));
  const starts: number[] = [];
  const childCpuBefore = childrenCpuMs();
  for (let i = 0; options.cli !== false && i < 7; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cove --version failed: ${r.stderr}`);
    starts.push(performance.now() - t);
  }
  const childCpuAfter = childrenCpuMs();
  const file = join(tau2Dir, domain.name, 'db.json');
  const cold = timed(3, () => {
    const loaded = baseFromValue(domain, parsePyJson(readFileSync(file, 'utf8')), file);
    loaded.base.hashes();
    loaded.base.close();
  });
  loadDbFile(domain, file).base.close(); // fills the cache if this machine never loaded the file
  const warm = timed(3, () => {
    const loaded = loadDbFile(domain, file);
    loaded.base.hashes();
    loaded.base.close();
  });
  const name = domain.name;
  return {
    ...(starts.length > 0 ? { cli_start_ms: round(p50(starts), 1) } : {}),
    ...(starts.length > 0 && childCpuBefore !== undefined && childCpuAfter !== undefined
      ? { cli_start_cpu_ms: round((childCpuAfter - childCpuBefore) / starts.length, 1) }
      : {}),
    [`${name}_db_load_ms`]: round(warm.wallMs, 1),
    [`${name}_db_load_cpu_ms`]: round(warm.cpuMs, 1),
    [`${name}_db_load_cold_ms`]: round(cold.wallMs, 1),
    [`${name}_db_load_cold_cpu_ms`]: round(cold.cpuMs, 1),
  };
}

/**
 * CPU time (user + system) of this process's finished children, in ms, from Linux's `/proc/self/stat` (fields
 * `cutime` and `cstime`, in clock ticks of 10 ms); `undefined` where there is no such file.
 */
export function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after the command name: field 3 is fields[0], so cutime (16) and cstime (17) are fields[13] and fields[14]
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

/** p50 wall time and p50 process CPU time (user + system) of `runs` calls, in ms. */
function timed(runs: number, f: () => void): { wallMs: number; cpuMs: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    f();
    const u = process.cpuUsage(c);
    wall.push(performance.now() - t);
    cpu.push((u.user + u.system) / 1000);
  }
  return { wallMs: p50(wall), cpuMs: p50(cpu) };
}
