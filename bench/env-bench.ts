import { join } from 'node:path';
import { pyDict } from '../src/core/py-value.js';
import type { Domain } from '../src/domains/domain.js';
import { loadDbFile, readJsonFile } from '../src/domains/load-db.js';
import { replayCalls } from '../src/env/replay.js';
import { sameState } from '../src/env/state-diff.js';
import { parseTau2Tasks } from '../src/tasks/tau2-task.js';
import { p50, round } from './stats.js';

/**
 * Environment workloads on τ²'s retail DB: episode forks (warm pool and cold), a read tool call (served from the
 * base-wide entity cache, and with nothing cached), memory per live episode, and the gold replay + τ² DB check of
 * all 114 tasks.
 */
export function benchEnvironment(domain: Domain, tau2Dir: string): Record<string, number> {
  const { base } = loadDbFile(domain, join(tau2Dir, 'retail', 'db.json'), { expectTau2Pristine: true });

  // memory: 256 live episodes, each with a read and a write
  const orders = base.sql
    .all("SELECT order_id FROM orders WHERE status = 'pending' ORDER BY pos LIMIT 256")
    .map((r) => String(r.order_id));
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const cold: number[] = [];
  const live = orders.map((orderId) => {
    const t = performance.now();
    const episode = base.fork();
    cold.push(performance.now() - t);
    episode.call('get_order_details', pyDict({ order_id: orderId }));
    episode.call('cancel_pending_order', pyDict({ order_id: orderId, reason: 'no longer needed' }));
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

  const episode = base.fork();
  const reads: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const orderId = orders[i % orders.length] as string;
    const t = performance.now();
    episode.call('get_order_details', pyDict({ order_id: orderId }));
    reads.push(performance.now() - t);
  }
  // the same read with nothing cached (first read of an entity, or of one the episode changed)
  const uncached: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const orderId = orders[i % orders.length] as string;
    base.entityCache.clear();
    const t = performance.now();
    episode.call('get_order_details', pyDict({ order_id: orderId }));
    uncached.push(performance.now() - t);
  }
  episode.close();

  // all 114 tasks: gold replay, then τ²'s DB check (write calls replayed as the "predicted" side, compared)
  const tasksFile = join(tau2Dir, 'retail', 'tasks.json');
  const tasks = parseTau2Tasks(readJsonFile(tasksFile), tasksFile);
  const writes = new Set(domain.tools.filter((t) => t.kind === 'write').map((t) => t.name));
  const replayStart = performance.now();
  let matches = 0;
  for (const { task } of tasks) {
    const actions = (task.evaluation_criteria?.actions ?? []).map((a) => ({
      name: a.name,
      arguments: a.arguments,
    }));
    const gold = replayCalls(base, actions).episode;
    const predicted = replayCalls(
      base,
      actions.filter((a) => writes.has(a.name)),
    ).episode;
    if (sameState(gold, predicted)) matches++;
    gold.close();
    predicted.close();
  }
  const replaySeconds = (performance.now() - replayStart) / 1000;
  base.close();
  if (matches !== tasks.length)
    throw new Error(`gold replay DB check failed on ${tasks.length - matches} tasks`);

  return {
    episode_fork_ms_p50: round(p50(warm), 4),
    episode_fork_cold_ms_p50: round(p50(cold), 3),
    read_tool_call_us_p50: round(p50(reads) * 1000, 1),
    read_tool_call_uncached_us_p50: round(p50(uncached) * 1000, 1),
    episode_memory_mb: round((rssAfter - rssBefore) / live.length / 1e6, 3),
    retail_gold_replay_verify_s: round(replaySeconds, 3),
    retail_gold_replay_tasks: tasks.length,
  };
}
