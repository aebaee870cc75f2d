import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { getDomain } from '../src/domains/registry.js';
import { benchEnvironment } from './env-bench.js';
import { benchExport } from './export-bench.js';
import { benchScriptedEpisodes } from './generate-bench.js';
import { benchLlmBound } from './llm-bench.js';
import { benchQueue } from './queue-bench.js';
import { benchAirline, benchReplayPerTask } from './replay-bench.js';
import { benchReplayWhole } from './replay-whole-bench.js';
import { benchServe } from './serve-bench.js';
import { benchStartup } from './start-bench.js';
import { round } from './stats.js';
import { benchViewer } from './view-bench.js';

const tau2Dir = process.env.COVE_TAU2_DATA ?? fileURLToPath(new URL('../../shared/tau2', import.meta.url));
const results: Record<string, unknown> = {
  node_version: process.version,
  cpu_cores: availableParallelism(),
  ...benchStartup(getDomain('retail'), tau2Dir),
  ...benchStartup(getDomain('airline'), tau2Dir, { cli: false }),
  ...benchEnvironment(getDomain('retail'), tau2Dir),
  ...benchAirline(getDomain('airline'), tau2Dir),
  ...replayKeys('retail'),
  ...replayKeys('airline'),
  ...benchReplayWhole('retail', tau2Dir),
  ...benchReplayWhole('airline', tau2Dir),
  ...(await benchScriptedEpisodes(getDomain('retail'))),
  ...(await benchScriptedEpisodes(getDomain('airline'), 300, 'airline_')),
  ...(await benchLlmBound(getDomain('retail'))),
  ...(await benchExport(getDomain('retail'))),
  ...(await benchServe(getDomain('retail'))),
  ...(await benchViewer()),
  ...(await benchQueue()),
};

/** `<domain>_replay_ms_per_task` and its CPU-time twin. */
function replayKeys(name: string): Record<string, number> {
  const r = benchReplayPerTask(getDomain(name), tau2Dir);
  return {
    [`${name}_replay_ms_per_task`]: round(r.wallMs, 3),
    [`${name}_replay_cpu_ms_per_task`]: round(r.cpuMs, 3),
  };
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
