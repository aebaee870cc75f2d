import type { Domain } from '../domain.js';
import { AIRLINE_ENVIRONMENT, AIRLINE_VERSION, TAU2_AIRLINE_INITIAL_HASHES } from './environment.js';
import { importAirlineDb } from './import-db.js';
import { airlineOutputSchemas } from './output-schemas.js';
import { AIRLINE_INSTRUCTIONS_COVE, AIRLINE_POLICY_COVE } from './policy.js';
import { generateAirlineSandbox } from './sandbox/generate.js';
import { AirlineOracleAgent } from './sim/oracle-agent.js';
import { AirlineScriptedUser } from './sim/scripted-user.js';
import { drawAirlineTask } from './synthesis/draw.js';
import { AIRLINE_CONSTRAINT_KINDS } from './synthesis/kinds.js';
import { AIRLINE_MIXES } from './synthesis/mixes.js';
import { recheckAirlineReferences } from './synthesis/recheck.js';
import type { AirlineFuzz } from './synthesis/requests.js';

/**
 * The airline domain: τ²-compatible flights, users and reservations. It serves τ²'s airline DB and tools (replay,
 * evaluation, model-played agents on τ² tasks), makes seeded sandbox DBs (`sandbox/`), synthesizes CoVe tasks
 * (`synthesis/`) and plays them with its scripted roles (`sim/`: the oracle agent and the scripted customer);
 * docs/airline.md.
 */
export const airlineDomain: Domain = {
  ...AIRLINE_ENVIRONMENT,
  version: AIRLINE_VERSION,
  tau2: { initialHashes: TAU2_AIRLINE_INITIAL_HASHES, importDb: importAirlineDb },
  sandbox: {
    sizes: {
      users: { default: 500, description: 'number of users (τ²: 500)' },
      reservations: { default: 2000, description: 'number of reservations (τ²: 2000)' },
    },
    generate: (seed, size) =>
      generateAirlineSandbox({ seed, users: size.users, reservations: size.reservations }),
  },
  policy: { cove: AIRLINE_POLICY_COVE, instructions: AIRLINE_INSTRUCTIONS_COVE },
  synthesis: {
    kinds: AIRLINE_CONSTRAINT_KINDS,
    mixes: AIRLINE_MIXES,
    draw: drawAirlineTask,
    recheck: recheckAirlineReferences,
    scarcityHint: 'use a DB with more reservations per user',
  },
  outputSchemas: airlineOutputSchemas(),
  simulation: {
    createOracleAgent: (task, rng) => new AirlineOracleAgent(task.fuzz as unknown as AirlineFuzz, rng),
    createScriptedUser: (task, rng) =>
      new AirlineScriptedUser(task.fuzz as unknown as AirlineFuzz, rng, task.behaviour),
  },
};
