import type { EnvironmentBase } from '../env/environment-base.js';
import { replayCalls } from '../env/replay.js';
import type { TrajectoryRecord } from '../run/trajectory.js';
import { goldCalls, type RunTask } from '../tasks/task.js';
import { type PassKStats, passK, type TrialOutcome } from './pass-k.js';

/**
 * Known-bad tasks of τ²'s data (docs/eval.md; τ² issues #89, #316, #47/#156): scores are shown with and without
 * them. Keys are domain, then task id; `sets` names the task-set versions the problem is in.
 */
export const KNOWN_BAD_TASKS: Readonly<
  Record<string, Readonly<Record<string, { readonly reason: string; readonly sets: readonly string[] }>>>
> = {
  retail: {
    '2': {
      reason: 'gold get_product_details on a product id that does not exist (τ² #89)',
      sets: ['head', 'legacy_v0.1.0'],
    },
    '3': {
      reason: 'gold get_product_details on a product id that does not exist (τ² #89)',
      sets: ['head', 'legacy_v0.1.0'],
    },
    '4': {
      reason: 'gold get_product_details on a product id that does not exist (τ² #89)',
      sets: ['head', 'legacy_v0.1.0'],
    },
    '10': {
      reason: 'the instruction asks to return both orders, the gold actions return none (τ² #316)',
      sets: ['head', 'legacy_v0.1.0'],
    },
  },
  airline: {
    '9': {
      reason:
        'NL-assertion date typo and a gold path cancelling a flown reservation (τ² #47, #156; fixed at head)',
      sets: ['legacy_v0.1.0'],
    },
  },
};

/**
 * Whether an agent that does nothing passes the task (τ² issue #384): every basis component auto-passes on an
 * episode with no tool call — DB (the gold actions leave the DB as it started), COMMUNICATE, NL_ASSERTION,
 * ENV_ASSERTION and ACTION with nothing listed.
 */
export function noOpPassable(task: RunTask, base: EnvironmentBase): boolean {
  const c = task.evaluation_criteria;
  if (c === undefined || c === null) return true;
  for (const component of c.reward_basis ?? ['DB', 'COMMUNICATE']) {
    if (component === 'COMMUNICATE' && (c.communicate_info ?? []).length > 0) return false;
    if (component === 'NL_ASSERTION' && (c.nl_assertions ?? []).length > 0) return false;
    if (component === 'ENV_ASSERTION' && (c.env_assertions ?? []).length > 0) return false;
    if (component === 'ACTION' && (c.actions ?? []).length > 0) return false;
    if (component === 'DB') {
      const { episode } = replayCalls(base, goldCalls(task));
      const same = episode.hashes().db_hash === base.hashes().db_hash;
      episode.close();
      if (!same) return false;
    }
  }
  return true;
}

/** One row of the pass^k table. */
export interface ReportRow {
  readonly subset: 'all tasks' | 'without no-op-passable' | 'without known-bad' | 'without both';
  readonly stats: PassKStats;
}

/** What `cove eval` writes to `report.json` and prints. */
export interface EvalReport {
  readonly domain: string;
  readonly task_set: string;
  readonly trials: number;
  readonly seeds: readonly number[];
  readonly agent: string;
  readonly user: string;
  readonly judge: string | null;
  readonly rows: readonly ReportRow[];
  readonly noop_passable_tasks: readonly string[];
  readonly known_bad_tasks: readonly { readonly task_id: string; readonly reason: string }[];
}

/** The trial outcomes of records (reward = the evaluation's). */
export function outcomesOf(records: readonly TrajectoryRecord[]): TrialOutcome[] {
  return records.map((r) => ({
    taskId: r.task_id,
    trial: r.trial,
    reward: r.evaluation?.reward ?? null,
    termination: r.termination_reason,
  }));
}

/** Builds the per-domain report: pass^k over all tasks, and without no-op-passable and known-bad tasks. */
export function evalReport(parts: {
  domain: string;
  taskSet: string;
  trials: number;
  seeds: readonly number[];
  agent: string;
  user: string;
  judge: string | null;
  tasks: readonly RunTask[];
  base: EnvironmentBase;
  records: readonly TrajectoryRecord[];
}): EvalReport {
  const noop = new Set(parts.tasks.filter((t) => noOpPassable(t, parts.base)).map((t) => t.id));
  const bad = Object.entries(KNOWN_BAD_TASKS[parts.domain] ?? {})
    .filter(([id, b]) => b.sets.includes(parts.taskSet) && parts.tasks.some((t) => t.id === id))
    .map(([task_id, b]) => ({ task_id, reason: b.reason }));
  const badIds = new Set(bad.map((b) => b.task_id));
  const outcomes = outcomesOf(parts.records);
  return {
    domain: parts.domain,
    task_set: parts.taskSet,
    trials: parts.trials,
    seeds: parts.seeds,
    agent: parts.agent,
    user: parts.user,
    judge: parts.judge,
    rows: [
      { subset: 'all tasks', stats: passK(outcomes) },
      { subset: 'without no-op-passable', stats: passK(outcomes, (id) => !noop.has(id)) },
      { subset: 'without known-bad', stats: passK(outcomes, (id) => !badIds.has(id)) },
      { subset: 'without both', stats: passK(outcomes, (id) => !noop.has(id) && !badIds.has(id)) },
    ],
    noop_passable_tasks: [...noop],
    known_bad_tasks: bad,
  };
}

/** The report as a text table (pass^k in %, average reward, 95 % interval of pass^1, exclusions). */
export function reportTable(r: EvalReport): string {
  const ks = Math.max(0, ...r.rows.map((row) => row.stats.passK.length));
  const pct = (v: number) => `${(100 * v).toFixed(1)}`.padStart(6);
  const head = `${'subset'.padEnd(24)}${'tasks'.padStart(6)}${Array.from({ length: ks }, (_, i) => `pass^${i + 1}`.padStart(8)).join('')}${'avg'.padStart(8)}   95% CI (pass^1)   infra  null`;
  const lines = [
    `${r.domain} (τ² task set ${r.task_set}), ${r.trials} trials, seeds ${r.seeds.join(', ')}; agent ${r.agent}, user ${r.user}, judge ${r.judge ?? 'none'}`,
    head,
  ];
  for (const row of r.rows) {
    const s = row.stats;
    lines.push(
      `${row.subset.padEnd(24)}${String(s.tasks).padStart(6)}${Array.from({ length: ks }, (_, i) => (s.passK[i] === undefined ? '–'.padStart(8) : `${pct(s.passK[i] as number)}  `)).join('')}${s.averageReward === null ? '–'.padStart(8) : `${pct(s.averageReward)}  `}   ${s.ci95 === null ? '–' : `[${pct(s.ci95[0])}, ${pct(s.ci95[1])}]`}${String(s.infrastructureErrors).padStart(7)}${String(s.unevaluated).padStart(6)}`,
    );
  }
  lines.push(
    `no-op-passable tasks (an agent doing nothing passes): ${r.noop_passable_tasks.join(', ') || 'none'}`,
  );
  for (const b of r.known_bad_tasks) lines.push(`known-bad task ${b.task_id}: ${b.reason}`);
  return lines.join('\n');
}
