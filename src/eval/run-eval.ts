import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { writeFileAtomic } from '../core/atomic-write.js';
import { AbortedError, ConfigError } from '../core/errors.js';
import type { Domain } from '../domains/domain.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import { recordInfo, recordSimulation } from '../export/formats/tau2.js';
import { ChatModel, type ChatModelOptions } from '../llm/chat-model.js';
import type { RoleConfig } from '../llm/config.js';
import { episodeRecord, type RunContext } from '../run/episode-runner.js';
import { lockRunFolder } from '../run/run-lock.js';
import type { TrajectoryRecord } from '../run/trajectory.js';
import { loadTrajectoryLog, TrajectoryLog } from '../run/trajectory-log.js';
import type { AgentContext } from '../sim/agent-context.js';
import { LlmAgent } from '../sim/llm-agent.js';
import { LlmUser } from '../sim/llm-user.js';
import { type EpisodeLimits, runEpisode } from '../sim/run-episode.js';
import { scenarioText, userSystemPrompt } from '../sim/user-guidelines.js';
import type { RunTask } from '../tasks/task.js';
import { writeTau2Results } from '../tau2/results-file.js';
import { judgeNlAssertions, withJudgment } from './nl-judge.js';
import { trialSeeds } from './py-random.js';
import { tau2RewardInfo } from './reward-info.js';

/**
 * `cove eval`: τ² tasks run in τ²'s exact setting (τ²'s `run_tasks`; docs/eval.md) — τ²'s texts, the fixed
 * greeting, max 200 steps / 10 errors, no repeat guard, per-trial seeds from `random.seed(300)` given to both
 * models, an episode lost to the infrastructure retried 3 times then recorded as `infrastructure_error`.
 * Records go to `trajectories.jsonl` (append-only, resumable: an id already there is skipped unless it ended on
 * an infrastructure error); at the end `results.json` (τ²'s format) is written beside it.
 */
export interface EvalJob {
  readonly domain: Domain;
  readonly base: EnvironmentBase;
  readonly dbSha256: string;
  readonly tasks: readonly RunTask[];
  /** `head` or `legacy_v0.1.0` (or `custom`): recorded with every score. */
  readonly taskSet: string;
  readonly trials: number;
  /** τ²'s seed (300). */
  readonly seed: number;
  readonly agent: RoleConfig;
  readonly user: RoleConfig;
  readonly judge?: RoleConfig;
  readonly models: ChatModelOptions;
  readonly agentContext: AgentContext;
  /** τ²'s policy text (recorded in results.json's `environment_info`). */
  readonly policy: string;
  readonly userGuidelines: string;
  readonly limits: EpisodeLimits;
  readonly concurrency: number;
  readonly out: string;
  readonly coveVersion: string;
  /** Infrastructure retries per episode. @defaultValue 3 (τ²'s `max_retries`) */
  readonly maxRetries?: number;
  readonly signal?: AbortSignal;
  readonly onEpisode?: (done: number, total: number) => void;
}

/** What a run produced. */
export interface EvalResult {
  readonly records: readonly TrajectoryRecord[];
  readonly newEpisodes: number;
  readonly resultsFile: string;
  readonly seeds: readonly number[];
}

/**
 * Writes `eval.json` (the settings a resume must share) on the first run, and refuses a folder whose settings
 * differ. @throws {ConfigError} naming the folder and the settings that differ.
 */
