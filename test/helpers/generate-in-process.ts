import { resolve } from 'node:path';
import { taskSource } from '../../src/cli/generate-setup.js';
import { agentContext } from '../../src/domains/agent-context.js';
import { getDomain } from '../../src/domains/registry.js';
import { scriptedRoles } from '../../src/run/roles.js';
import { type GenerateRunResult, runGenerate } from '../../src/run/run-generate.js';
import { generateFingerprint } from '../../src/run/run-identity.js';
import { COVE_VERSION } from '../../src/version.js';

/**
 * `cove generate --n N --seed S --out DIR` with every other flag at its default (Retail sandbox of the seed, mixed
 * difficulty, fuzz 2, parity, oracle agent and scripted user), run in this process through the run API
 * (`runGenerate`) instead of a CLI child process: for tests of what a run writes rather than of the CLI itself.
 */
export async function generateInProcess(options: {
  n: number;
  seed?: number;
  out: string;
}): Promise<GenerateRunResult> {
  const domain = getDomain('retail');
  const seed = options.seed ?? 1;
  const out = resolve(options.out);
  const source = taskSource(domain, {}, { seed, difficulty: 'mixed', fuzz: 2, semantics: 'parity', out });
  try {
    return await runGenerate({
      domain,
      source,
      out,
      seed,
      n: options.n,
      settings: { semantics: 'parity', text: 'cove', guidelines: 'scripted' },
      agentContext: agentContext(domain, 'cove'),
      roles: scriptedRoles(domain),
      limits: { maxSteps: 200, maxErrors: 10, repeatedCallLimit: 5 },
      concurrency: 64,
      attempts: 1,
      fingerprint: generateFingerprint({
        domain: domain.name,
        source: source.sourceId,
        seed,
        synthesis: { difficulty: 'mixed', fuzz: 2 },
        semantics: 'parity',
        text: 'cove',
        agent: 'oracle',
        user: 'scripted',
      }),
      coveVersion: COVE_VERSION,
      command: ['generate', '--n', String(options.n), '--seed', String(seed), '--out', out],
    });
  } finally {
    source.loaded.base.close();
  }
}
