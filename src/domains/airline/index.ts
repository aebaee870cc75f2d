import type { Domain } from '../domain.js';
import { AIRLINE_ENVIRONMENT, AIRLINE_VERSION, TAU2_AIRLINE_INITIAL_HASHES } from './environment.js';
import { importAirlineDb } from './import-db.js';
import { airlineOutputSchemas } from './output-schemas.js';
import { AIRLINE_INSTRUCTIONS_COVE, AIRLINE_POLICY_COVE } from './policy.js';

/**
 * The airline domain: τ²-compatible flights, users and reservations. It serves τ²'s airline DB and tools (replay,
 * evaluation, model-played agents on τ² tasks); it has no sandbox generator, constraint kinds or scripted roles yet.
 */
export const airlineDomain: Domain = {
  ...AIRLINE_ENVIRONMENT,
  version: AIRLINE_VERSION,
  tau2: { initialHashes: TAU2_AIRLINE_INITIAL_HASHES, importDb: importAirlineDb },
  policy: { cove: AIRLINE_POLICY_COVE, instructions: AIRLINE_INSTRUCTIONS_COVE },
  outputSchemas: airlineOutputSchemas(),
};
