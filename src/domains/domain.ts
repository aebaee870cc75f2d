import type { JsonSchema } from '../core/json-schema-check.js';
import type { PyValue } from '../core/py-value.js';
import type { Rng } from '../core/rng.js';
import type { EnvironmentSpec } from '../env/environment.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import type { SqlConnection } from '../env/sql.js';
import type { StateHashes } from '../env/state-digest.js';
import type { Agent, UserSimulator } from '../sim/roles.js';
import type { CoveBlock } from '../tasks/cove-task.js';
import type { DomainSynthesis } from '../tasks/synthesis.js';

/**
 * A domain plug-in (docs/design.md §5, amended in round 2): a required core — name, version, SQL schema, tools, state
 * collections (the {@link EnvironmentSpec}) and policy text — plus optional capabilities: `tau2` (import of a
 * τ² db.json and τ²'s pristine hashes), `sandbox` (seeded synthetic DBs with a declared size map), `synthesis`
 * (CoVe constraint kinds and the task draw) and `simulation` (the scripted roles). Shared code never branches on
 * a domain's name; it asks for a capability and says clearly when a domain lacks it.
 */
export interface Domain extends DomainEnvironment {
  /** The agent policy and instruction block in cove's own words (`text: cove`). */
  readonly policy: { readonly cove: string; readonly instructions: string };
  /** τ² compatibility: import of τ²'s db.json shape and the hashes of τ²'s pristine DB. */
  readonly tau2?: DomainTau2;
  /** Seeded synthetic databases in the domain's db.json shape (loaded through `tau2.importDb`). */
  readonly sandbox?: DomainSandbox;
  /** Constraint kinds and the seeded task draw (CoVe synthesis). */
  readonly synthesis?: DomainSynthesis;
  /** Scripted roles for generated tasks: the oracle agent and the scripted user. */
  readonly simulation?: DomainSimulation;
  /** Database files of the domain's own format (e.g. a SQLite file), for domains without a τ² import. */
  readonly files?: DomainFiles;
  /**
   * The JSON Schema of each tool's successful output, by tool name (a string output is `{type: 'string'}`): what a
   * model playing the tools must answer (`cove generate --tool-outputs model`, docs/design.md "Tool outputs played by
   * a model"). SQL domains take them from their spec; Retail and Airline derive them from their data model.
   */
  readonly outputSchemas?: Readonly<Record<string, JsonSchema>>;
}

/**
 * A domain without the code of its capabilities: the environment, the version and τ²'s pristine hashes. It is what
 * a replay of τ² tasks from the cache of bases needs, and loads much faster than the whole {@link Domain} (no db.json
 * validation, no synthesis or scripted roles); see `load-domain.ts`.
 */
export interface DomainEnvironment extends EnvironmentSpec {
  /** Stamped into every output made with this domain. */
  readonly version: string;
  /** τ² compatibility; here only the pristine hashes are known (see {@link DomainTau2}). */
  readonly tau2?: Pick<DomainTau2, 'initialHashes'>;
}

/** A domain's own database files: `--db` and the DB a tasks file records are opened through it. */
export interface DomainFiles {
  /** A fresh base from `file` (never written). @throws {InputFileError} for unreadable or foreign files. */
  openBase(file: string): EnvironmentBase;
}

/** A domain's τ² capability. The dump side is generic (the state collections dump their entities). */
export interface DomainTau2 {
  /** Hashes of τ²'s pristine DB of this domain, checked whenever that DB is loaded from a τ² data directory. */
  readonly initialHashes?: StateHashes;
  /**
   * Validates a db.json value in τ²'s shape and inserts it into `sql` (which already has the schema).
   * @throws {InputFileError} naming `file` and the JSON path of the first problem.
   */
  importDb(sql: SqlConnection, value: PyValue, file: string): void;
}

/** One size a sandbox generator takes (e.g. retail `users`, `orders`). */
export interface SandboxSize {
  /** τ²-like default. */
  readonly default: number;
  /** Shown in `--help`. */
  readonly description: string;
  /** @defaultValue 1 */
  readonly min?: number;
  /** @defaultValue 100,000 */
  readonly max?: number;
}

/** A domain's sandbox generator: a seeded synthetic DB in its db.json shape. */
export interface DomainSandbox {
  /** The size map's keys (each also a `--<key>` flag of `cove sandbox`), with defaults and bounds. */
  readonly sizes: Readonly<Record<string, SandboxSize>>;
  /** The same seed and size give the same value, byte for byte once written. `size` holds every declared key. */
  generate(seed: number, size: Readonly<Record<string, number>>): PyValue;
}

/** A domain's scripted roles, built from a generated task's `cove` block and a seeded Rng. */
export interface DomainSimulation {
  createOracleAgent(task: CoveBlock, rng: Rng): Agent;
  createScriptedUser(task: CoveBlock, rng: Rng): UserSimulator;
}

/** A sandbox size map with every declared key: the given sizes over the defaults. @throws {Error} for unknown keys. */
export function sandboxSize(
  sandbox: DomainSandbox,
  given: Readonly<Record<string, number | undefined>> = {},
): Record<string, number> {
  const size: Record<string, number> = {};
  for (const [key, spec] of Object.entries(sandbox.sizes)) size[key] = given[key] ?? spec.default;
  for (const key of Object.keys(given)) {
    if (given[key] !== undefined && !(key in sandbox.sizes)) throw new Error(`unknown sandbox size '${key}'`);
  }
  return size;
}
