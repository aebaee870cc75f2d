import type { PriceTable } from './config.js';

/** Tokens and cost of one model call, and how many times its HTTP request was retried before it succeeded. */
export interface CallUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cost_usd: number;
  readonly retries: number;
}

/** The cost of a call from the price table (0 for models not in it). */
export function callCost(
  prices: PriceTable,
  model: string,
  promptTokens: number,
  completionTokens: number,
): number {
  const price = prices[model.replace(/^openai:/, '')];
  if (price === undefined) return 0;
  return (promptTokens * price.prompt_per_mtok + completionTokens * price.completion_per_mtok) / 1_000_000;
}

/**
 * Run-wide token and cost accounting with an optional budget: once spent reaches the budget, `exhausted()` is
 * true and the run starts no new episode (episodes under way finish).
 */
export class UsageMeter {
  promptTokens = 0;
  completionTokens = 0;
  costUsd = 0;
  calls = 0;
  readonly #maxTokens: number | undefined;
  readonly #maxCostUsd: number | undefined;
  /** Trajectories whose usage is already counted (live, or absorbed from an earlier run of the folder). */
  readonly #counted = new Set<string>();

  constructor(budget: { max_tokens?: number | undefined; max_cost_usd?: number | undefined } = {}) {
    this.#maxTokens = budget.max_tokens;
    this.#maxCostUsd = budget.max_cost_usd;
  }

  /** The budget: tokens (prompt + completion) and USD; undefined where none is set. */
  get budget(): { readonly maxTokens: number | undefined; readonly maxCostUsd: number | undefined } {
    return { maxTokens: this.#maxTokens, maxCostUsd: this.#maxCostUsd };
  }

  add(usage: CallUsage): void {
    this.calls++;
    this.promptTokens += usage.prompt_tokens;
    this.completionTokens += usage.completion_tokens;
    this.costUsd += usage.cost_usd;
  }

  /**
   * Counts the usage of a trajectory written by an earlier run of the same folder, once: a resumed run's budget
   * covers the whole run, not each invocation.
   */
  absorb(
    trajectoryId: string,
    usage: { prompt_tokens: number; completion_tokens: number; cost_usd: number },
  ): void {
    if (this.#counted.has(trajectoryId)) return;
    this.#counted.add(trajectoryId);
    this.promptTokens += usage.prompt_tokens;
    this.completionTokens += usage.completion_tokens;
    this.costUsd += usage.cost_usd;
  }

  /** Marks a trajectory made in this process as counted (its calls were added as they happened). */
  counted(trajectoryId: string): void {
    this.#counted.add(trajectoryId);
  }

  exhausted(): boolean {
    if (this.#maxTokens !== undefined && this.promptTokens + this.completionTokens >= this.#maxTokens)
      return true;
    return this.#maxCostUsd !== undefined && this.costUsd >= this.#maxCostUsd;
  }
}
