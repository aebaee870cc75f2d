import { ConfigError } from '../core/errors.js';
import { sha256Hex } from '../core/hash.js';
import type { Domain } from '../domains/domain.js';
import { readJsonFile } from '../domains/load-db.js';
import type { Semantics } from '../env/tool.js';
import { readInputText } from '../io/read-input.js';
import { type PrefixState, replayPrefixes, withPrefix } from '../run/prefix-states.js';
import type { TaskSource } from '../run/task-source.js';
import type { PrefixFile } from '../sim/prefix/prefix-file.js';
import type { CoveTask, Difficulty } from '../tasks/cove-task.js';
import type { SynthesisOptions } from '../tasks/sampler.js';
import { synthesizeVettedTask, taskMix, UnsatisfiableTaskError } from '../tasks/sampler.js';
import type { FuzzLevel } from '../tasks/synthesis.js';
import type { RunTask } from '../tasks/task.js';
import { parseTau2Tasks } from '../tasks/tau2-task.js';
import { COVE_VERSION } from '../version.js';
import { chooseDb, intFlag, MAX_SEED } from './db-source.js';
import { allCoveTasks, loadCoveTasks, loadTau2Tasks } from './tasks-input.js';

/** Flags that decide the tasks of `cove generate`. */
export interface TaskFlags {
  db?: string;
  sandboxSeed?: string;
  tasks?: string;
  tau2Data?: string;
}

/**
 * Sets up the tasks of a run: `--tasks FILE` (cove tasks only), else synthesis from `--db` or a sandbox (its seed
 * is `--sandbox-seed`, else `--seed`). Synthesized tasks are made lazily and kept, so `--target-sft` can ask for
 * more; task i depends only on (seed, i).
 */
