import { sha256Hex } from '../core/hash.js';
import { deriveSeed, Rng } from '../core/rng.js';
import type { Domain } from '../domains/domain.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import type { Episode } from '../env/episode.js';
import { descriptiveEvaluation } from '../eval/descriptive-verdict.js';
import type { Evaluation, EvaluationInput } from '../eval/evaluator.js';
import { judgeTrajectory, type RubricJudgment } from '../eval/rubric-judge.js';
import { tau2Evaluator } from '../eval/tau2-evaluator.js';
import type { ChatModel } from '../llm/chat-model.js';
import type { AgentContext } from '../sim/agent-context.js';
import { longestIdenticalRun } from '../sim/call-key.js';
import type { EpisodeOutcome } from '../sim/episode-session.js';
import type { ToolOutputSimulator } from '../sim/model-tools/tool-model.js';
import type { UserStyle } from '../sim/model-user/user-style.js';
import { type ConversationPrefix, isPrefixMessage } from '../sim/prefix/conversation-prefix.js';
import type { Agent, UserSimulator } from '../sim/roles.js';
import { type EpisodeLimits, runEpisode } from '../sim/run-episode.js';
import type { RunTask } from '../tasks/task.js';
import { coveEvaluator } from '../verify/cove-evaluator.js';
import { attributeFailure, processFailure } from '../verify/failure.js';
import { scanLeaks } from '../verify/leak-scan.js';
import { checkTrajectory } from '../verify/trajectory-checks.js';
import type { Verification } from '../verify/verification.js';
import { doNothingReward } from './baseline.js';
import type { PrefixState, PrefixStates } from './prefix-states.js';
import { type TrajectoryRecord, type TrajectorySettings, trajectoryId } from './trajectory.js';

/** Builds the two roles of one episode. */
export interface RoleFactory {
  /** Names recorded in trajectories (`oracle`, `scripted`, `openai:<model>`). */
  readonly agentName: string;
  readonly userName: string;
  /** How a model-played user speaks (absent for the scripted user); recorded as `user_style`. */
  readonly userStyle?: UserStyle;
  /** `prefix`: the conversation the episode continues (`--from`), if any. */
  createAgent(task: RunTask, rng: Rng, prefix?: ConversationPrefix): Agent;
  createUser(task: RunTask, rng: Rng, prefix?: ConversationPrefix): UserSimulator;
  /**
   * A model playing every tool output instead of the database (`--tool-outputs model`); absent when the database
   * executes the calls. `name` (`openai:<model>`) is recorded as `tool_model` and is part of episode ids.
   */
  readonly toolOutputs?: { readonly name: string; create(task: RunTask): ToolOutputSimulator };
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
  /**
   * Whose reward a record carries: the task's own evaluator (`task`: CoVe's verifier for tasks with a `cove` block,
   * τ²'s rules otherwise) or τ²'s rules for every task (`tau2`: `cove eval`, CoVe's verification then kept beside
   * it). @defaultValue 'task'
   */
  readonly rewardBy?: 'task' | 'tau2';
  /** The rubric judge of descriptive tasks (`--judge`); without it their episodes are not judged (never kept). */
  readonly judge?: ChatModel;
  /** The conversation prefixes of a `--from` run: a task naming one (`cove.prefix`) continues it. */
  readonly prefixes?: PrefixStates;
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
    ...(context.roles.toolOutputs === undefined ? {} : { tools: context.roles.toolOutputs.name }),
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
  // a task paired with a conversation prefix runs on the state after the prefix's tool calls
  const prefix = context.prefixes?.of(task);
  const toolOutputs = context.roles.toolOutputs?.create(task);
  const episode = (prefix?.base ?? context.base).fork({ semantics: context.settings.semantics });
  try {
    const outcome = await runEpisode(
      episode,
      context.roles.createAgent(task, rng.child('agent'), prefix?.prefix),
      context.roles.createUser(task, rng.child('user'), prefix?.prefix),
      context.limits,
      signal,
      {
        ...(prefix === undefined ? {} : { prefix: prefix.prefix.messages }),
        ...(toolOutputs === undefined ? {} : { toolOutputs }),
      },
    );
    return await episodeRecord(
      context,
      {
        agent: context.roles.agentName,
        user: context.roles.userName,
        ...(context.roles.userStyle === undefined ? {} : { userStyle: context.roles.userStyle }),
        ...(context.roles.toolOutputs === undefined ? {} : { toolModel: context.roles.toolOutputs.name }),
      },
      { task, index },
      {
        id: episodeId(context, task, trial, attempt),
        trial,
        attempt,
        seed,
        outcome,
        env: episode,
        startedAt: started,
        ...(prefix === undefined ? {} : { prefix }),
      },
    );
  } finally {
    episode.close();
  }
}

