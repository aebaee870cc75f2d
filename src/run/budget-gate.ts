import type { UsageMeter } from '../llm/usage-meter.js';

/** What one finished episode spent. */
export interface EpisodeSpend {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cost_usd: number;
}

/**
 * Admits episodes while a run-wide budget (tokens and/or USD, from the {@link UsageMeter}) can still pay for
 * them, so a run stops near its budget instead of passing it by a whole batch of concurrent episodes.
 *
 * Without a budget every episode is admitted at once. With one, the first episode of the process runs alone (its
 * cost is unknown until one finishes, unless the run folder already holds episodes); then an episode is admitted
 * when what is spent, plus what the episodes under way are expected to spend, plus one more episode stays within
 * the budget, an episode being expected to spend as much as the most expensive finished one (the mean would
 * underestimate: short episodes finish first, long ones are still under way), and no more than twice as many
 * episodes under way as have finished (a slow start: one cheap first episode says little). Otherwise it waits for an episode under
 * way to finish and asks again; when nothing is under way it is admitted as long as the budget is not reached
 * (the remainder is spent). Once the budget is reached, nothing more is admitted.
 */
export class BudgetGate {
  readonly #meter: UsageMeter;
  #inFlight = 0;
  #finished = 0;
  #finishedTokens = 0;
  #finishedCost = 0;
  #maxTokens = 0;
  #maxCost = 0;
  /** Spend already in the meter when the gate was made (an earlier run of the folder): not anyone's partial. */
  readonly #baseTokens: number;
  readonly #baseCost: number;
  #waiters: (() => void)[] = [];

  /**
   * @param meter the run-wide meter, its calls added as they happen
   * @param earlier episodes already in the run folder (absorbed into the meter): they seed the mean
   */
  constructor(meter: UsageMeter, earlier: readonly EpisodeSpend[] = []) {
    this.#meter = meter;
    for (const e of earlier) this.#count(e);
    this.#baseTokens = meter.promptTokens + meter.completionTokens - this.#finishedTokens;
    this.#baseCost = meter.costUsd - this.#finishedCost;
  }

  /** Resolves true when an episode may start (the caller must then call {@link finish}), false to start none. */
  async admit(): Promise<boolean> {
    const { maxTokens, maxCostUsd } = this.#meter.budget;
    if (maxTokens === undefined && maxCostUsd === undefined) {
      this.#inFlight++;
      return true;
    }
    for (;;) {
      if (this.#meter.exhausted()) return false;
      // slow start: no more episodes under way than twice the finished ones, so the estimate has a sample
      const ramped = this.#inFlight < 2 * this.#finished;
      if (this.#inFlight === 0 || (ramped && this.#affordable(maxTokens, maxCostUsd))) {
        this.#inFlight++;
        return true;
      }
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** An admitted episode ended; `spend` is its usage (undefined when it produced no record). */
  finish(spend: EpisodeSpend | undefined): void {
    this.#inFlight--;
    if (spend !== undefined) this.#count(spend);
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  #count(spend: EpisodeSpend): void {
    this.#finished++;
    this.#finishedTokens += spend.prompt_tokens + spend.completion_tokens;
    this.#finishedCost += spend.cost_usd;
    this.#maxTokens = Math.max(this.#maxTokens, spend.prompt_tokens + spend.completion_tokens);
    this.#maxCost = Math.max(this.#maxCost, spend.cost_usd);
  }

  #affordable(maxTokens: number | undefined, maxCostUsd: number | undefined): boolean {
    const fits = (spent: number, finished: number, base: number, each: number, max: number | undefined) => {
      if (max === undefined) return true;
      const partial = Math.max(0, spent - base - finished); // already spent by the episodes under way
      const expected = Math.max(0, this.#inFlight * each - partial);
      return spent + expected + each <= max;
    };
    const tokens = this.#meter.promptTokens + this.#meter.completionTokens;
    return (
      fits(tokens, this.#finishedTokens, this.#baseTokens, this.#maxTokens, maxTokens) &&
      fits(this.#meter.costUsd, this.#finishedCost, this.#baseCost, this.#maxCost, maxCostUsd)
    );
  }
}
