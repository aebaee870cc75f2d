import type { EpisodeFacts } from './facts.js';

/** One run's side of a task in a comparison. */
export interface CompareSide {
  /** Lines of the task's episodes in that run (file order). */
  readonly lines: readonly number[];
  readonly passed: number;
  readonly total: number;
  /** Best CoVe score or reward among the episodes, `null` when none has one. */
  readonly best: number | null;
  /** Failure causes of the episodes that did not pass, each once. */
  readonly failures: readonly string[];
}

/** How a task fared in two runs. */
export type CompareStatus = 'both' | 'only_a' | 'only_b' | 'neither' | 'missing';

export interface CompareRow {
  readonly taskId: string;
  readonly a: CompareSide | null;
  readonly b: CompareSide | null;
  readonly status: CompareStatus;
}

function sides(facts: readonly EpisodeFacts[]): Map<string, CompareSide & { order: number }> {
  const out = new Map<
    string,
    { lines: number[]; passed: number; total: number; best: number | null; failures: string[]; order: number }
  >();
  for (const f of facts) {
    const s = out.get(f.taskId) ?? {
      lines: [],
      passed: 0,
      total: 0,
      best: null,
      failures: [],
      order: f.taskIndex ?? out.size,
    };
    if (!f.passed && f.failure !== null && !s.failures.includes(f.failure)) s.failures.push(f.failure);
    s.lines.push(f.line);
    s.total++;
    if (f.passed) s.passed++;
    const value = f.score ?? f.reward;
    if (value !== null && (s.best === null || value > s.best)) s.best = value;
    out.set(f.taskId, s);
  }
  return out;
}

/**
 * Pairs two runs' episodes by task id. A task passes in a run when one of its episodes passed. Rows are in
 * the first run's task order, then the tasks only the second run has.
 */
export function compareRuns(a: readonly EpisodeFacts[], b: readonly EpisodeFacts[]): CompareRow[] {
  const left = sides(a);
  const right = sides(b);
  const ids = [...new Set([...left.keys(), ...right.keys()])];
  const order = (id: string) => left.get(id)?.order ?? (right.get(id)?.order ?? 0) + 1e9;
  ids.sort((x, y) => order(x) - order(y) || x.localeCompare(y));
  return ids.map((taskId) => {
    const l = left.get(taskId);
    const r = right.get(taskId);
    const strip = (s: (CompareSide & { order: number }) | undefined): CompareSide | null =>
      s === undefined
        ? null
        : { lines: s.lines, passed: s.passed, total: s.total, best: s.best, failures: s.failures };
    const status: CompareStatus =
      l === undefined || r === undefined
        ? 'missing'
        : l.passed > 0 && r.passed > 0
          ? 'both'
          : l.passed > 0
            ? 'only_a'
            : r.passed > 0
              ? 'only_b'
              : 'neither';
    return { taskId, a: strip(l), b: strip(r), status };
  });
}

/** Counts of each status. */
export function compareCounts(rows: readonly CompareRow[]): Record<CompareStatus, number> {
  const out: Record<CompareStatus, number> = { both: 0, only_a: 0, only_b: 0, neither: 0, missing: 0 };
  for (const r of rows) out[r.status]++;
  return out;
}
