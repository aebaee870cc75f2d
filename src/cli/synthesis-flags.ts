import type { Command } from 'commander';
import { ConfigError } from '../core/errors.js';
import type { Semantics } from '../env/tool.js';
import type { Difficulty } from '../tasks/cove-task.js';
import type { FuzzLevel } from '../tasks/synthesis.js';

/** Adds the task-synthesis options shared by `cove tasks` and `cove generate`. */
export function withSynthesisOptions(command: Command): Command {
  return command
    .option('--difficulty <level>', 'easy (1 constraint), medium (2-3), hard (4-6) or mixed', 'mixed')
    .option('--fuzz <level>', '0 keeps ids, 1 fuzzifies some references, 2 all', '2')
    .option('--k <count>', 'exact number of constraints per task (overrides --difficulty)')
    .option(
      '--mix <name>',
      'task mix: uniform (difficulty drawn uniformly) or a preset of the domain, e.g. tau2 (close to τ²-bench Retail)',
      'uniform',
    )
    .option('--semantics <mode>', 'tool semantics: parity (τ² exactly, bugs included) or fixed', 'parity');
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
