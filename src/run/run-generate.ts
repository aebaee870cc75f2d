import type { Domain } from '../domains/domain.js';
import type { ChatModel } from '../llm/chat-model.js';
import type { UsageMeter } from '../llm/usage-meter.js';
import type { AgentContext } from '../sim/agent-context.js';
import type { EpisodeLimits } from '../sim/episode-session.js';
import type { RoleFactory } from './episode-runner.js';
import { type EpisodeExecutor, generate } from './generate.js';
import type { PrefixStates } from './prefix-states.js';
import { checkRunFolder, type RunPaths, runPaths } from './run-folder.js';
import { checkRunFolderWritable, runIdOf } from './run-identity.js';
import { lockRunFolder } from './run-lock.js';
import type { RunSummary } from './summary.js';
import { dropTaskCheckpoint, openTaskCheckpoint } from './task-checkpoint.js';
import type { TaskSource } from './task-source.js';
import type { SftOptions, TrajectorySettings } from './trajectory.js';

/** A progress display for one phase (`tasks` while synthesizing, `episodes` while running). */
export interface PhaseProgress {
  update(done: number, note?: string): void;
  /** `note` is `stopped` when the phase ended early (Ctrl-C, budget). */
  stop(note?: string): void;
}

/** Everything a `cove generate` run needs, as a library call (the CLI only parses flags and prints). */
export interface GenerateRunOptions {
  readonly domain: Domain;
  readonly source: TaskSource;
  /** Run folder (absolute). */
  readonly out: string;
  readonly seed: number;
  /** Number of tasks (a tasks file gives at most what it holds). */
  readonly n: number;
  readonly settings: TrajectorySettings;
  readonly agentContext: AgentContext;
  readonly roles: RoleFactory;
  /** The rubric judge of descriptive tasks (`--judge`, docs/descriptive-tasks.md). */
  readonly judge?: ChatModel;
  readonly limits: EpisodeLimits;
  readonly concurrency: number;
  readonly attempts: number;
  /** Keep adding tasks until this many trajectories pass (at most 50× the target). */
  readonly targetSft?: number;
  /** Which trajectories enter sft.jsonl beyond the default rule (`--allow-simulated-tools`). */
  readonly sft?: SftOptions;
  /** Settings that must match to resume; the run's id is derived from it. */
  readonly fingerprint: Readonly<Record<string, unknown>>;
  readonly coveVersion: string;
  /** Recorded in run.json. */
  readonly command: readonly string[];
  readonly meter?: UsageMeter;
  /** Polled before each new episode and task: true stops starting new ones (budget reached, Ctrl-C). */
  readonly shouldStop?: () => boolean;
  /** Aborts the episodes under way (their model calls); they are not recorded. */
  readonly signal?: AbortSignal;
  readonly startPhase?: (phase: 'tasks' | 'episodes', total: number) => PhaseProgress;
  readonly onWarning?: (message: string) => void;
  /** Runs one episode elsewhere (the distributed coordinator, docs/distributed.md); default: in this process. */
  readonly runEpisode?: EpisodeExecutor;
  /** `--from`: the conversation prefixes, replayed on the source's base (the source pairs tasks with them). */
  readonly prefixes?: PrefixStates;
}

/** What a run did. */
export interface GenerateRunResult {
  /** `undefined` when the run stopped while synthesizing (nothing was run). */
  readonly summary?: RunSummary;
  readonly resumed: boolean;
  readonly newEpisodes: number;
  readonly newInfrastructureErrors: number;
  /** The run stopped starting episodes because every new one failed on the infrastructure ({@link generate}). */
  readonly stoppedEarly: boolean;
  /** Episodes the executor could not run (their queue jobs failed on every try); a rerun tries them again. */
  readonly notRun: number;
  /** Tasks the last pass ran. */
  readonly taskCount: number;
}

/** A run's id: a short hash of its settings (the same settings give the same id, in any folder). */
export const runId = runIdOf;

/** Most tasks `--target-sft` grows a run to (the CLI's `--n` limit). */
const MAX_RUN_TASKS = 50_000;

const NO_PROGRESS: PhaseProgress = { update() {}, stop() {} };

/**
 * Runs `cove generate` into its run folder: takes the folder's lock, refuses a folder holding another run before
 * any task is made, synthesizes or reads the tasks, runs and verifies the episodes ({@link generate}), and with
 * `targetSft` grows the task list until enough trajectories pass. Resumable: the same options continue a run.
 * @throws {ConfigError} for a folder holding another run or locked by a live process.
 */
