import { ConfigError } from '../core/errors.js';
import type { Domain } from '../domains/domain.js';
import type { RoleFactory } from './episode-runner.js';

/**
 * The offline roles: the domain's oracle agent and scripted user (design.md §5). They need generated tasks
 * (with a `cove` block).
 * @throws {ConfigError} for a domain without scripted roles.
 */
export function scriptedRoles(domain: Domain): RoleFactory {
  const sim = domain.simulation;
  if (sim === undefined) throw new ConfigError(`domain ${domain.name} has no oracle agent or scripted user`);
  return {
    agentName: 'oracle',
    userName: 'scripted',
    createAgent: (task, rng) => sim.createOracleAgent(task.cove, rng),
    createUser: (task, rng) => sim.createScriptedUser(task.cove, rng),
  };
}
