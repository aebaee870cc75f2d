import { sha256Hex } from '../core/hash.js';
import { deriveSeed, Rng } from '../core/rng.js';
import type { Domain } from '../domains/domain.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import type { Evaluation } from '../eval/evaluator.js';
import { tau2Evaluator } from '../eval/tau2-evaluator.js';
import type { AgentContext } from '../sim/agent-context.js';
import { longestIdenticalRun } from '../sim/call-key.js';
import type { Agent, UserSimulator } from '../sim/roles.js';
import { type EpisodeLimits, runEpisode } from '../sim/run-episode.js';
import type { RunTask } from '../tasks/task.js';
import { coveEvaluator } from '../verify/cove-evaluator.js';
import { attributeFailure } from '../verify/failure.js';
import { scanLeaks } from '../verify/leak-scan.js';
import type { Verification } from '../verify/verification.js';
import { doNothingReward } from './baseline.js';
import { type TrajectoryRecord, type TrajectorySettings, trajectoryId } from './trajectory.js';

/** Builds the two roles of one episode. */
export interface RoleFactory {
  /** Names recorded in trajectories (`oracle`, `scripted`, `openai:<model>`). */
  readonly agentName: string;
  readonly userName: string;
  createAgent(task: RunTask, rng: Rng): Agent;
  createUser(task: RunTask, rng: Rng): UserSimulator;
}

/** Everything shared by the episodes of one run. */
export interface RunContext {
  readonly run: string;
  readonly domain: Domain;
  readonly base: EnvironmentBase;
  readonly dbSha256: string;
  readonly benchmarkData: boolean;
  readonly seed: number;
  readonly settings: TrajectorySettings;
  readonly agentContext: AgentContext;
  readonly roles: RoleFactory;
  readonly limits: EpisodeLimits;
  readonly coveVersion: string;
  /** Discount per redundant write. @defaultValue 0.5 */
  readonly gamma?: number;
}

/** One task of a run with its index (its `cove.index`, or its position in the run's task list). */
export interface IndexedTask {
  readonly task: RunTask;
  readonly index: number;
}

/** The id an episode will have, known before it runs (resume skips ids already written). */
export function episodeId(context: RunContext, task: RunTask, trial: number, attempt: number): string {
  return trajectoryId({
    taskId: task.id,
    taskHash: taskHash(task),
    trial,
    attempt,
    agent: context.roles.agentName,
    user: context.roles.userName,
    settings: context.settings,
  });
}

const taskHashes = new WeakMap<RunTask, string>();
function taskHash(task: RunTask): string {
  let h = taskHashes.get(task);
  if (h === undefined) {
    h = sha256Hex(JSON.stringify(task)).slice(0, 16);
    taskHashes.set(task, h);
  }
  return h;
}

const coveEvaluators = new WeakMap<Domain, Map<number, ReturnType<typeof coveEvaluator>>>();
function coveEvaluatorOf(domain: Domain, gamma: number | undefined) {
  let byGamma = coveEvaluators.get(domain);
  if (byGamma === undefined) {
    byGamma = new Map();
    coveEvaluators.set(domain, byGamma);
  }
  let evaluator = byGamma.get(gamma ?? 0.5);
  if (evaluator === undefined) {
    evaluator = coveEvaluator(domain, gamma === undefined ? {} : { gamma });
    byGamma.set(gamma ?? 0.5, evaluator);
  }
  return evaluator;
}

/**
 * Runs one episode of a task on a private fork of the base, grades it with the task's evaluator (CoVe's verifier
 * for tasks with a `cove` block, τ²'s reward rules otherwise) and returns its trajectory record. The roles'
 * randomness comes from (seed, task index, trial, attempt) only.
 * @throws {AbortedError} when `signal` aborts (nothing is recorded).
 */
export async function runTaskEpisode(
  context: RunContext,
  { task, index }: IndexedTask,
  trial: number,
  attempt: number,
  signal?: AbortSignal,
): Promise<TrajectoryRecord> {
  const started = performance.now();
  const seed = deriveSeed(context.seed, 'episode', index, trial, attempt);
  const rng = new Rng(seed);
  const episode = context.base.fork({ semantics: context.settings.semantics });
  try {
    const outcome = await runEpisode(
      episode,
      context.roles.createAgent(task, rng.child('agent')),
      context.roles.createUser(task, rng.child('user')),
      context.limits,
      signal,
    );
    const input = { task, outcome, env: episode };
    let verification: Verification | undefined;
    let graded: Evaluation;
    if (task.cove !== undefined) {
      const cove = coveEvaluatorOf(context.domain, context.gamma).evaluate(input);
      verification = cove.verification;
      graded = cove;
    } else {
      // τ²'s grading is kept; a task a do-nothing agent passes is flagged on every one of its records
      const tau2 = await Promise.resolve(tau2Evaluator.evaluate(input));
      const idle = await doNothingReward(context.domain, context.base, task, context.settings.semantics);
      graded = {
        ...tau2,
        report: { ...tau2.report, do_nothing_reward: idle, do_nothing_passes: idle === 1 },
      };
    }
    const evaluation: Evaluation = {
      evaluator: graded.evaluator,
      reward: graded.reward,
      report: graded.report,
    };
    const leaks = scanLeaks(outcome.messages, task.cove?.fuzz.hidden_ids ?? []).length;
    const invalid = outcome.toolCalls.filter((c) => !c.argumentsValid).length;
    const known = new Set(context.domain.tools.map((t) => t.name));
    const unknown = outcome.toolCalls.filter((c) => !known.has(c.name)).length;
    const identicalRun = outcome.identicalCallRun ?? longestIdenticalRun(outcome.toolCalls);
    const failure = attributeFailure(
      outcome,
      verification ?? evaluation,
      context.domain.synthesis?.kinds ?? [],
      new Set(context.domain.tools.filter((t) => t.kind === 'write').map((t) => t.name)),
      { leaks, invalidToolArguments: invalid, unknownToolCalls: unknown, identicalCallRun: identicalRun },
    );
    const usage = outcome.usage;
    return {
      id: episodeId(context, task, trial, attempt),
      run: context.run,
      task_id: task.id,
      task_index: index,
      domain: context.domain.name,
      trial,
      attempt,
      seed,
      agent: context.roles.agentName,
      user: context.roles.userName,
      settings: context.settings,
      db_sha256: context.dbSha256,
      messages: outcome.messages,
      tools: context.agentContext.tools,
      termination_reason: outcome.termination,
      ...(outcome.terminationDetail === undefined ? {} : { termination_detail: outcome.terminationDetail }),
      ...(verification === undefined ? {} : { verification }),
      evaluation,
      usage: {
        prompt_tokens: usage.agent.prompt_tokens + usage.user.prompt_tokens,
        completion_tokens: usage.agent.completion_tokens + usage.user.completion_tokens,
        cost_usd: usage.agent.cost_usd + usage.user.cost_usd,
        retries: (usage.agent.retries ?? 0) + (usage.user.retries ?? 0),
        per_message: outcome.messageUsage,
      },
      timing_ms: Math.round(performance.now() - started),
      cove_version: context.coveVersion,
      leaks,
      invalid_tool_arguments: invalid,
      unknown_tool_calls: unknown,
      identical_call_run: identicalRun,
      ...(failure === undefined ? {} : { failure }),
      benchmark_data: context.benchmarkData,
    };
  } finally {
    episode.close();
  }
}
