import type { PyValue } from '../core/py-value.js';
import type { Rng } from '../core/rng.js';
import type { EnvironmentSpec } from '../env/environment.js';
import type { SqlConnection } from '../env/sql.js';
import type { StateHashes } from '../env/state-digest.js';
import type { Agent, UserSimulator } from '../sim/roles.js';
import type { CoveBlock } from '../tasks/cove-task.js';
import type { DomainSynthesis } from '../tasks/synthesis.js';

/**
 * A domain plug-in (design.md §5): schema, tools and state collections (the {@link EnvironmentSpec}), plus τ²
 * import, policy texts and, for synthesis, constraint kinds and a sandbox generator. Shared code never branches
 * on a domain's name.
 */
export interface Domain extends EnvironmentSpec {
  /** Stamped into every output made with this domain. */
  readonly version: string;
  /** Hashes of τ²'s pristine DB of this domain, checked whenever that DB is loaded from a τ² data directory. */
  readonly tau2InitialHashes?: StateHashes;
  /**
   * Validates a τ² `db.json` value and inserts it into `sql` (which already has the schema).
   * @throws {InputFileError} naming `file` and the JSON path of the first problem.
   */
  importTau2(sql: SqlConnection, value: PyValue, file: string): void;
  /** The agent policy and instruction block in cove's own words (`text: cove`). */
  readonly policy: { readonly cove: string; readonly instructions: string };
  /** Scripted roles for generated tasks: the oracle agent and the scripted user. */
  readonly simulation?: DomainSimulation;
  /** Constraint kinds and the seeded task draw (CoVe synthesis); optional per domain. */
  readonly synthesis?: DomainSynthesis;
  /** Generates a synthetic DB in τ²'s db.json shape (a fresh, seeded sandbox); optional per domain. */
  readonly generateSandbox?: (options: SandboxOptions) => PyValue;
}

/** Options of a domain's sandbox generator. */
export interface SandboxOptions {
  /** Drives every random choice: the same options give the same DB, byte for byte. */
  readonly seed: number;
  /** Number of users. @defaultValue the domain's τ²-like size (retail: 500) */
  readonly users?: number;
  /** Number of orders (retail) or the domain's main entity. @defaultValue τ²-like (retail: 1000) */
  readonly orders?: number;
}

/** A domain's scripted roles, built from a generated task's `cove` block and a seeded Rng. */
export interface DomainSimulation {
  createOracleAgent(task: CoveBlock, rng: Rng): Agent;
  createScriptedUser(task: CoveBlock, rng: Rng): UserSimulator;
}
