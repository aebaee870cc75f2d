import type { Domain } from '../src/domains/domain.js';
import { sandboxSize } from '../src/domains/domain.js';
import { baseFromValue } from '../src/domains/load-db.js';
import { runTaskEpisode } from '../src/run/episode-runner.js';
import { synthesizeTasks } from '../src/tasks/synthesize-tasks.js';
import { scriptedBenchContext } from './scripted-context.js';
import { round } from './stats.js';

/**
 * The main job's per-episode overhead: default tasks (sandbox seed 1 at the domain's default sizes, mixed
 * difficulty, fuzz 2), scripted user + oracle agent, verification and record building included, one process, no
 * disk writes. Reports wall-clock and CPU-time rates (`scripted_episodes_per_cpu_s`: episodes ÷ user + system CPU
 * seconds of the process). `prefix` goes before every key (`airline_` gives `airline_scripted_episodes_per_s`).
 */
export async function benchScriptedEpisodes(
  domain: Domain,
  tasksCount = 300,
  prefix = '',
): Promise<Record<string, number>> {
  const sandbox = domain.sandbox;
  const synthesis = domain.synthesis;
  if (sandbox === undefined || synthesis === undefined) throw new Error('domain cannot generate');
  const { base, hashes } = baseFromValue(domain, sandbox.generate(1, sandboxSize(sandbox)), 'sandbox');
  const synthStart = performance.now();
  const { tasks } = await synthesizeTasks(
    domain,
    base,
    {
      domain: domain.name,
      seed: 1,
      difficulty: 'mixed',
      fuzz: 2,
      semantics: 'parity',
      db: {
        sandbox: { domain: domain.name, seed: 1, size: sandboxSize(sandbox) },
        canonical_sha256: hashes.canonical_sha256,
      },
      coveVersion: 'bench',
    },
    tasksCount,
  );
  const synthSeconds = (performance.now() - synthStart) / 1000;
  const context = scriptedBenchContext(domain, base, hashes.canonical_sha256);
  base.warm(64);
  // warm-up (JIT, statement and entity caches), then three measured passes over every task
  for (const task of tasks.slice(0, 60))
    await runTaskEpisode(context, { task, index: task.cove.index }, 0, 99);
  globalThis.gc?.();
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let passed = 0;
  let messages = 0;
  let episodes = 0;
  for (const attempt of [0, 1, 2]) {
    for (const task of tasks) {
      const record = await runTaskEpisode(context, { task, index: task.cove.index }, 0, attempt);
      if (record.verification?.score === 1 && record.verification?.stateMatch) passed++;
      messages += record.messages.length;
      episodes++;
    }
  }
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  base.close();
  if (passed !== episodes) throw new Error(`oracle passed only ${passed}/${episodes} episodes`);
  return {
    [`${prefix}scripted_episodes_per_s`]: round(episodes / seconds, 1),
    [`${prefix}scripted_episode_ms_mean`]: round((seconds * 1000) / episodes, 3),
    // CPU time of this process over the same passes: steadier than wall time on a machine shared with others
    [`${prefix}scripted_episodes_per_cpu_s`]: round(episodes / cpuSeconds, 1),
    [`${prefix}scripted_messages_per_episode_mean`]: round(messages / episodes, 1),
    [`${prefix}task_synthesis_per_s`]: round(tasksCount / synthSeconds, 1),
  };
}