/** What {@link gradeEpisode} gives: the evaluation, and CoVe's full verification for tasks with a `cove` block. */
export interface GradedEpisode {
  readonly evaluation: Evaluation;
  readonly verification?: Verification;
}

/**
 * Grades an episode with its task's evaluator: CoVe's verifier (reward = score) for tasks with a `cove` block,
 * τ²'s reward rules otherwise. With `rewardBy: 'tau2'` every task gets τ²'s reward, and a task with a `cove` block
 * also gets CoVe's verification (its score is then beside τ²'s reward, not the reward). `env` is the episode's
 * final state, still open.
 */
export async function gradeEpisode(
  domain: Domain,
  input: EvaluationInput,
  gamma?: number,
  rewardBy: 'task' | 'tau2' = 'task',
): Promise<GradedEpisode> {
  if (input.task.cove !== undefined && rewardBy === 'tau2') {
    const graded = await Promise.resolve(tau2Evaluator.evaluate(input));
    const cove = coveEvaluatorOf(domain, gamma).evaluate(input);
    return {
      evaluation: {
        evaluator: graded.evaluator,
        reward: graded.reward,
        report: { ...graded.report, cove_score: cove.verification.score },
      },
      verification: cove.verification,
    };
  }
  if (input.task.cove !== undefined) {
    const cove = coveEvaluatorOf(domain, gamma).evaluate(input);
    return {
      evaluation: { evaluator: cove.evaluator, reward: cove.reward, report: cove.report },
      verification: cove.verification,
    };
  }
  // τ²'s grading is kept; a task a do-nothing agent passes is flagged on every one of its records
  const graded = await Promise.resolve(tau2Evaluator.evaluate(input));
  const idle = await doNothingReward(domain, input.env.base, input.task, input.env.semantics);
  return {
    evaluation: {
      evaluator: graded.evaluator,
      reward: graded.reward,
      report: { ...graded.report, do_nothing_reward: idle, do_nothing_passes: idle === 1 },
    },
  };
}

/** One finished episode, as {@link episodeRecord} needs it. */
export interface FinishedEpisode {
  readonly id: string;
  readonly trial: number;
  readonly attempt: number;
  readonly seed: number;
  readonly outcome: EpisodeOutcome;
  /** The final state, still open (the caller closes it). */
  readonly env: Episode;
  /** `performance.now()` when the episode started (the record's `timing_ms` counts to the end of grading). */
  readonly startedAt: number;
  /** The conversation prefix the episode continued (`--from`). */
  readonly prefix?: PrefixState;
}

/**
 * The trajectory record of a finished episode (the line `cove generate` writes to `trajectories.jsonl`): grades it
 * ({@link gradeEpisode}), scans user turns for leaked ids, counts invalid and unknown tool calls and attributes
 * a failure. Shared by `cove generate` and the RL episode service (`cove serve --record`).
 */
