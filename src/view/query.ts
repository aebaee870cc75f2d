import type { EpisodeFacts } from './facts.js';

/** Filters of the episode list (each optional; all given ones must hold). */
export interface EpisodeFilter {
  readonly kind?: string;
  /** A failure cause, or `none` for episodes without one. */
  readonly failure?: string;
  readonly termination?: string;
  readonly domain?: string;
  readonly difficulty?: string;
  readonly k?: number;
  readonly taskId?: string;
  readonly sft?: boolean;
  readonly stateMatch?: boolean;
  readonly passed?: boolean;
  /** Inclusive ranges. */
  readonly scoreMin?: number;
  readonly scoreMax?: number;
  readonly turnsMin?: number;
  readonly turnsMax?: number;
  readonly toolsMin?: number;
  readonly toolsMax?: number;
  /** Prompt + completion tokens. */
  readonly tokensMin?: number;
  readonly tokensMax?: number;
  /** Lines whose messages matched the text search (computed by the source). */
  readonly lines?: ReadonlySet<number>;
}

/** Sort keys of the list. */
export const SORT_KEYS = ['line', 'task', 'score', 'reward', 'turns', 'tools', 'tokens', 'cost'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

const sortValue: Record<SortKey, (f: EpisodeFacts) => number | string> = {
  line: (f) => f.line,
  task: (f) => f.taskIndex ?? f.taskId,
  score: (f) => f.score ?? -1,
  reward: (f) => f.reward ?? -1,
  turns: (f) => f.userTurns,
  tools: (f) => f.toolCalls,
  tokens: (f) => f.promptTokens + f.completionTokens,
  cost: (f) => f.costUsd,
};

const inRange = (v: number | null, min?: number, max?: number) =>
  (min === undefined || (v !== null && v >= min)) && (max === undefined || (v !== null && v <= max));

/** Whether an episode passes every filter given. */
export function matches(f: EpisodeFacts, q: EpisodeFilter): boolean {
  if (q.kind !== undefined && !f.kinds.includes(q.kind)) return false;
  if (q.failure !== undefined && (f.failure ?? 'none') !== q.failure) return false;
  if (q.termination !== undefined && f.termination !== q.termination) return false;
  if (q.domain !== undefined && f.domain !== q.domain) return false;
  if (q.difficulty !== undefined && (f.difficulty ?? 'unknown') !== q.difficulty) return false;
  if (q.k !== undefined && f.k !== q.k) return false;
  if (q.taskId !== undefined && f.taskId !== q.taskId) return false;
  if (q.sft !== undefined && f.sft !== q.sft) return false;
  if (q.stateMatch !== undefined && f.stateMatch !== q.stateMatch) return false;
  if (q.passed !== undefined && f.passed !== q.passed) return false;
  if (!inRange(f.score, q.scoreMin, q.scoreMax)) return false;
  if (!inRange(f.userTurns, q.turnsMin, q.turnsMax)) return false;
  if (!inRange(f.toolCalls, q.toolsMin, q.toolsMax)) return false;
  if (!inRange(f.promptTokens + f.completionTokens, q.tokensMin, q.tokensMax)) return false;
  if (q.lines !== undefined && !q.lines.has(f.line)) return false;
  return true;
}

/**
 * Filters, sorts (stable; ties in file order) and pages the facts.
 * @returns the page and the number of episodes that matched.
 */
export function queryFacts(
  facts: readonly EpisodeFacts[],
  filter: EpisodeFilter,
  sort: { key: SortKey; desc: boolean },
  page: { offset: number; limit: number },
): { total: number; rows: EpisodeFacts[] } {
  const hits = facts.filter((f) => matches(f, filter));
  if (sort.key !== 'line' || sort.desc) {
    const value = sortValue[sort.key];
    const sign = sort.desc ? -1 : 1;
    hits.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return c !== 0 ? sign * c : a.line - b.line;
    });
  }
  return { total: hits.length, rows: hits.slice(page.offset, page.offset + page.limit) };
}

const flag = (v: string | undefined) => (v === 'yes' ? true : v === 'no' ? false : undefined);
const number = (v: string | undefined) =>
  v === undefined || v === '' || !Number.isFinite(Number(v)) ? undefined : Number(v);
const text = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

/**
 * Reads a filter from URL query parameters: `kind`, `failure`, `termination`, `domain`, `difficulty`, `k`,
 * `task`, `sft` / `stateMatch` / `passed` (`yes` | `no`), `scoreMin`, `scoreMax`, `turnsMin`, `turnsMax`,
 * `toolsMin`, `toolsMax`, `tokensMin`, `tokensMax`. Unknown or empty values are ignored.
 */
export function filterFromQuery(q: Record<string, string | undefined>): EpisodeFilter {
  const entries: [string, unknown][] = [
    ['kind', text(q.kind)],
    ['failure', text(q.failure)],
    ['termination', text(q.termination)],
    ['domain', text(q.domain)],
    ['difficulty', text(q.difficulty)],
    ['k', number(q.k)],
    ['taskId', text(q.task)],
    ['sft', flag(q.sft)],
    ['stateMatch', flag(q.stateMatch)],
    ['passed', flag(q.passed)],
    ['scoreMin', number(q.scoreMin)],
    ['scoreMax', number(q.scoreMax)],
    ['turnsMin', number(q.turnsMin)],
    ['turnsMax', number(q.turnsMax)],
    ['toolsMin', number(q.toolsMin)],
    ['toolsMax', number(q.toolsMax)],
    ['tokensMin', number(q.tokensMin)],
    ['tokensMax', number(q.tokensMax)],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as EpisodeFilter;
}
