import { Rng } from '../../src/core/rng.js';
import { baseFromValue, type LoadedDb } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import type { Episode } from '../../src/env/episode.js';
import { type EpisodeOutcome, runEpisode } from '../../src/sim/run-episode.js';
import type { CoveTask, Difficulty } from '../../src/tasks/cove-task.js';
import type { SynthesisOptions } from '../../src/tasks/sampler.js';
import { coveEvaluator } from '../../src/verify/cove-evaluator.js';
import type { Verification } from '../../src/verify/verification.js';

/**
 * A seeded Retail sandbox for tests that check synthesized tasks against the DB: the base episodes fork from, and
 * the same DB as plain JSON (the reference the tests read facts from, independent of what synthesis recorded).
 */
export function retailSandbox<Db>(seed: number): { loaded: LoadedDb; db: Db } {
  const value = generateRetailSandbox({ seed });
  const db = JSON.parse(
    JSON.stringify(value, (_k, v) => (v instanceof Map ? Object.fromEntries(v) : v)),
  ) as Db;
  return { loaded: baseFromValue(retailDomain, value, 'sandbox'), db };
}

/** Synthesis options for a sandbox's tasks: fuzz 2, parity semantics, a placeholder DB source. */
export function sandboxSynthesisOptions(seed: number, difficulty: Difficulty): SynthesisOptions {
  return {
    domain: 'retail',
    seed,
    difficulty,
    fuzz: 2,
    semantics: 'parity',
    db: { path: 'x', canonical_sha256: 'y', benchmark: false },
    coveVersion: 'test',
  };
}

/**
 * Plays `task` with the scripted user and the oracle agent on a fresh fork (seeded by the task's index, as
 * `cove generate` does) and verifies it. The caller closes `env` once it has read the final state.
 */
export async function playOracle(
  loaded: LoadedDb,
  task: CoveTask,
): Promise<{ outcome: EpisodeOutcome; v: Verification; env: Episode }> {
  const sim = retailDomain.simulation as NonNullable<typeof retailDomain.simulation>;
  const env = loaded.base.fork();
  const rng = new Rng(task.cove.index);
  const outcome = await runEpisode(
    env,
    sim.createOracleAgent(task.cove, rng.child('agent')),
    sim.createScriptedUser(task.cove, rng.child('user')),
  );
  const v = coveEvaluator(retailDomain).evaluate({ task, outcome, env }).verification;
  return { outcome, v, env };
}
