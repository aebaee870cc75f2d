import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { overview } from '../../src/view/overview.js';
import { isTau2Results, Tau2ResultsSource } from '../../src/view/tau2-results-source.js';
import { TAU2 } from '../helpers/paths.js';

// real τ² results files (`Results.save`) from tau2-bench runs of GPT-4.1 on retail and airline
const RETAIL = join(TAU2, 'results', 'retail__gpt-4.1__user-gpt-4.1__sierra-feature-gym.json');
const AIRLINE = join(TAU2, 'results', 'airline__gpt-4.1-mini__user-gpt-4.1-mini__1sim__pr170.json');

interface Sim {
  reward_info: { reward: number; db_check: { db_match: boolean } | null };
  termination_reason: string;
  messages: { role: string }[];
}

describe('τ² results.json', () => {
  const raw = JSON.parse(readFileSync(RETAIL, 'utf8')) as { simulations: Sim[] };
  const source = Tau2ResultsSource.read(RETAIL, TAU2);

  it('reads every simulation with τ²’s own reward, and the overview counts them', () => {
    expect(isTau2Results(raw)).toBe(true);
    const facts = source.facts();
    expect(facts).toHaveLength(raw.simulations.length);
    facts.forEach((f, i) => {
      const sim = raw.simulations[i] as Sim;
      expect(f.reward).toBe(sim.reward_info.reward);
      expect(f.termination).toBe(sim.termination_reason);
      expect(f.messages).toBe(sim.messages.length);
      expect(f.toolCalls).toBe(sim.messages.filter((m) => m.role === 'tool').length);
    });
    const o = overview(facts, 0, 0);
    const passed = raw.simulations.filter((s) => s.reward_info.reward === 1).length;
    expect(o.passed).toBe(passed);
    expect(o.episodes).toBe(40);
    expect(o.byDomain).toEqual([{ label: 'retail', total: 40, passed, filter: { domain: 'retail' } }]);
  });

  it('shows a simulation as a chat with tool results linked to their calls', async () => {
    const d = await source.episode(0);
    expect(d.format).toBe('tau2');
    const calls = (d.messages ?? []).flatMap((m) => m.tool_calls ?? []);
    const results = (d.messages ?? []).filter((m) => m.role === 'tool');
    expect(calls.length).toBe(results.length);
    for (const r of results) expect(calls.map((c) => c.id)).toContain(r.tool_call_id);
    expect((d.task as { id: string }).id).toBe(source.facts()[0]?.taskId);
  });

  it('replays each simulation on τ²’s DB: the state diff matches exactly when τ²’s DB check did', async () => {
    let mismatches = 0;
    for (const [i, sim] of raw.simulations.entries()) {
      if (sim.reward_info.db_check === null) continue;
      if (!sim.reward_info.db_check.db_match) mismatches++;
      const diff = await source.stateDiff(i);
      expect(diff.available, diff.notes.join('; ')).toBe(true);
      expect(diff.divergences, `simulation ${i}`).toEqual([]);
      expect(
        diff.entities.every((e) => e.match),
        `simulation ${i}`,
      ).toBe(sim.reward_info.db_check.db_match);
    }
    expect(mismatches).toBe(6); // both outcomes are exercised (6 of the 40 runs failed τ²'s DB check)
  });

  it('computes the state diff of an airline simulation too (cove has the airline domain)', async () => {
    const airline = Tau2ResultsSource.read(AIRLINE, TAU2);
    const diff = await airline.stateDiff(0);
    expect(diff.available).toBe(true);
  });
});
