import { join } from 'node:path';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { type LoadedDb, loadDbFile } from '../../src/domains/load-db.js';
import { TAU2 } from './paths.js';

export const AIRLINE_DB = join(TAU2, 'airline', 'db.json');
export const AIRLINE_TASKS = join(TAU2, 'airline', 'tasks.json');
export const AIRLINE_LEGACY_TASKS = join(TAU2, 'legacy_v0.1.0', 'airline', 'tasks.json');

let cached: LoadedDb | undefined;

/** τ²'s airline DB loaded once per test file (episodes fork from it and never change it). */
export function tau2AirlineBase(): LoadedDb {
  cached ??= loadDbFile(airlineDomain, AIRLINE_DB, { expectTau2Pristine: true });
  return cached;
}
