import type { Command } from 'commander';
import { ConfigError } from '../core/errors.js';
import type { Semantics } from '../env/tool.js';
import type { Difficulty } from '../tasks/cove-task.js';
import type { FuzzLevel } from '../tasks/synthesis.js';
import { intFlag } from './db-source.js';

/** Adds the task-synthesis options shared by `cove tasks` and `cove generate`. */
export function withSynthesisOptions(command: Command): Command {
  return command
    .option('--difficulty <level>', 'easy (1 constraint), medium (2-3), hard (4-6) or mixed', 'mixed')
    .option('--fuzz <level>', '0 keeps ids, 1 fuzzifies some references, 2 all', '2')
    .option('--k <count>', 'exact number of constraints per task (overrides --difficulty)')
    .option(
      '--goals <count>',
      'goals per session, 1 to 5: each task is one conversation on one DB copy in which the user brings up this many requests (one constraint each); instead of --k and --difficulty',
    )
    .option(
      '--mix <name>',
      'task mix: uniform (difficulty drawn uniformly) or a preset of the domain, e.g. tau2 (close to τ²-bench Retail)',
      'uniform',
    )
    .option('--semantics <mode>', 'tool semantics: parity (τ² exactly, bugs included) or fixed', 'parity');
}

/** Most goals one session may hold (issue 18: a session holds one to five goals). */
export const MAX_GOALS = 5;

/**
 * The number of constraints per task from `--k` or `--goals` (docs/sql-domains.md, "Sessions with several goals"):
 * `--goals N` (1 to {@link MAX_GOALS}) fixes the number of goals of each session, one constraint per goal, and is
 * recorded in each task's `cove.goals`; it cannot be combined with `--k` or an explicit `--difficulty`, which
 * also decide that number. `difficultyGiven`: `--difficulty` was given on the command line.
 * @throws {ConfigError} naming the flag and the value.
 */
export function goalFlags(
  flags: { k?: string | undefined; goals?: string | undefined },
  difficultyGiven: boolean,
): { k?: number; goals?: number } {
  if (flags.goals === undefined) return flags.k === undefined ? {} : { k: intFlag('--k', flags.k, 1, 1) };
  if (flags.k !== undefined)
    throw new ConfigError(
      'give either --goals or --k, not both: --goals N makes tasks of N constraints, one per goal',
    );
  if (difficultyGiven)
    throw new ConfigError(
      'give either --goals or --difficulty, not both: the number of goals decides the difficulty (1 easy, 2-3 medium, 4-5 hard)',
    );
  const goals = intFlag('--goals', flags.goals, 1, 1, MAX_GOALS);
  return { k: goals, goals };
}

/**
 * Parses `--difficulty`, `--fuzz`, `--semantics` and `--mix` (its name is checked against the domain by
 * `taskMix`). @throws {ConfigError}
 */
export function synthesisFlags(flags: { difficulty: string; fuzz: string; semantics: string; mix?: string }) {
  if (!['easy', 'medium', 'hard', 'mixed'].includes(flags.difficulty)) {
    throw new ConfigError(`--difficulty must be easy, medium, hard or mixed, not '${flags.difficulty}'`);
  }
  if (!['0', '1', '2'].includes(flags.fuzz))
    throw new ConfigError(`--fuzz must be 0, 1 or 2, not '${flags.fuzz}'`);
  if (flags.semantics !== 'parity' && flags.semantics !== 'fixed') {
    throw new ConfigError(`--semantics must be parity or fixed, not '${flags.semantics}'`);
  }
  return {
    difficulty: flags.difficulty as Difficulty | 'mixed',
    fuzz: Number(flags.fuzz) as FuzzLevel,
    semantics: flags.semantics as Semantics,
    mix: flags.mix ?? 'uniform',
  };
}
