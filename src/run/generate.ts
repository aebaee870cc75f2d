import pLimit from 'p-limit';
import { writeFileAtomic } from '../core/atomic-write.js';
import { AbortedError, ConfigError } from '../core/errors.js';
import type { Domain } from '../domains/domain.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import { readPlainJson } from '../io/read-input.js';
import type { ChatModel } from '../llm/chat-model.js';
import { UsageMeter } from '../llm/usage-meter.js';
import type { AgentContext } from '../sim/agent-context.js';
import type { EpisodeLimits } from '../sim/run-episode.js';
import { type RunTask, taskIndex } from '../tasks/task.js';
import { type DoNothingBaseline, doNothingBaseline } from './baseline.js';
import { BudgetGate } from './budget-gate.js';
import {
  episodeId,
  type IndexedTask,
  type RoleFactory,
  type RunContext,
  runTaskEpisode,
} from './episode-runner.js';
import type { PrefixStates } from './prefix-states.js';
import { checkRunFolder, openRunFolder, runPaths, writeOrCheck, writeTasksFile } from './run-folder.js';
import { sftRows } from './sft.js';
import { type RunSummary, summarize } from './summary.js';
import { type SftOptions, sftFilter, type TrajectoryRecord, type TrajectorySettings } from './trajectory.js';
import { loadTrajectoryLog, setAsideDamaged, TrajectoryLog } from './trajectory-log.js';

/** Everything `cove generate` needs once the DB and the tasks are ready. */
export interface GenerateJob {
  readonly domain: Domain;
  readonly out: string;
  /** Names the run in records and summary; derived from the settings, so it is the same in any folder. */
  readonly runName: string;
  readonly command: readonly string[];
  readonly coveVersion: string;
  readonly seed: number;
  readonly base: EnvironmentBase;
  readonly dbSha256: string;
  readonly benchmarkData: boolean;
  /** The run's tasks: made by cove (a `cove` block) or τ²'s own (graded by τ²'s evaluator). */
  readonly tasks: readonly RunTask[];
  readonly tasksText: string;
  /** db.json text when the run made its own sandbox. */
  readonly sandboxText?: string;
  readonly settings: TrajectorySettings;
  readonly agentContext: AgentContext;
  readonly roles: RoleFactory;
  /** The rubric judge of descriptive tasks (`--judge`). */
  readonly judge?: ChatModel;
  readonly limits: EpisodeLimits;
  /** Episodes running at once. */
  readonly concurrency: number;
  /** Episodes per task at most, stopping at the first one kept for SFT. */
  readonly attempts: number;
  /** Settings that must match to resume (recorded in run.json). */
  readonly fingerprint: Readonly<Record<string, unknown>>;
  readonly onProgress?: (done: number, total: number, kept: number) => void;
  /** Run-wide usage: trajectories already in the folder are counted into it (so a budget spans resumes). */
  readonly meter?: UsageMeter;
  /** Stop starting episodes once this many trajectories in the folder pass (`--target-sft`). */
  readonly targetSft?: number;
  /** Which trajectories enter sft.jsonl beyond the default rule (`--allow-simulated-tools`). */
  readonly sft?: SftOptions;
  /** Polled before each new episode; true stops starting new ones (budget reached, Ctrl-C). */
  readonly shouldStop?: () => boolean;
  /** Told about repairs made to the run folder on resume (a torn last line, damaged lines). */
  readonly onWarning?: (message: string) => void;
  /** Aborting it stops starting episodes and aborts the ones under way (their model calls); nothing half-done is written. */
  readonly signal?: AbortSignal;
  /**
   * Runs one episode: {@link runTaskEpisode} in this process by default; the distributed coordinator
   * (docs/distributed.md) runs it on a worker through the queue. It may throw {@link EpisodeNotRunError} for an
   * episode that could not be run (it is left out and run again by the next invocation).
   */
  readonly runEpisode?: EpisodeExecutor;
  /** The conversation prefixes of a `--from` run (tasks name theirs in `cove.prefix`). */
  readonly prefixes?: PrefixStates;
}

/** Runs one episode of (task, trial, attempt) and returns its trajectory record. */
export type EpisodeExecutor = (
  context: RunContext,
  task: IndexedTask,
  trial: number,
  attempt: number,
  signal?: AbortSignal,
) => Promise<TrajectoryRecord>;

/** An episode that could not be run (e.g. its queue job failed on every try): skipped, reported, not recorded. */
export class EpisodeNotRunError extends Error {
  override readonly name = 'EpisodeNotRunError';
}

/** What a run did. */
export interface GenerateResult {
  readonly summary: RunSummary;
  readonly resumed: boolean;
  readonly newEpisodes: number;
  readonly truncatedBytes: number;
  /** New episodes of this invocation that ended with `infrastructure_error` (a rerun retries them). */
  readonly newInfrastructureErrors: number;
  /** No more episodes were started: the first {@link GIVE_UP_AFTER} new ones all failed on the infrastructure. */
  readonly stoppedEarly: boolean;
  /** Episodes the executor could not run ({@link EpisodeNotRunError}): not recorded; a rerun tries them again. */
  readonly notRun: number;
}

