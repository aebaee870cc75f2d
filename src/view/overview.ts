import type { EpisodeFacts } from './facts.js';

/** One bar: a label, its counts and the list filter (URL query parameters) of the episodes behind it. */
export interface Bar {
  readonly label: string;
  readonly total: number;
  /** Episodes that passed (kept for SFT, or τ² reward 1) among `total`; absent for plain counts. */
  readonly passed?: number;
  readonly filter: Readonly<Record<string, string>>;
}

/** What the overview page charts. */
export interface Overview {
  readonly episodes: number;
  readonly tasks: number;
  readonly passed: number;
  /** Share of episodes passed (SFT yield for cove runs, τ² pass^1 for results files). */
  readonly yield: number;
  /** Share of tasks with at least one passed episode. */
  readonly taskYield: number;
  readonly sft: number;
  /** Mean CoVe score over episodes that have one, `null` when none has. */
  readonly meanScore: number | null;
  readonly meanReward: number | null;
  readonly stateMatch: number;
  readonly malformed: number;
  readonly superseded: number;
  readonly usage: {
    readonly promptTokens: number;
    readonly completionTokens: number;
    readonly costUsd: number;
    readonly retries: number;
  };
  readonly byKind: Bar[];
  readonly byK: Bar[];
  readonly byDifficulty: Bar[];
  readonly byDomain: Bar[];
  readonly termination: Bar[];
  readonly failure: Bar[];
  readonly score: Bar[];
  readonly turns: Bar[];
  readonly toolCalls: Bar[];
  readonly tokens: Bar[];
}

function groups(
  facts: readonly EpisodeFacts[],
  param: string,
  keysOf: (f: EpisodeFacts) => readonly string[],
): Bar[] {
  const out = new Map<string, { total: number; passed: number }>();
  for (const f of facts) {
    for (const key of keysOf(f)) {
      const g = out.get(key) ?? { total: 0, passed: 0 };
      g.total++;
      if (f.passed) g.passed++;
      out.set(key, g);
    }
  }
  return [...out]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([label, g]) => ({ label, ...g, filter: { [param]: label } }));
}

function counts(
  facts: readonly EpisodeFacts[],
  param: string,
  keyOf: (f: EpisodeFacts) => string | null,
  none?: string,
): Bar[] {
  const out = new Map<string, number>();
  for (const f of facts) {
    const key = keyOf(f) ?? none;
    if (key !== undefined) out.set(key, (out.get(key) ?? 0) + 1);
  }
  return [...out]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([label, total]) => ({ label, total, filter: { [param]: label } }));
}

/**
 * A histogram of an integer-valued fact: one bar per value when the values span at most `maxBars`, else
 * bins of equal width; each bar filters the list to its range (`<param>Min`, `<param>Max`, inclusive).
 */
export function histogram(values: readonly number[], param: string, maxBars = 30): Bar[] {
  if (values.length === 0) return [];
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const width = Math.max(1, Math.ceil((hi - lo + 1) / maxBars));
  const bins = new Map<number, number>();
  for (const v of values) {
    const b = Math.floor((v - lo) / width);
    bins.set(b, (bins.get(b) ?? 0) + 1);
  }
  const bars: Bar[] = [];
  const n = Math.floor((hi - lo) / width) + 1;
  for (let b = 0; b < n; b++) {
    const min = lo + b * width;
    const max = min + width - 1;
    bars.push({
      label: width === 1 ? String(min) : `${min}–${max}`,
      total: bins.get(b) ?? 0,
      filter: { [`${param}Min`]: String(min), [`${param}Max`]: String(max) },
    });
  }
  return bars;
}

/** The distinct CoVe scores (few: satisfied/k · 0.5^redundant), one bar each, filtering by exact value. */
function scoreBars(facts: readonly EpisodeFacts[]): Bar[] {
  const out = new Map<number, number>();
  for (const f of facts) if (f.score !== null) out.set(f.score, (out.get(f.score) ?? 0) + 1);
  return [...out]
    .sort((a, b) => a[0] - b[0])
    .map(([score, total]) => ({
      label: Number(score.toFixed(3)).toString(),
      total,
      filter: { scoreMin: String(score), scoreMax: String(score) },
    }));
}

/** Aggregates the facts of a source for the overview charts. */
export function overview(facts: readonly EpisodeFacts[], malformed: number, superseded: number): Overview {
  const tasks = new Set<string>();
  const passedTasks = new Set<string>();
  let passed = 0;
  let sft = 0;
  let stateMatch = 0;
  let scoreSum = 0;
  let scored = 0;
  let rewardSum = 0;
  let rewarded = 0;
  const usage = { promptTokens: 0, completionTokens: 0, costUsd: 0, retries: 0 };
  for (const f of facts) {
    tasks.add(f.taskId);
    if (f.passed) {
      passed++;
      passedTasks.add(f.taskId);
    }
    if (f.sft === true) sft++;
    if (f.stateMatch === true) stateMatch++;
    if (f.score !== null) {
      scoreSum += f.score;
      scored++;
    }
    if (f.reward !== null) {
      rewardSum += f.reward;
      rewarded++;
    }
    usage.promptTokens += f.promptTokens;
    usage.completionTokens += f.completionTokens;
    usage.costUsd += f.costUsd;
    usage.retries += f.retries;
  }
  return {
    episodes: facts.length,
    tasks: tasks.size,
    passed,
    yield: facts.length === 0 ? 0 : passed / facts.length,
    taskYield: tasks.size === 0 ? 0 : passedTasks.size / tasks.size,
    sft,
    meanScore: scored === 0 ? null : scoreSum / scored,
    meanReward: rewarded === 0 ? null : rewardSum / rewarded,
    stateMatch,
    malformed,
    superseded,
    usage,
    byKind: groups(facts, 'kind', (f) => f.kinds),
    byK: groups(facts, 'k', (f) => (f.k === null ? [] : [String(f.k)])),
    byDifficulty: groups(facts, 'difficulty', (f) => (f.difficulty === null ? [] : [f.difficulty])),
    byDomain: groups(facts, 'domain', (f) => [f.domain]),
    termination: counts(facts, 'termination', (f) => f.termination),
    failure: counts(facts, 'failure', (f) => f.failure),
    score: scoreBars(facts),
    turns: histogram(
      facts.map((f) => f.userTurns),
      'turns',
    ),
    toolCalls: histogram(
      facts.map((f) => f.toolCalls),
      'tools',
    ),
    tokens: facts.some((f) => f.promptTokens + f.completionTokens > 0)
      ? histogram(
          facts.map((f) => f.promptTokens + f.completionTokens),
          'tokens',
          20,
        )
      : [],
  };
}
