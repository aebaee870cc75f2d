/**
 * pass^k as τ² computes it (τ²'s `metrics/agent_metrics.py`; docs/tau2-notes.md): per task, n evaluated trials
 * and c successes (reward within 1e-6 of 1); pass^k = mean over tasks of C(c,k)/C(n,k) for k = 1..min n.
 * Trials ended by `infrastructure_error` are left out of every number and counted apart. A trial whose reward
 * is `null` (a reward component that could not be evaluated) is never a success; it is counted in `unevaluated`.
 * This is pass^k (all k trials succeed), never pass@k.
 */

/** One finished trial. */
export interface TrialOutcome {
  readonly taskId: string;
  readonly trial: number;
  /** τ²'s reward, or `null` when a component of the task's basis could not be evaluated. */
  readonly reward: number | null;
  /** τ²'s termination reason (`infrastructure_error` leaves the trial out). */
  readonly termination: string;
}

/** pass^k and its companions over one set of tasks. */
export interface PassKStats {
  /** Tasks with at least one evaluated trial. */
  readonly tasks: number;
  /** Trials counted (infrastructure errors left out). */
  readonly trials: number;
  /** `passK[k-1]` = pass^k, for k = 1..min trials per task (empty when there is no task). */
  readonly passK: readonly number[];
  /** Mean reward over counted trials, `null` rewards as 0. */
  readonly averageReward: number | null;
  /** 95 % confidence interval of pass^1: mean ± 1.96 · s/√T over the tasks' success rates (normal approximation). */
  readonly ci95: readonly [number, number] | null;
  /** Trials left out as `infrastructure_error`. */
  readonly infrastructureErrors: number;
  /** Counted trials whose reward is `null` (failures here, reported so they are never mistaken for a model's). */
  readonly unevaluated: number;
  /** Tasks whose trial counts differ (τ² warns; pass^k then stops at the smallest). */
  readonly unevenTrials: boolean;
}

/** Success as τ² defines it: `1 − 1e-6 ≤ reward ≤ 1 + 1e-6`. */
export function isSuccess(reward: number | null): boolean {
  return reward !== null && reward >= 1 - 1e-6 && reward <= 1 + 1e-6;
}

/** C(n, k) as a float (exact for the small n of trials). */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** τ²'s `pass_hat_k(n, c, k)` = C(c,k)/C(n,k). @throws {RangeError} when k > n */
export function passHatK(n: number, c: number, k: number): number {
  if (k > n) throw new RangeError(`pass^k: k=${k} exceeds the ${n} trials of a task`);
  return binomial(c, k) / binomial(n, k);
}

/**
 * pass^1…pass^k, average reward and a 95 % interval over `outcomes`, restricted to `include(taskId)` when given.
 */
export function passK(outcomes: readonly TrialOutcome[], include?: (taskId: string) => boolean): PassKStats {
  const perTask = new Map<string, { n: number; c: number }>();
  let infra = 0;
  let unevaluated = 0;
  let trials = 0;
  let rewardSum = 0;
  for (const o of outcomes) {
    if (include !== undefined && !include(o.taskId)) continue;
    if (o.termination === 'infrastructure_error') {
      infra++;
      continue;
    }
    trials++;
    if (o.reward === null) unevaluated++;
    else rewardSum += o.reward;
    const t = perTask.get(o.taskId) ?? { n: 0, c: 0 };
    t.n++;
    if (isSuccess(o.reward)) t.c++;
    perTask.set(o.taskId, t);
  }
  const counts = [...perTask.values()];
  const maxK = counts.length === 0 ? 0 : Math.min(...counts.map((t) => t.n));
  const passKs: number[] = [];
  for (let k = 1; k <= maxK; k++) {
    passKs.push(counts.reduce((s, t) => s + passHatK(t.n, t.c, k), 0) / counts.length);
  }
  let ci95: [number, number] | null = null;
  if (counts.length > 0) {
    const rates = counts.map((t) => t.c / t.n);
    const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
    const variance =
      rates.length > 1 ? rates.reduce((a, r) => a + (r - mean) ** 2, 0) / (rates.length - 1) : 0;
    const half = 1.96 * Math.sqrt(variance / rates.length);
    ci95 = [Math.max(0, mean - half), Math.min(1, mean + half)];
  }
  return {
    tasks: counts.length,
    trials,
    passK: passKs,
    averageReward: trials === 0 ? null : rewardSum / trials,
    ci95,
    infrastructureErrors: infra,
    unevaluated,
    unevenTrials: new Set(counts.map((t) => t.n)).size > 1,
  };
}
