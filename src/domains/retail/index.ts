import type { Domain } from '../domain.js';
import { RETAIL_ENVIRONMENT, TAU2_RETAIL_INITIAL_HASHES } from './environment.js';
import { importRetailDb } from './import-db.js';
import { generateRetailSandbox } from './sandbox/generate.js';
import { drawRetailTask } from './synthesis/draw.js';
import { RETAIL_CONSTRAINT_KINDS } from './synthesis/kinds.js';
import { recheckRetailReferences } from './synthesis/recheck.js';

/** The retail domain: τ²-compatible store with users, orders and products. */
export const retailDomain: Domain = {
  ...RETAIL_ENVIRONMENT,
  version: 'retail-1',
  tau2InitialHashes: TAU2_RETAIL_INITIAL_HASHES,
  importTau2: importRetailDb,
  generateSandbox: generateRetailSandbox,
  synthesis: { kinds: RETAIL_CONSTRAINT_KINDS, draw: drawRetailTask, recheck: recheckRetailReferences },
};
