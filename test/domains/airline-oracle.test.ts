import { describe, expect, it } from 'vitest';
import { tau2AirlineBase } from '../helpers/airline-base.js';
import {
  type AirlineRun,
  airlineOracleRuns,
  airlineSandbox,
  checkIdsSeen,
  checkTurns,
  failures,
} from '../helpers/airline-oracle.js';

/**
 * A sample of the airline oracle checks (the ≥ 500-task version is test/scale/airline-oracle.test.ts): synthesized
 * tasks on a sandbox and on τ²'s DB, every episode verified with score 1 and stateMatch, ids written only after a
 * tool result showed them, the policy's turn rules.
 */
describe('airline oracle agent with the scripted user (sample)', () => {
  const runs: AirlineRun[] = [];

  it('solves sampled tasks of every difficulty: score 1, stateMatch, τ² reward 1, no leak', async () => {
    const sandbox = airlineSandbox(3);
    runs.push(...(await airlineOracleRuns(sandbox, { seed: 1, n: 40, fuzz: 2, difficulty: 'hard' })));
    sandbox.base.close();
    runs.push(
      ...(await airlineOracleRuns(tau2AirlineBase(), { seed: 2, n: 40, fuzz: 1, difficulty: 'easy' })),
    );
    runs.push(
      ...(await airlineOracleRuns(tau2AirlineBase(), { seed: 3, n: 40, fuzz: 2, difficulty: 'medium' })),
    );
    expect(runs.length).toBe(120);
    expect(failures(runs)).toEqual([]);
  }, 300_000);

  it('writes only ids an earlier tool result showed, and follows the turn rules', () => {
    let checked = 0;
    for (const run of runs) {
      checked += checkIdsSeen(run.record.messages, run.record.task_id);
      checkTurns(run);
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('enacts the drawn behaviour: every kind of event the draw gives appears in some episode', () => {
    const enacted = new Set(runs.flatMap((r) => r.record.enacted_events ?? []));
    expect([...enacted].sort()).toEqual(
      expect.arrayContaining(['partial_info', 'push_back', 'two_requests', 'wrong_detail']),
    );
  });

  it('the customer never hedges twice in one message ("Um, let me see. Let me see...")', () => {
    const twice = runs.flatMap(({ record }) =>
      record.messages
        .filter((m) => m.role === 'user' && (m.content ?? '').toLowerCase().split('let me see').length > 2)
        .map((m) => `${record.task_id}: ${m.content}`),
    );
    expect(twice).toEqual([]);
  });
});
