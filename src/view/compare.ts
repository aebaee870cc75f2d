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

/**
 * How a task fared in two runs. `different`: both runs have the id but its tasks differ, so the two sides are
 * not the same task and are not counted as a match of any kind.
 */
export type CompareStatus = 'both' | 'only_a' | 'only_b' | 'neither' | 'different' | 'missing';

export interface CompareRow {
  readonly taskId: string;
  readonly a: CompareSide | null;
  readonly b: CompareSide | null;
  readonly status: CompareStatus;
  /** Both runs' tasks under this id are the same (`null`: one run only, or nothing to tell them apart by). */
  readonly sameTask: boolean | null;
}

/**
 * What the tasks were compared by: their definitions (both runs hold their tasks: tasks.json or a τ² results
 * file's tasks), or, when a run has no task definitions, what its records carry (domain, k, constraint kinds).
 */
export type CompareBasis = 'tasks' | 'records';

/** Each run's tasks (task id → fingerprint), when it holds them. */
export interface ComparePrints {
  readonly a?: ReadonlyMap<string, string> | undefined;
  readonly b?: ReadonlyMap<string, string> | undefined;
}

/** The basis used for two runs. */
export function compareBasis(prints: ComparePrints): CompareBasis {
  return prints.a !== undefined && prints.b !== undefined ? 'tasks' : 'records';
}

/**
 * What a record without its task says of the task: its domain, number of constraints and their kinds (from the
 * verification). A weaker check than the task definitions' fingerprint (`task-print.ts`), used when a side has no task definitions; `undefined`
 * for a record that carries none of it (no verification).
 */
export function recordTaskPrint(f: EpisodeFacts): string | undefined {
  if (f.k === null) return undefined;
  return `${f.domain}|k=${f.k}|${[...f.kinds].sort().join(',')}`;
}

/** Task id → what the records say of the task (the first record that says anything). */
function recordPrints(facts: readonly EpisodeFacts[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of facts) {
    if (out.has(f.taskId)) continue;
    const p = recordTaskPrint(f);
    if (p !== undefined) out.set(f.taskId, p);
  }
  return out;
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
 * Pairs two runs' episodes by task id, and checks that the id names the same task in both (by `prints`, else
 * by the records). A task passes in a run when one of its episodes passed. Rows are in the first run's task
 * order, then the tasks only the second run has.
 */
export function compareRuns(
  a: readonly EpisodeFacts[],
  b: readonly EpisodeFacts[],
  prints: ComparePrints = {},
): CompareRow[] {
  const left = sides(a);
  const right = sides(b);
  const byTasks = compareBasis(prints) === 'tasks';
  const printsA = byTasks ? prints.a : recordPrints(a);
  const printsB = byTasks ? prints.b : recordPrints(b);
  const same = (id: string): boolean | null => {
    const x = printsA?.get(id);
    const y = printsB?.get(id);
    return x === undefined || y === undefined ? null : x === y;
  };
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
    const sameTask = l === undefined || r === undefined ? null : same(taskId);
    const status: CompareStatus =
      l === undefined || r === undefined
        ? 'missing'
        : sameTask === false
          ? 'different'
          : l.passed > 0 && r.passed > 0
            ? 'both'
            : l.passed > 0
              ? 'only_a'
              : r.passed > 0
                ? 'only_b'
                : 'neither';
    return { taskId, a: strip(l), b: strip(r), status, sameTask };
  });
}

/** Counts of each status. */
export function compareCounts(rows: readonly CompareRow[]): Record<CompareStatus, number> {
  const out: Record<CompareStatus, number> = {
    both: 0,
    only_a: 0,
    only_b: 0,
    neither: 0,
    different: 0,
    missing: 0,
  };
  for (const r of rows) out[r.status]++;
  return out;
}

/**
 * What the page says above a comparison, if anything: that the runs have no task in common (no shared id, or
 * every shared id names different tasks), or how many shared ids name different tasks.
 */
export function compareNote(rows: readonly CompareRow[], basis: CompareBasis): string | undefined {
  const counts = compareCounts(rows);
  const shared = rows.length - counts.missing;
  const by = basis === 'tasks' ? 'task definitions' : 'records (domain, constraint kinds; no tasks.json)';
  if (shared === 0) return 'these runs have no task in common: no task id is in both';
  if (counts.different === shared)
    return `these runs have no task in common: all ${shared} shared task ids name different tasks (compared by ${by})`;
  if (counts.different > 0)
    return `${counts.different} of ${shared} shared task ids name different tasks in the two runs (compared by ${by}); they are not counted as matches`;
  return undefined;
}