/**
 * New episodes that must all have failed on the infrastructure (a model endpoint unreachable or failing after its
 * retries) before a run stops starting episodes: an endpoint that is down would otherwise fail every task, each
 * after its retries. A single graded episode means the endpoint works, and the run goes on whatever follows.
 */
export const GIVE_UP_AFTER = 5;

/**
 * Runs the main job into its run folder: writes run.json, tasks.json (and db.json for a sandbox), appends one
 * trajectory per finished episode to trajectories.jsonl (resuming: ids already there are skipped, a torn last
 * line is cut), then rewrites sft.jsonl and summary.json atomically from all trajectories.
 */
export async function generate(job: GenerateJob): Promise<GenerateResult> {
  const started = performance.now();
  const paths = runPaths(job.out);
  // whose folder it is first, then what it holds (a line over the limit is refused here, before run.json is
  // rewritten); only then is anything written
  checkRunFolder(paths, job.fingerprint);
  const loaded = loadTrajectoryLog(paths.trajectories);
  const { resumed } = openRunFolder(paths, {
    command: job.command,
    cove_version: job.coveVersion,
    fingerprint: job.fingerprint,
  });
  if (job.sandboxText !== undefined) writeOrCheck(paths.dbJson, job.sandboxText);
  writeTasksFile(paths.tasksJson, job.tasks, job.tasksText);
  if (loaded.truncatedBytes > 0) {
    job.onWarning?.(
      `${paths.trajectories}: cut off a torn last line (${loaded.truncatedBytes} bytes, an interrupted write); its episode runs again`,
    );
  }
  if (loaded.corrupt.length > 0) {
    // kept aside, never silently dropped; the file itself is rewritten without them at the end of the run
    const { aside, lines } = setAsideDamaged(paths.trajectories, loaded.corrupt);
    job.onWarning?.(
      `${paths.trajectories}: skipped ${loaded.corrupt.length} damaged line(s): ${lines}; copied to ${aside}; ` +
        'their episodes run again',
    );
  }
  const foreign = loaded.records.find((r) => r.run !== job.runName);
  if (foreign !== undefined) {
    throw new ConfigError(
      `${paths.trajectories} holds episodes of another run (${foreign.run}, e.g. ${foreign.id}); this command is ` +
        `${job.runName}: use another --out, or the command that made the folder to resume it`,
    );
  }
  const records: TrajectoryRecord[] = [...loaded.records];
  const byId = new Map(records.map((r) => [r.id, r]));
  for (const r of records) job.meter?.absorb(r.id, r.usage);
  const context: RunContext = {
    run: job.runName,
    domain: job.domain,
    base: job.base,
    dbSha256: job.dbSha256,
    benchmarkData: job.benchmarkData,
    seed: job.seed,
    settings: job.settings,
    agentContext: job.agentContext,
    roles: job.roles,
    limits: job.limits,
    coveVersion: job.coveVersion,
    ...(job.judge === undefined ? {} : { judge: job.judge }),
    ...(job.prefixes === undefined ? {} : { prefixes: job.prefixes }),
  };
  const log = new TrajectoryLog(paths.trajectories);
  const limit = pLimit(Math.max(1, job.concurrency));
  let done = 0;
  let newEpisodes = 0;
  let newInfrastructureErrors = 0;
  let gaveUp = false;
  const kept = sftFilter(job.sft);
  let passed = records.filter(kept).length;
  let superseded = loaded.duplicates + loaded.corrupt.length;
  let notRun = 0;
  const execute = job.runEpisode ?? runTaskEpisode;
  const total = job.tasks.length;
  const keptTasks = new Set(records.filter(kept).map((r) => r.task_index));
  if (job.runEpisode === undefined) job.base.warm(Math.min(job.concurrency, total));
  // with a budget, episodes start only while it can pay for them (the meter is run-wide: earlier episodes count)
  const gate = new BudgetGate(
    job.meter ?? new UsageMeter(),
    job.meter === undefined ? [] : records.map((r) => r.usage),
  );
  try {
    await Promise.all(
      job.tasks.map((run, position) =>
        limit(async () => {
          const task: IndexedTask = { task: run, index: taskIndex(run, position) };
          let ran = false;
          for (let attempt = 0; attempt < job.attempts; attempt++) {
            const id = episodeId(context, run, 0, attempt);
            let record = byId.get(id);
            // an episode lost to the infrastructure (model server down, …) is run again
            const replaces = record?.termination_reason === 'infrastructure_error';
            if (replaces) record = undefined;
            if (record === undefined) {
              // let signals, timers and progress output through between scripted episodes (which never wait on I/O)
              await new Promise<void>((resolve) => setImmediate(resolve));
              if (job.shouldStop?.() === true || job.signal?.aborted === true || gaveUp) break;
              if (passed >= (job.targetSft ?? Infinity)) break;
              if (!(await gate.admit())) break;
              try {
                if (job.shouldStop?.() === true) break; // stopped while waiting for the budget
                record = await execute(context, task, 0, attempt, job.signal);
              } catch (e) {
                if (e instanceof AbortedError) break; // aborted mid-episode: nothing is written
                if (e instanceof EpisodeNotRunError) {
                  notRun++;
                  job.onWarning?.(e.message);
                  break;
                }
                throw e;
              } finally {
                gate.finish(record?.usage);
              }
              if (job.runEpisode === undefined) job.meter?.counted(record.id);
              else job.meter?.absorb(record.id, record.usage); // its model calls were made elsewhere
              log.append(record);
              if (replaces) {
                records.splice(
                  records.findIndex((r) => r.id === id),
                  1,
                );
                superseded++;
              }
              records.push(record);
              byId.set(id, record);
              if (kept(record)) {
                passed++;
                keptTasks.add(record.task_index);
              }
              newEpisodes++;
              if (record.termination_reason === 'infrastructure_error') {
                // told at once, with the URL and cause, not only inside trajectories.jsonl at the end
                if (newInfrastructureErrors++ === 0) {
                  job.onWarning?.(
                    `${record.termination_detail ?? 'a model call failed'} — episodes that hit this are recorded as ` +
                      'infrastructure failures (not graded) and retried when the same command runs again',
                  );
                }
                // nothing but infrastructure failures so far: the endpoint is down or misconfigured, so no more
                // episodes are started (those under way finish); the same command resumes once it is fixed
                if (
                  !gaveUp &&
                  newInfrastructureErrors >= GIVE_UP_AFTER &&
                  newInfrastructureErrors === newEpisodes
                ) {
                  gaveUp = true;
                  job.onWarning?.(
                    `stopping early: the first ${newInfrastructureErrors} episodes all failed on the infrastructure ` +
                      `(${record.termination_detail ?? 'a model call failed'}); no more episodes are started`,
                  );
                }
              }
            }
            ran = true;
            if (kept(record)) break;
          }
          if (!ran) return; // stopped before this task started
          done++;
          job.onProgress?.(done, total, keptTasks.size);
        }),
      ),
    );
  } finally {
    log.close();
    // re-run episodes left two lines with one id, damaged lines were skipped: one line per episode (atomically)
    if (superseded > 0) {
      writeFileAtomic(paths.trajectories, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    }
  }
  const tasks = allTasks(paths.tasksJson, job.tasks);
  const baseline = await runBaseline(job, tasks, records);
  const summary = writeDerived({ ...job, tasks }, records, (performance.now() - started) / 1000, baseline);
  return {
    summary,
    resumed,
    newEpisodes,
    truncatedBytes: loaded.truncatedBytes,
    newInfrastructureErrors,
    stoppedEarly: gaveUp,
    notRun,
  };
}

/** The do-nothing baseline over the run's tasks that have an episode (this invocation's task objects first). */
function runBaseline(
  job: GenerateJob,
  tasks: readonly RunTask[],
  records: readonly TrajectoryRecord[],
): Promise<DoNothingBaseline> {
  const attempted = new Set(records.map((r) => r.task_id));
  const own = new Map(job.tasks.map((t) => [t.id, t]));
  // descriptive tasks have no gold to grade a do-nothing agent against (only a judge could): left out
  const covered = tasks
    .filter((t) => attempted.has(t.id) && t.descriptive === undefined)
    .map((t) => own.get(t.id) ?? t);
  const prefixes = job.prefixes;
  const base = prefixes === undefined ? job.base : (t: RunTask) => prefixes.of(t)?.base ?? job.base;
  return doNothingBaseline(job.domain, base, covered, job.settings.semantics);
}

/** The run's whole task list: tasks.json may hold more tasks than this command asked for (an earlier, larger --n). */
function allTasks(file: string, tasks: readonly RunTask[]): readonly RunTask[] {
  const written = readPlainJson(file, { what: 'the run’s tasks' }) as RunTask[];
  return written.length > tasks.length ? written : tasks;
}

/** Rewrites sft.jsonl and summary.json from all trajectories of the run (atomically). */
export function writeDerived(
  job: Pick<GenerateJob, 'out' | 'runName' | 'tasks' | 'agentContext' | 'sft'>,
  records: readonly TrajectoryRecord[],
  wallTimeS: number,
  baseline?: DoNothingBaseline,
): RunSummary {
  const paths = runPaths(job.out);
  const rows = sftRows(records, job.agentContext.systemPrompt, job.sft);
  writeFileAtomic(paths.sft, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const facts = job.tasks.flatMap((t) =>
    t.cove === undefined
      ? []
      : [
          {
            index: t.cove.index,
            kinds: t.cove.constraints.map((c) => c.kind),
            k: t.cove.constraints.length,
            difficulty: t.cove.difficulty,
          },
        ],
  );
  const summary = summarize(job.runName, records, facts, wallTimeS, baseline, job.sft);
  writeFileAtomic(paths.summary, `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