export function taskSource(
  domain: Domain,
  flags: TaskFlags,
  options: {
    seed: number;
    difficulty: Difficulty | 'mixed';
    fuzz: FuzzLevel;
    semantics: Semantics;
    k?: number;
    /** `--goals`: goals per session, recorded in each task (see {@link SynthesisOptions.goals}). */
    goals?: number;
    /** The task mix (`--mix`). @defaultValue 'uniform' */
    mix?: string;
    /** The run folder, where tasks.json is written (a DB path is recorded relative to it). */
    out: string;
    /** `--from`: conversations replayed on the DB; task i is drawn from the state after conversation i mod count. */
    from?: PrefixFile;
  },
): TaskSource {
  if (flags.tasks !== undefined) {
    if (options.from !== undefined)
      throw new ConfigError(
        '--from cannot be used with --tasks: the tasks of a --from run are drawn from the state after each conversation',
      );
    if (flags.sandboxSeed !== undefined)
      throw new ConfigError('give either --tasks or --sandbox-seed, not both');
    const sourceId = `tasks:${sha256Hex(readInputText(flags.tasks)).slice(0, 16)}`;
    if (!allCoveTasks(parseTau2Tasks(readJsonFile(flags.tasks), flags.tasks))) {
      const input = loadTau2Tasks(domain, flags.tasks, { db: flags.db, tau2Data: flags.tau2Data });
      return {
        semantics: options.semantics,
        loaded: input.loaded,
        sourceId,
        tasks: async (n) => input.tasks.slice(0, n),
        open: false,
        cove: false,
        tasksText: input.text,
      };
    }
    const input = loadCoveTasks(domain, flags.tasks, flags.db);
    return {
      semantics: input.semantics,
      loaded: input.loaded,
      ...(input.sandboxText === undefined ? {} : { sandboxText: input.sandboxText }),
      sourceId,
      tasks: async (n) => input.tasks.slice(0, n),
      open: false,
      cove: true,
    };
  }
  const synthesis = domain.synthesis;
  if (synthesis === undefined) throw new ConfigError(`domain ${domain.name} cannot synthesize tasks`);
  taskMix(synthesis, options.mix);
  // an explicit --sandbox-seed next to --db is refused by chooseDb, not ignored
  const sandboxSeed =
    flags.sandboxSeed !== undefined || flags.db === undefined
      ? intFlag('--sandbox-seed', flags.sandboxSeed, options.seed, 0, MAX_SEED)
      : undefined;
  // tasks.json is written into the run folder: a DB path is recorded relative to it
  const choice = chooseDb(domain, { db: flags.db, sandboxSeed, pathBase: options.out });
  const synthesisOptions: SynthesisOptions = {
    domain: domain.name,
    seed: options.seed,
    difficulty: options.difficulty,
    fuzz: options.fuzz,
    semantics: options.semantics,
    ...(options.k === undefined ? {} : { k: options.k }),
    ...(options.goals === undefined ? {} : { goals: options.goals }),
    ...(options.mix === undefined || options.mix === 'uniform' ? {} : { mix: options.mix }),
    db: choice.source,
    coveVersion: COVE_VERSION,
  };
  const prefixes =
    options.from === undefined
      ? undefined
      : replayPrefixes(domain, choice.loaded.base, options.from, options.semantics);
  const made: RunTask[] = [];
  let resumed = false;
  /**
   * Task `index`, drawn from the state after its conversation (`--from`) and about the customer the conversation
   * identified, if it did. @throws {UnsatisfiableTaskError} naming the conversation and the customer when no
   * task can be drawn for them.
   */
  const draw = async (index: number, state: PrefixState | undefined) => {
    const base = state?.base ?? choice.loaded.base;
    if (state?.userId === undefined) return synthesizeVettedTask(domain, base, synthesisOptions, index);
    try {
      return await synthesizeVettedTask(domain, base, { ...synthesisOptions, userId: state.userId }, index);
    } catch (e) {
      if (!(e instanceof UnsatisfiableTaskError)) throw e;
      throw new UnsatisfiableTaskError(
        `${options.from?.file}: conversation '${state.prefix.id}' identified user ${state.userId}, ` +
          `and the tasks paired with it must be about that user: ${e.message}`,
      );
    }
  };
  return {
    loaded: choice.loaded,
    ...(choice.sandboxText === undefined ? {} : { sandboxText: choice.sandboxText }),
    sourceId:
      flags.db === undefined ? `sandbox:${sandboxSeed}` : `db:${choice.loaded.hashes.canonical_sha256}`,
    semantics: options.semantics,
    async tasks(n, onTask, shouldStop, checkpoint) {
      if (!resumed && checkpoint !== undefined) {
        resumed = true;
        checkpoint.existing.forEach((task, i) => {
          const cove = (task as Partial<CoveTask>).cove;
          if (
            cove?.index !== i ||
            cove.seed !== options.seed ||
            cove.db?.canonical_sha256 !== choice.loaded.hashes.canonical_sha256 ||
            cove.prefix?.id !== prefixes?.forIndex(i).prefix.id
          ) {
            throw new ConfigError(
              `${options.out}: task ${i} in tasks.json or tasks.partial.jsonl is not task ${i} of this run ` +
                `(seed ${options.seed}, DB ${choice.loaded.hashes.canonical_sha256.slice(0, 12)}…); the folder was edited: use another --out`,
            );
          }
          made.push(task);
        });
        onTask?.(made.length);
      }
      while (made.length < n && shouldStop?.() !== true) {
        // with --from, task i is drawn from the state after its conversation's tool calls
        const state = prefixes?.forIndex(made.length);
        const drawn = await draw(made.length, state);
        const task = state === undefined ? drawn.task : withPrefix(drawn.task, state);
        checkpoint?.save(task);
        made.push(task);
        onTask?.(made.length);
        if (made.length % 16 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return made.slice(0, n);
    },
    open: true,
    cove: true,
    ...(prefixes === undefined ? {} : { prefixes }),
  };
}

export type { TaskSource };
