import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { getDomain } from '../src/domains/registry.js';
import { benchEnvironment } from './env-bench.js';
import { benchScriptedEpisodes } from './generate-bench.js';
import { benchLlmBound } from './llm-bench.js';
import { benchViewer } from './view-bench.js';

const tau2Dir = process.env.COVE_TAU2_DATA ?? fileURLToPath(new URL('../../shared/tau2', import.meta.url));
const results: Record<string, unknown> = {
  node_version: process.version,
  cpu_cores: availableParallelism(),
  ...benchEnvironment(getDomain('retail'), tau2Dir),
  ...(await benchScriptedEpisodes(getDomain('retail'))),
  ...(await benchLlmBound(getDomain('retail'))),
  ...(await benchViewer()),
};
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
