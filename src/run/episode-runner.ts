import { sha256Hex } from '../core/hash.js';
import { deriveSeed, Rng } from '../core/rng.js';
import type { Domain } from '../domains/domain.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import type { AgentContext } from '../sim/agent-context.js';
import type { Agent, UserSimulator } from '../sim/roles.js';
import { type EpisodeLimits, runEpisode } from '../sim/run-episode.js';
import type { CoveTask } from '../tasks/cove-task.js';
import { attributeFailure } from '../verify/failure.js';
import { scanLeaks } from '../verify/leak-scan.js';
import { verifyTrajectory } from '../verify/verification.js';
import { type TrajectoryRecord, type TrajectorySettings, trajectoryId } from './trajectory.js';

/** Builds the two roles of one episode. */
export interface RoleFactory {
  /** Names recorded in trajectories (`oracle`, `scripted`, `openai:<model>`). */
  readonly agentName: string;
  readonly userName: string;
  createAgent(task: CoveTask, rng: Rng): Agent;
  createUser(task: CoveTask, rng: Rng): UserSimulator;
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

/** The id an episode will have, known before it runs (resume skips ids already written). */
export function episodeId(context: RunContext, task: CoveTask, trial: number, attempt: number): string {
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

const taskHashes = new WeakMap<CoveTask, string>();
function taskHash(task: CoveTask): string {
  let h = taskHashes.get(task);
  if (h === undefined) {
    h = sha256Hex(JSON.stringify(task)).slice(0, 16);
    taskHashes.set(task, h);
  }
  return h;
}

/**
 * Runs one episode of a task on a private fork of the base, verifies it and returns its trajectory record. The
 * roles' randomness comes from (seed, task index, trial, attempt) only.
 */
export async function runTaskEpisode(
  context: RunContext,
  task: CoveTask,
  trial: number,
  attempt: number,
): Promise<TrajectoryRecord> {
  const started = performance.now();
  const seed = deriveSeed(context.seed, 'episode', task.cove.index, trial, attempt);
  const rng = new Rng(seed);
  const episode = context.base.fork({ semantics: context.settings.semantics });
  try {
    const outcome = await runEpisode(
      episode,
      context.roles.createAgent(task, rng.child('agent')),
      context.roles.createUser(task, rng.child('user')),
      context.limits,
    );
    const verification = verifyTrajectory({
      synthesis: context.domain.synthesis as NonNullable<Domain['synthesis']>,
      tools: context.domain.tools,
      task,
      final: episode,
      messages: outcome.messages,
      toolCalls: outcome.toolCalls,
      termination: outcome.termination,
      ...(context.gamma === undefined ? {} : { gamma: context.gamma }),
    });
    const hidden = (task.cove.fuzz.hidden_ids as string[] | undefined) ?? [];
    const leaks = scanLeaks(outcome.messages, hidden).length;
    const invalid = outcome.toolCalls.filter((c) => !c.argumentsValid).length;
    const known = new Set(context.domain.tools.map((t) => t.name));
    const unknown = outcome.toolCalls.filter((c) => !known.has(c.name)).length;
    const writes = new Set(context.domain.tools.filter((t) => t.kind === 'write').map((t) => t.name));
    const failure = attributeFailure(outcome, verification, writes, {
      leaks,
      invalidToolArguments: invalid,
      unknownToolCalls: unknown,
    });
    const usage = outcome.usage;
    return {
      id: episodeId(context, task, trial, attempt),
      run: context.run,
      task_id: task.id,
      task_index: task.cove.index,
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
      verification,
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
      ...(failure === undefined ? {} : { failure }),
      benchmark_data: context.benchmarkData,
    };
  } finally {
    episode.close();
  }
}
