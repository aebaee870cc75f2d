import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childrenCpuMs } from './start-bench.js';
import { p50, round } from './stats.js';

/**
 * A whole `cove replay --domain <name>` of every task of τ²'s tasks.json, as a new process of the built CLI: Node's
 * start, module loading, the tasks file, the base from the disk cache of bases, and every task (fork, gold
 * actions, both hashes, one output line). This is what issue 12 compares with τ²'s Python doing the same work.
 * One run first (it fills the cache if needed), then `runs` timed runs: `<name>_replay_whole_ms` is the p50 wall
 * time and `<name>_replay_whole_cpu_ms` the mean CPU time (user + system) of a run.
 */
export function benchReplayWhole(name: string, tau2Dir: string, runs = 5): Record<string, number> {
  const bin = fileURLToPath(new URL('../bin/cove.js', import.meta.url));
  const args = [bin, 'replay', '--domain', name, '--tasks', join(tau2Dir, name, 'tasks.json')];
  const run = (): void => {
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`cove replay --domain ${name} failed: ${r.stderr}`);
  };
  run();
  const wall: number[] = [];
  const cpuBefore = childrenCpuMs();
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    run();
    wall.push(performance.now() - t);
  }
  const cpuAfter = childrenCpuMs();
  return {
    [`${name}_replay_whole_ms`]: round(p50(wall), 1),
    ...(cpuBefore !== undefined && cpuAfter !== undefined
      ? { [`${name}_replay_whole_cpu_ms`]: round((cpuAfter - cpuBefore) / runs, 1) }
      : {}),
  };
}
