import type { Domain } from '../domain.js';
import { AIRLINE_ENVIRONMENT, AIRLINE_VERSION, TAU2_AIRLINE_INITIAL_HASHES } from './environment.js';
import { importAirlineDb } from './import-db.js';
import { AIRLINE_INSTRUCTIONS_COVE, AIRLINE_POLICY_COVE } from './policy.js';
import { AirlineOracleAgent } from './sim/oracle-agent.js';
import { AirlineScriptedUser } from './sim/scripted-user.js';
import type { AirlineFuzz } from './synthesis/requests.js';

/**
 * The airline domain: τ²-compatible flights, users and reservations. It serves τ²'s airline DB and tools (replay,
 * evaluation, model-played agents on τ² tasks) and plays generated tasks with its scripted roles (`simulation`:
 * the oracle agent and the scripted customer, docs/airline.md).
 */
export const airlineDomain: Domain = {
  ...AIRLINE_ENVIRONMENT,
  version: AIRLINE_VERSION,
  tau2: { initialHashes: TAU2_AIRLINE_INITIAL_HASHES, importDb: importAirlineDb },
  policy: { cove: AIRLINE_POLICY_COVE, instructions: AIRLINE_INSTRUCTIONS_COVE },
  simulation: {
    createOracleAgent: (task, rng) => new AirlineOracleAgent(task.fuzz as unknown as AirlineFuzz, rng),
    createScriptedUser: (task, rng) =>
      new AirlineScriptedUser(task.fuzz as unknown as AirlineFuzz, rng, task.behaviour),
  },
};
