import { type LoadedDb, loadDbFile } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { RETAIL_DB } from './paths.js';

let cached: LoadedDb | undefined;

/** τ²'s retail DB loaded once per test file (episodes fork from it and never change it). */
export function tau2RetailBase(): LoadedDb {
  cached ??= loadDbFile(retailDomain, RETAIL_DB, { expectTau2Pristine: true });
  return cached;
}