function checkFingerprint(job: EvalJob): void {
  const fingerprint: Record<string, unknown> = {
    domain: job.domain.name,
    task_set: job.taskSet,
    trials: job.trials,
    seed: job.seed,
    agent: job.agent.model,
    user: job.user.model,
    judge: job.judge?.model ?? null,
    max_steps: job.limits.maxSteps ?? 200,
    max_errors: job.limits.maxErrors ?? 10,
  };
  const file = join(job.out, 'eval.json');
  if (!existsSync(file)) {
    writeFileAtomic(file, `${JSON.stringify({ cove_version: job.coveVersion, fingerprint }, null, 2)}\n`);
    return;
  }
  const old =
    (JSON.parse(readFileSync(file, 'utf8')) as { fingerprint?: Record<string, unknown> }).fingerprint ?? {};
  const differ = Object.keys(fingerprint).filter(
    (k) => JSON.stringify(old[k]) !== JSON.stringify(fingerprint[k]),
  );
  if (differ.length > 0) {
    throw new ConfigError(
      `${job.out} holds an eval with other settings (${differ.map((k) => `${k}: ${JSON.stringify(old[k])} there, ${JSON.stringify(fingerprint[k])} now`).join('; ')}); use another --out`,
    );
  }
}

/** The id of trial `trial` of a task (stable across runs, so resume finds it). */
export function evalEpisodeId(taskId: string, trial: number): string {
  return `tau2-${taskId}-trial-${trial}`;
}

/**
 * Runs the job (see {@link EvalJob}), holding the folder's `run.lock` while it runs.
 * @throws {ConfigError} when another live `cove eval` (or `generate`) holds the folder, or it holds another eval.
 * Never throws {@link AbortedError}: an abort stops starting episodes.
 */
export async function runEval(job: EvalJob): Promise<EvalResult> {
  mkdirSync(job.out, { recursive: true });
  const release = lockRunFolder(job.out, 'cove eval'); // one writer per eval folder, as for generate
  try {
    return await runEvalLocked(job);
  } finally {
    release();
  }
}

