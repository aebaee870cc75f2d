import { describe, expect, it } from 'vitest';
import { UsageMeter } from '../../src/llm/usage-meter.js';
import { BudgetGate } from '../../src/run/budget-gate.js';

/** Episode costs are multiples of 0.25 USD (exact in binary), so every comparison below is exact. */
const call = (cost: number) => ({ prompt_tokens: 0, completion_tokens: 0, cost_usd: cost, retries: 0 });
const spend = (cost: number) => ({ prompt_tokens: 0, completion_tokens: 0, cost_usd: cost });

/** Resolves to the settled value, or 'pending' if the promise has not settled after the microtasks run. */
async function state(p: Promise<boolean>): Promise<boolean | 'pending'> {
  return Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), 20))]);
}

describe('BudgetGate', () => {
  it('without a budget admits every episode at once', async () => {
    const gate = new BudgetGate(new UsageMeter());
    const all = await Promise.all(Array.from({ length: 100 }, () => gate.admit()));
    expect(all.every((a) => a)).toBe(true);
  });

  it('USD 1.00 and episodes of 0.25: one alone, a slow start, as many as the budget can pay for, then none', async () => {
    const meter = new UsageMeter({ max_cost_usd: 1 });
    const gate = new BudgetGate(meter);
    expect(await gate.admit()).toBe(true); // #1 runs alone: its cost is unknown
    const second = gate.admit();
    expect(await state(second)).toBe('pending');
    meter.add(call(0.25));
    gate.finish(spend(0.25));
    expect(await second).toBe(true); // nothing under way: admitted
    // 1 under way < 2 × 1 finished, and 0.25 spent + 1 × 0.25 expected + 0.25 = 0.75 ≤ 1
    expect(await gate.admit()).toBe(true);
    // 2 under way = 2 × 1 finished: the slow start holds #4 back
    const fourth = gate.admit();
    expect(await state(fourth)).toBe('pending');
    meter.add(call(0.25));
    gate.finish(spend(0.25)); // #2 done: 2 finished, 1 under way; 0.5 + 0.25 + 0.25 = 1.0 ≤ 1
    expect(await fourth).toBe(true);
    // #5: 0.5 spent + 2 × 0.25 expected + 0.25 = 1.25 > 1: it waits for an episode to finish
    const fifth = gate.admit();
    expect(await state(fifth)).toBe('pending');
    // the episodes under way spend the rest: the budget is reached, #5 is refused
    meter.add(call(0.25));
    meter.add(call(0.25));
    gate.finish(spend(0.25));
    expect(await fifth).toBe(false);
    expect(await gate.admit()).toBe(false);
  });

  it('spend already made by the episodes under way is not counted twice', async () => {
    const meter = new UsageMeter({ max_cost_usd: 0.875 });
    const gate = new BudgetGate(meter);
    await gate.admit();
    meter.add(call(0.25));
    gate.finish(spend(0.25));
    expect(await gate.admit()).toBe(true); // A under way
    meter.add(call(0.25)); // A has spent its expected 0.25 already: expected remainder 0
    // spent 0.5 + remainder 0 + one more 0.25 = 0.75 ≤ 0.875 (counting A twice would make 1.0)
    expect(await state(gate.admit())).toBe(true);
  });

  it('episodes already in the run folder seed the mean: no lone first episode on a resume', async () => {
    const meter = new UsageMeter({ max_cost_usd: 1 });
    meter.absorb('earlier', spend(0.25));
    const gate = new BudgetGate(meter, [spend(0.25)]);
    expect(await gate.admit()).toBe(true);
    // 0.25 + 1 × 0.25 + 0.25 = 0.75 ≤ 1: admitted without waiting
    expect(await state(gate.admit())).toBe(true);
  });

  it('a token budget works the same way', async () => {
    const meter = new UsageMeter({ max_tokens: 400 });
    const gate = new BudgetGate(meter);
    await gate.admit();
    meter.add({ prompt_tokens: 80, completion_tokens: 20, cost_usd: 0, retries: 0 });
    gate.finish({ prompt_tokens: 80, completion_tokens: 20, cost_usd: 0 });
    expect(await gate.admit()).toBe(true); // nothing under way
    expect(await gate.admit()).toBe(true); // 100 + 100 + 100 = 300 ≤ 400
    const next = gate.admit(); // slow start: 2 under way, 1 finished
    expect(await state(next)).toBe('pending');
    meter.add({ prompt_tokens: 300, completion_tokens: 0, cost_usd: 0, retries: 0 }); // 400: reached
    gate.finish(undefined);
    expect(await next).toBe(false);
  });
});
