import type { Domain } from '../domain.js';
import { RETAIL_ENVIRONMENT, RETAIL_VERSION, TAU2_RETAIL_INITIAL_HASHES } from './environment.js';
import { importRetailDb } from './import-db.js';
import { retailOutputSchemas } from './output-schemas.js';
import { AGENT_INSTRUCTIONS_COVE, RETAIL_POLICY_COVE } from './policy.js';
import { generateRetailSandbox } from './sandbox/generate.js';
import { RetailOracleAgent } from './sim/oracle-agent.js';
import { RetailScriptedUser } from './sim/scripted-user.js';
import { drawRetailTask } from './synthesis/draw.js';
import { RETAIL_CONSTRAINT_KINDS } from './synthesis/kinds.js';
import { RETAIL_MIXES } from './synthesis/mixes.js';
import { recheckRetailReferences } from './synthesis/recheck.js';
import type { RetailFuzz } from './synthesis/requests.js';

/** The retail domain: τ²-compatible store with users, orders and products. */
export const retailDomain: Domain = {
  ...RETAIL_ENVIRONMENT,
  version: RETAIL_VERSION,
  tau2: { initialHashes: TAU2_RETAIL_INITIAL_HASHES, importDb: importRetailDb },
  sandbox: {
    sizes: {
      users: { default: 500, description: 'number of users (τ²: 500)' },
      orders: { default: 1000, description: 'number of orders (τ²: 1000)' },
    },
    generate: (seed, size) => generateRetailSandbox({ seed, users: size.users, orders: size.orders }),
  },
  policy: { cove: RETAIL_POLICY_COVE, instructions: AGENT_INSTRUCTIONS_COVE },
  outputSchemas: retailOutputSchemas(),
  simulation: {
    createOracleAgent: (task, rng) =>
      new RetailOracleAgent(task.fuzz as unknown as RetailFuzz, rng, task.behaviour),
    createScriptedUser: (task, rng) =>
      new RetailScriptedUser(task.fuzz as unknown as RetailFuzz, rng, task.behaviour),
  },
  synthesis: {
    kinds: RETAIL_CONSTRAINT_KINDS,
    mixes: RETAIL_MIXES,
    draw: drawRetailTask,
    recheck: recheckRetailReferences,
    scarcityHint: 'use a DB with more orders per user',
  },
};
