import type { DoNothingBaseline } from './baseline.js';
import { type ConversationMetrics, conversationMetrics } from './conversation-metrics.js';
import { type JudgeSummary, judgeSummary } from './judge-summary.js';
import { type SftOptions, sftFilter, type TrajectoryRecord } from './trajectory.js';

/** Rewards of a run's episodes by evaluator (CoVe's score or τ²'s reward); `null` rewards are counted apart. */
export interface RewardSummary {
  /** Episodes graded by each evaluator. */
  readonly evaluators: Record<string, number>;
  /** Mean over the episodes whose reward could be computed. */
  readonly mean: number;
  /** Episodes by reward: `1`, `0`, `partial` (strictly between), `null` (not evaluated). */
  readonly distribution: {
    readonly '1': number;
    readonly '0': number;
    readonly partial: number;
    readonly null: number;
  };
}

/** Counts and distributions of a run (`summary.json`). */
export interface RunSummary {
  readonly run: string;
  readonly updated_at: string;
  readonly wall_time_s: number;
  /** Tasks with at least one graded episode (one that did not end on an infrastructure failure). */
  readonly tasks: number;
  /** Every episode recorded, infrastructure failures included. */
  readonly episodes: number;
  /** Episodes that ran to a verdict: all but the infrastructure failures. Yields and means are over these. */
  readonly graded_episodes: number;
  /**
   * Episodes lost to the infrastructure (a model endpoint unreachable or failing after its retries) and tasks with
   * no other episode: not the agent's failures, so left out of every yield and mean; a rerun retries them.
   */
  readonly infrastructure_failures: { readonly episodes: number; readonly tasks: number };
  readonly sft_trajectories: number;
  /** Share of graded tasks with at least one SFT trajectory. */
  readonly task_yield: number;
  /** Share of graded episodes kept for SFT. */
  readonly episode_yield: number;
  /** Mean CoVe score over the graded episodes of generated tasks (0 when there are none). */
  readonly mean_score: number;
  /** Mean τ² reward over the episodes where it could be computed (descriptive tasks' verdicts left out). */
  readonly mean_tau2_reward: number;
  readonly reward: RewardSummary;
  /** Verdicts on descriptive tasks (present only when the run has some). */
  readonly judge?: JudgeSummary;
  /** What a do-nothing agent would get on the run's tasks, computed (target 0 for generated tasks). */
  readonly baseline?: DoNothingBaseline;
  readonly yield_by_kind: Record<string, { tasks: number; passed: number; yield: number }>;
  readonly yield_by_k: Record<string, { tasks: number; passed: number; yield: number }>;
  readonly yield_by_difficulty: Record<string, { tasks: number; passed: number; yield: number }>;
  readonly termination_reasons: Record<string, number>;
  readonly failures: Record<string, number>;
  readonly per_episode: {
    readonly user_turns: Stats;
    readonly messages: Stats;
    readonly tool_calls: Stats;
    /** Longest run of consecutive identical calls (name + canonical arguments) per episode. */
    readonly identical_call_run: Stats;
  };
  readonly leaks: number;
  readonly invalid_tool_arguments: number;
  readonly unknown_tool_calls: number;
  /** Tokens, cost and HTTP retries of the model calls of all episodes. */
  readonly usage: { prompt_tokens: number; completion_tokens: number; cost_usd: number; retries: number };
  readonly benchmark_data: boolean;
  /** How the graded episodes converse (issue 13's measures, docs/conversations.md "Measures"). */
  readonly conversation: ConversationMetrics;
  /**
   * Episodes by who produced the tool outputs: `execute` (the database) and `model` (`--tool-outputs model`).
   * Present only when a model played them.
   */
  readonly tool_outputs?: { readonly execute: number; readonly model: number };
  /**
   * `false` when a model played the tool outputs of any episode: the state never changed, so scores, state
   * matches, τ² rewards and the failure causes that rest on them say nothing about those episodes. Present only then.
   */
  readonly verification_meaningful?: false;
}

interface Stats {
  readonly mean: number;
  readonly p50: number;
  readonly max: number;
}