export async function episodeRecord(
  context: Pick<
    RunContext,
    | 'run'
    | 'domain'
    | 'dbSha256'
    | 'benchmarkData'
    | 'settings'
    | 'agentContext'
    | 'coveVersion'
    | 'gamma'
    | 'rewardBy'
    | 'judge'
  >,
  names: {
    readonly agent: string;
    readonly user: string;
    readonly userStyle?: UserStyle;
    /** The model that played the tool outputs, when one did (the record then says `tool_outputs: model`). */
    readonly toolModel?: string;
  },
  { task, index }: IndexedTask,
  finished: FinishedEpisode,
): Promise<TrajectoryRecord> {
  const { outcome } = finished;
  let judged: RubricJudgment | null = null;
  let graded: GradedEpisode;
  if (task.descriptive !== undefined) {
    // no gold state: deterministic checks and the rubric judge (docs/descriptive-tasks.md)
    const checks = checkTrajectory({
      messages: outcome.messages,
      tools: context.agentContext.tools,
      termination: outcome.termination,
    });
    if (context.judge !== undefined && outcome.termination !== 'infrastructure_error') {
      judged = await judgeTrajectory(context.judge, {
        taskId: task.id,
        goals: task.descriptive.goals,
        tools: context.agentContext.tools,
        messages: outcome.messages,
      });
    }
    graded = { evaluation: descriptiveEvaluation(checks, judged) };
  } else {
    graded = await gradeEpisode(
      context.domain,
      { task, outcome, env: finished.env },
      context.gamma,
      context.rewardBy,
    );
  }
  const { evaluation, verification } = graded;
  // a conversation prefix was given, not said by the user simulator: only the episode's own messages can leak
  const leaks = scanLeaks(
    outcome.messages.filter((m) => !isPrefixMessage(m)),
    task.cove?.fuzz.hidden_ids ?? [],
  ).length;
  const invalid = outcome.toolCalls.filter((c) => !c.argumentsValid).length;
  const known = new Set(context.domain.tools.map((t) => t.name));
  const unknown = outcome.toolCalls.filter((c) => !known.has(c.name)).length;
  const identicalRun = outcome.identicalCallRun ?? longestIdenticalRun(outcome.toolCalls);
  const extra = {
    leaks,
    invalidToolArguments: invalid,
    unknownToolCalls: unknown,
    identicalCallRun: identicalRun,
  };
  // with simulated tool outputs the state never changed: only how the episode went can fail it
  const failure =
    names.toolModel !== undefined
      ? processFailure(outcome, extra)
      : attributeFailure(
          outcome,
          verification ?? evaluation,
          context.domain.synthesis?.kinds ?? [],
          new Set(context.domain.tools.filter((t) => t.kind === 'write').map((t) => t.name)),
          extra,
        );
  const usage = outcome.usage;
  const tools = usage.tools ?? { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0, retries: 0 };
  return {
    id: finished.id,
    run: context.run,
    task_id: task.id,
    task_index: index,
    domain: context.domain.name,
    trial: finished.trial,
    attempt: finished.attempt,
    seed: finished.seed,
    agent: names.agent,
    user: names.user,
    ...(names.userStyle === undefined ? {} : { user_style: names.userStyle }),
    ...(names.toolModel === undefined
      ? {}
      : {
          tool_outputs: 'model' as const,
          tool_model: names.toolModel,
          verification_meaningful: false as const,
        }),
    settings: context.settings,
    db_sha256: context.dbSha256,
    messages: outcome.messages,
    tools: context.agentContext.tools,
    termination_reason: outcome.termination,
    ...(outcome.terminationDetail === undefined ? {} : { termination_detail: outcome.terminationDetail }),
    ...(verification === undefined ? {} : { verification }),
    evaluation,
    usage: {
      // the judge's and the tool model's calls are counted in (the judge's own share is in evaluation.report.judge.usage)
      prompt_tokens:
        usage.agent.prompt_tokens +
        usage.user.prompt_tokens +
        tools.prompt_tokens +
        (judged?.usage.prompt_tokens ?? 0),
      completion_tokens:
        usage.agent.completion_tokens +
        usage.user.completion_tokens +
        tools.completion_tokens +
        (judged?.usage.completion_tokens ?? 0),
      cost_usd: usage.agent.cost_usd + usage.user.cost_usd + tools.cost_usd + (judged?.usage.cost_usd ?? 0),
      retries: (usage.agent.retries ?? 0) + (usage.user.retries ?? 0) + (tools.retries ?? 0),
      per_message: outcome.messageUsage,
    },
    timing_ms: Math.round(performance.now() - finished.startedAt),
    cove_version: context.coveVersion,
    leaks,
    invalid_tool_arguments: invalid,
    unknown_tool_calls: unknown,
    identical_call_run: identicalRun,
    ...(outcome.enactedEvents === undefined ? {} : { enacted_events: [...outcome.enactedEvents] }),
    ...(failure === undefined ? {} : { failure }),
    benchmark_data: context.benchmarkData,
    ...(finished.prefix === undefined
      ? {}
      : {
          prefix: {
            id: finished.prefix.prefix.id,
            index: finished.prefix.prefix.index,
            state_sha256: finished.prefix.stateSha256,
          },
        }),
  };
}