export async function runGenerate(options: GenerateRunOptions): Promise<GenerateRunResult> {
  const paths = runPaths(options.out);
  checkRunFolderWritable(paths); // before any work: a folder or file it may not write is refused now
  const release = lockRunFolder(options.out); // one writer per run folder
  try {
    return await runLocked(options, paths);
  } finally {
    release();
  }
}

/** {@link runGenerate} once the run folder's lock is held. */
async function runLocked(options: GenerateRunOptions, paths: RunPaths): Promise<GenerateRunResult> {
  const { source, targetSft } = options;
  const startPhase = options.startPhase ?? (() => NO_PROGRESS);
  const stopped = () => options.shouldStop?.() === true || options.signal?.aborted === true;
  checkRunFolder(paths, options.fingerprint); // before any task is synthesized
  const checkpoint = source.open ? openTaskCheckpoint(paths, runId(options.fingerprint)) : undefined;
  let count = targetSft === undefined ? options.n : Math.max(options.n, targetSft);
  let resumed: boolean | undefined;
  let newEpisodes = 0;
  let newInfrastructureErrors = 0;
  let stoppedEarly = false;
  let notRun = 0;
  let taskCount = 0;
  let summary: RunSummary | undefined;
  for (;;) {
    const synthesizing = source.open ? startPhase('tasks', count) : NO_PROGRESS;
    const tasks = await source.tasks(count, (done) => synthesizing.update(done), stopped, checkpoint);
    synthesizing.stop(stopped() && tasks.length < count ? 'stopped' : undefined);
    if (stopped() && tasks.length < count) break;
    taskCount = tasks.length;
    const progress = startPhase('episodes', tasks.length);
    let doneTasks = 0;
    const result = await generate({
      domain: options.domain,
      out: options.out,
      runName: runId(options.fingerprint),
      command: options.command,
      coveVersion: options.coveVersion,
      seed: options.seed,
      base: source.loaded.base,
      dbSha256: source.loaded.hashes.canonical_sha256,
      benchmarkData: source.loaded.isTau2Benchmark,
      tasks,
      tasksText: source.tasksText ?? `${JSON.stringify(tasks, null, 2)}\n`,
      ...(source.sandboxText === undefined ? {} : { sandboxText: source.sandboxText }),
      settings: options.settings,
      agentContext: options.agentContext,
      roles: options.roles,
      ...(options.judge === undefined ? {} : { judge: options.judge }),
      limits: options.limits,
      concurrency: options.concurrency,
      attempts: options.attempts,
      fingerprint: options.fingerprint,
      onProgress: (done, _total, kept) => {
        doneTasks = done;
        progress.update(done, `passed ${kept}`);
      },
      shouldStop: stopped,
      ...(targetSft === undefined ? {} : { targetSft }),
      ...(options.sft === undefined ? {} : { sft: options.sft }),
      ...(options.meter === undefined ? {} : { meter: options.meter }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
      ...(options.runEpisode === undefined ? {} : { runEpisode: options.runEpisode }),
      ...(options.prefixes === undefined ? {} : { prefixes: options.prefixes }),
    });
    progress.stop((stopped() || result.stoppedEarly) && doneTasks < tasks.length ? 'stopped' : undefined);
    if (checkpoint !== undefined) dropTaskCheckpoint(paths); // tasks.json holds them now
    summary = result.summary;
    resumed ??= result.resumed;
    newEpisodes += result.newEpisodes;
    newInfrastructureErrors += result.newInfrastructureErrors;
    stoppedEarly ||= result.stoppedEarly;
    notRun += result.notRun;
    const passed = result.summary.sft_trajectories;
    if (targetSft === undefined || passed >= targetSft || stopped() || stoppedEarly) break;
    if (!source.open || tasks.length < count || count >= 50 * targetSft || count >= MAX_RUN_TASKS) break;
    const rate = Math.max(passed / tasks.length, 0.05);
    count = Math.min(50 * targetSft, MAX_RUN_TASKS, tasks.length + Math.ceil((targetSft - passed) / rate));
  }
  return {
    ...(summary === undefined ? {} : { summary }),
    resumed: resumed ?? false,
    newEpisodes,
    newInfrastructureErrors,
    stoppedEarly,
    notRun,
    taskCount,
  };
}