/** {@link runEval} once the folder's lock is held. */
async function runEvalLocked(job: EvalJob): Promise<EvalResult> {
  checkFingerprint(job);
  const file = join(job.out, 'trajectories.jsonl');
  const loaded = existsSync(file)
    ? loadTrajectoryLog(file)
    : { records: [] as TrajectoryRecord[], truncatedBytes: 0, corrupt: [], duplicates: 0 };
  const byId = new Map(loaded.records.map((r) => [r.id, r]));
  const seeds = trialSeeds(job.seed, job.trials);
  const model = (role: 'agent' | 'user', config: RoleConfig, seed: number) =>
    new ChatModel(role, { ...config, seed }, job.models);
  const agents = seeds.map((s) => model('agent', job.agent, s));
  const users = seeds.map((s) => model('user', job.user, s));
  const judge = job.judge === undefined ? undefined : new ChatModel('judge', job.judge, job.models);
  const settings = { semantics: 'parity' as const, text: 'tau2' as const, guidelines: 'tau2' };
  const context: RunContext = {
    run: `eval-${job.domain.name}-${job.taskSet}`,
    domain: job.domain,
    base: job.base,
    dbSha256: job.dbSha256,
    benchmarkData: true,
    seed: job.seed,
    settings,
    agentContext: job.agentContext,
    roles: { agentName: job.agent.model, userName: job.user.model } as RunContext['roles'],
    limits: job.limits,
    coveVersion: job.coveVersion,
    // τ²'s reward for every task; tasks made by cove also get CoVe's verification beside it
    rewardBy: 'tau2',
  };
  const log = new TrajectoryLog(file);
  const limit = pLimit(Math.max(1, job.concurrency));
  const total = job.tasks.length * job.trials;
  let done = 0;
  let newEpisodes = 0;
  const runOne = async (
    task: RunTask,
    index: number,
    trial: number,
  ): Promise<TrajectoryRecord | undefined> => {
    const seed = seeds[trial] as number;
    let record: TrajectoryRecord | undefined;
    for (let attempt = 0; attempt <= (job.maxRetries ?? 3); attempt++) {
      if (job.signal?.aborted === true) return undefined;
      const started = performance.now();
      const env = job.base.fork({ semantics: 'parity' });
      try {
        const agent = new LlmAgent(agents[trial] as ChatModel, job.agentContext, task.id);
        const user = new LlmUser(
          users[trial] as ChatModel,
          userSystemPrompt(
            job.userGuidelines,
            scenarioText(task.user_scenario.instructions, task.user_scenario.persona),
          ),
          task.id,
        );
        const outcome = await runEpisode(env, agent, user, job.limits, job.signal);
        record = await episodeRecord(
          context,
          { agent: job.agent.model, user: job.user.model },
          { task, index },
          { id: evalEpisodeId(task.id, trial), trial, attempt: 0, seed, outcome, env, startedAt: started },
        );
      } catch (e) {
        if (e instanceof AbortedError) return undefined;
        throw e;
      } finally {
        env.close();
      }
      if (record.termination_reason !== 'infrastructure_error') break;
    }
    if (record?.evaluation === undefined) return record;
    const evaluation = record.evaluation;
    const report = evaluation.report as Record<string, unknown>;
    const missing = (report.not_evaluated ?? []) as { component: string }[];
    if (judge !== undefined && missing.some((m) => m.component === 'NL_ASSERTION')) {
      const judgment = await judgeNlAssertions(
        judge,
        task.id,
        record.messages,
        task.evaluation_criteria?.nl_assertions ?? [],
        job.signal,
      );
      const folded = withJudgment(report, judgment);
      return {
        ...record,
        evaluation: {
          ...evaluation,
          reward: folded.reward,
          report: { ...folded.report, task_set: job.taskSet },
        },
      };
    }
    return { ...record, evaluation: { ...evaluation, report: { ...report, task_set: job.taskSet } } };
  };
  try {
    await Promise.all(
      job.tasks.flatMap((task, index) =>
        seeds.map((_, trial) =>
          limit(async () => {
            const id = evalEpisodeId(task.id, trial);
            const old = byId.get(id);
            if (old !== undefined && old.termination_reason !== 'infrastructure_error') {
              done++;
              return;
            }
            const record = await runOne(task, index, trial);
            if (record === undefined) return;
            log.append(record);
            byId.set(id, record);
            newEpisodes++;
            job.onEpisode?.(++done, total);
          }),
        ),
      ),
    );
  } finally {
    log.close();
  }
  // one line per episode, in task and trial order
  const wanted = new Set(job.tasks.flatMap((t) => seeds.map((_, trial) => evalEpisodeId(t.id, trial))));
  const records = [...byId.values()].filter((r) => wanted.has(r.id));
  const order = new Map([...wanted].map((id, i) => [id, i]));
  records.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  writeFileAtomic(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const resultsFile = join(job.out, 'results.json');
  const first = records[0];
  if (first !== undefined) {
    const info = recordInfo({
      record: first,
      numTrials: job.trials,
      seed: job.seed,
      maxSteps: job.limits.maxSteps ?? 200,
      maxErrors: job.limits.maxErrors ?? 10,
      policy: job.policy,
      tools: job.agentContext.tools,
      coveVersion: job.coveVersion,
    });
    const start = Date.now();
    await writeTau2Results(resultsFile, {
      timestamp: new Date(start).toISOString().replace('Z', ''),
      info: {
        ...info,
        agent_info: { ...info.agent_info, llm_args: { temperature: job.agent.temperature } },
        user_info: { ...info.user_info, llm_args: { temperature: job.user.temperature } },
        task_set: job.taskSet,
      } as typeof info,
      tasks: job.tasks.map((t) => {
        const { cove: _cove, ...tau2 } = t as RunTask & { cove?: unknown };
        return tau2 as unknown as Record<string, unknown>;
      }),
      simulations: records.map((r) => {
        const task = job.tasks.find((t) => t.id === r.task_id) as RunTask;
        return { ...recordSimulation(r, start), reward_info: tau2RewardInfo(r, task) };
      }),
    });
  }
  return { records, newEpisodes, resultsFile, seeds };
}