function stats(values: number[]): Stats {
  if (values.length === 0) return { mean: 0, p50: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return {
    mean: Number(mean.toFixed(3)),
    p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
    max: sorted[sorted.length - 1] ?? 0,
  };
}

const meanOf = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

function rewardSummary(records: readonly TrajectoryRecord[]): RewardSummary {
  const evaluators: Record<string, number> = {};
  const distribution = { '1': 0, '0': 0, partial: 0, null: 0 };
  const rewards: number[] = [];
  for (const r of records) {
    const name = r.evaluation?.evaluator ?? (r.verification === undefined ? 'none' : 'cove');
    evaluators[name] = (evaluators[name] ?? 0) + 1;
    const reward = r.verification !== undefined ? r.verification.score : (r.evaluation?.reward ?? null);
    if (reward === null) distribution.null++;
    else {
      rewards.push(reward);
      if (reward === 1) distribution['1']++;
      else if (reward === 0) distribution['0']++;
      else distribution.partial++;
    }
  }
  return { evaluators, mean: Number(meanOf(rewards).toFixed(4)), distribution };
}

/** What the summary needs to know of each task. */
export interface TaskFacts {
  readonly index: number;
  readonly kinds: readonly string[];
  readonly k: number;
  readonly difficulty: string;
}

/** True for an episode lost to the infrastructure (not graded: it says nothing of the agent). */
export const isInfrastructureFailure = (r: TrajectoryRecord) =>
  r.termination_reason === 'infrastructure_error';

/**
 * Summarises a run from its trajectories (any order) and its tasks. Yields are per task: a task passes when one
 * of its episodes is kept for SFT. Episodes lost to the infrastructure are counted apart
 * (`infrastructure_failures`) and enter no yield, mean or distribution.
 */
export function summarize(
  run: string,
  allRecords: readonly TrajectoryRecord[],
  tasks: readonly TaskFacts[],
  wallTimeS: number,
  baseline?: DoNothingBaseline,
  sft: SftOptions = {},
): RunSummary {
  const keptForSftHere = sftFilter(sft);
  const records = allRecords.filter((r) => !isInfrastructureFailure(r));
  const simulated = allRecords.filter((r) => r.tool_outputs === 'model').length;
  const lost = allRecords.filter(isInfrastructureFailure);
  const passed = new Set(records.filter(keptForSftHere).map((r) => r.task_index));
  const attempted = new Set(records.map((r) => r.task_index));
  const group = (keyOf: (t: TaskFacts) => string[]) => {
    const out: Record<string, { tasks: number; passed: number; yield: number }> = {};
    for (const t of tasks) {
      if (!attempted.has(t.index)) continue;
      for (const key of new Set(keyOf(t))) {
        const g = out[key] ?? { tasks: 0, passed: 0, yield: 0 };
        g.tasks++;
        if (passed.has(t.index)) g.passed++;
        g.yield = Number((g.passed / g.tasks).toFixed(4));
        out[key] = g;
      }
    }
    return out;
  };
  const count = (values: (string | undefined)[]) => {
    const out: Record<string, number> = {};
    for (const v of values) if (v !== undefined) out[v] = (out[v] ?? 0) + 1;
    return out;
  };
  const usage = allRecords.reduce(
    (u, r) => ({
      prompt_tokens: u.prompt_tokens + r.usage.prompt_tokens,
      completion_tokens: u.completion_tokens + r.usage.completion_tokens,
      cost_usd: u.cost_usd + r.usage.cost_usd,
      retries: u.retries + (r.usage.retries ?? 0),
    }),
    { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0, retries: 0 },
  );
  const judged = judgeSummary(records);
  return {
    run,
    updated_at: new Date().toISOString(),
    wall_time_s: Number(wallTimeS.toFixed(3)),
    tasks: attempted.size,
    episodes: allRecords.length,
    graded_episodes: records.length,
    infrastructure_failures: {
      episodes: lost.length,
      tasks: new Set(lost.map((r) => r.task_index).filter((i) => !attempted.has(i))).size,
    },
    sft_trajectories: records.filter(keptForSftHere).length,
    task_yield: attempted.size === 0 ? 0 : Number((passed.size / attempted.size).toFixed(4)),
    episode_yield:
      records.length === 0 ? 0 : Number((records.filter(keptForSftHere).length / records.length).toFixed(4)),
    mean_score: Number(
      meanOf(records.flatMap((r) => (r.verification === undefined ? [] : [r.verification.score]))).toFixed(4),
    ),
    mean_tau2_reward: Number(
      meanOf(
        records.flatMap((r) => {
          if (r.evaluation?.evaluator === 'rubric_judge') return [];
          const v = r.verification !== undefined ? r.verification.tau2Reward : r.evaluation?.reward;
          return v === null || v === undefined ? [] : [v];
        }),
      ).toFixed(4),
    ),
    reward: rewardSummary(records),
    ...(judged === undefined ? {} : { judge: judged }),
    ...(baseline === undefined ? {} : { baseline }),
    yield_by_kind: group((t) => [...t.kinds]),
    yield_by_k: group((t) => [String(t.k)]),
    yield_by_difficulty: group((t) => [t.difficulty]),
    termination_reasons: count(allRecords.map((r) => r.termination_reason)),
    failures: count(allRecords.map((r) => r.failure)),
    // the episode's own messages: a conversation prefix (`--from`, `cove_prefix`) was given, not generated
    per_episode: {
      user_turns: stats(records.map((r) => ownMessages(r).filter((m) => m.role === 'user').length)),
      messages: stats(records.map((r) => ownMessages(r).length)),
      tool_calls: stats(records.map((r) => ownMessages(r).filter((m) => m.role === 'tool').length)),
      identical_call_run: stats(records.map((r) => r.identical_call_run ?? 0)),
    },
    // facts about every recorded episode, like the termination reasons (not yields of the agent)
    leaks: allRecords.reduce((a, r) => a + r.leaks, 0),
    invalid_tool_arguments: allRecords.reduce((a, r) => a + r.invalid_tool_arguments, 0),
    unknown_tool_calls: allRecords.reduce((a, r) => a + (r.unknown_tool_calls ?? 0), 0),
    usage: { ...usage, cost_usd: Number(usage.cost_usd.toFixed(6)) },
    benchmark_data: records.some((r) => r.benchmark_data),
    // sampled with a fixed seed, so the same episodes give the same measures whatever the run's seed
    conversation: conversationMetrics(records),
    ...(simulated === 0
      ? {}
      : {
          tool_outputs: { execute: allRecords.length - simulated, model: simulated },
          verification_meaningful: false as const,
        }),
  };
}

/** A record's messages without those of a conversation prefix (`--from`). */
function ownMessages(r: TrajectoryRecord): TrajectoryRecord['messages'] {
  return r.messages.filter((m) => m.cove_prefix !== true);
}
