import { deriveSeed } from '../src/core/rng.js';
import { agentContext } from '../src/domains/agent-context.js';
import type { Domain } from '../src/domains/domain.js';
import type { EnvironmentBase } from '../src/env/environment-base.js';
import type { RunContext } from '../src/run/episode-runner.js';
import { scriptedRoles } from '../src/run/roles.js';

/** The run context of the bench workloads: the domain's oracle agent and scripted user, cove texts, parity. */
export function scriptedBenchContext(domain: Domain, base: EnvironmentBase, dbSha256: string): RunContext {
  return {
    run: 'bench',
    domain,
    base,
    dbSha256,
    benchmarkData: false,
    seed: deriveSeed(1, 'bench'),
    settings: { semantics: 'parity', text: 'cove', guidelines: 'scripted' },
    agentContext: agentContext(domain, 'cove'),
    roles: scriptedRoles(domain),
    limits: {},
    coveVersion: 'bench',
  };
}
