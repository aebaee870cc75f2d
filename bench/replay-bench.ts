import { join } from 'node:path';
import { pyDict } from '../src/core/py-value.js';
import type { Domain } from '../src/domains/domain.js';
import { loadDbFile, readJsonFile } from '../src/domains/load-db.js';
import { replayCalls } from '../src/env/replay.js';
import { parseTau2Tasks } from '../src/tasks/tau2-task.js';
import { p50, round } from './stats.js';

/**
 * Per-task cost of what `cove replay` and τ²'s DB check do for every task: fork an episode of τ²'s DB, run the
 * task's gold actions, compute both state hashes. Measured over all tasks of `tasks.json`, three rounds (the
 * first warms the entity cache and the JIT); reported as the median over the last two rounds, in ms per task, of
 * wall time and of process CPU time (the latter stays meaningful on a busy machine).
 */
export function benchReplayPerTask(domain: Domain, tau2Dir: string): { wallMs: number; cpuMs: number } {
  const { base } = loadDbFile(domain, join(tau2Dir, domain.name, 'db.json'), { expectTau2Pristine: true });
  const tasksFile = join(tau2Dir, domain.name, 'tasks.json');
  const tasks = parseTau2Tasks(readJsonFile(tasksFile), tasksFile).map(({ task }) =>
    (task.evaluation_criteria?.actions ?? []).map((a) => ({ name: a.name, arguments: a.arguments })),
  );
  const times: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const actions of tasks) {
      const t = performance.now();
      const c = process.cpuUsage();
      const { episode } = replayCalls(base, actions);
      episode.hashes();
      episode.close();
      const u = process.cpuUsage(c);
      if (round > 0) {
        times.push(performance.now() - t);
        cpu.push((u.user + u.system) / 1000);
      }
    }
  }
  base.close();
  return { wallMs: p50(times), cpuMs: p50(cpu) };
}

/**
 * Airline environment workloads on τ²'s airline DB (7 MB): warm episode forks and memory per live episode (its
 * load times come from `benchStartup`, its replay from {@link benchReplayPerTask}).
 */
export function benchAirline(domain: Domain, tau2Dir: string): Record<string, number> {
  const { base } = loadDbFile(domain, join(tau2Dir, 'airline', 'db.json'), { expectTau2Pristine: true });

  const reservations = base.sql
    .all('SELECT reservation_id FROM reservations WHERE status IS NULL ORDER BY pos LIMIT 256')
    .map((r) => String(r.reservation_id));
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const live = reservations.map((id) => {
    const episode = base.fork();
    episode.call('get_reservation_details', pyDict({ reservation_id: id }));
    episode.call('cancel_reservation', pyDict({ reservation_id: id }));
    return episode;
  });
  globalThis.gc?.();
  const rssAfter = process.memoryUsage().rss;
  for (const e of live) e.close();

  const warm: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t = performance.now();
    const e = base.fork();
    warm.push(performance.now() - t);
    e.close();
  }
  base.close();
  return {
    airline_episode_fork_ms_p50: round(p50(warm), 4),
    airline_episode_memory_mb: round((rssAfter - rssBefore) / live.length / 1e6, 3),
  };
}
