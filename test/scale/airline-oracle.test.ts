import { describe, expect, it } from 'vitest';
import type { Difficulty } from '../../src/tasks/cove-task.js';
import type { FuzzLevel } from '../../src/tasks/synthesis.js';
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
 * Issue 14 item 5 at scale: oracle episodes over ≥ 500 synthesized airline tasks of every difficulty and fuzz level,
 * on two sandboxes and on τ²'s DB, all with score 1 and stateMatch; every written id was shown by an earlier tool
 * result; the policy's turn rules hold in every episode.
 */
const PLAN: {
  db: 'tau2' | number;
  seed: number;
  n: number;
  fuzz: FuzzLevel;
  difficulty: Difficulty | 'mixed';
}[] = [
  { db: 7, seed: 11, n: 100, fuzz: 2, difficulty: 'easy' },
  { db: 7, seed: 12, n: 100, fuzz: 1, difficulty: 'medium' },
  { db: 8, seed: 13, n: 100, fuzz: 2, difficulty: 'hard' },
  { db: 'tau2', seed: 14, n: 100, fuzz: 0, difficulty: 'easy' },
  { db: 'tau2', seed: 15, n: 100, fuzz: 2, difficulty: 'medium' },
  { db: 'tau2', seed: 16, n: 100, fuzz: 2, difficulty: 'hard' },
  { db: 'tau2', seed: 17, n: 100, fuzz: 1, difficulty: 'mixed' },
];

describe('airline oracle agent at scale', () => {
  const runs: AirlineRun[] = [];

  it('solves ≥ 500 sampled tasks of every difficulty: score 1, stateMatch, τ² reward 1, no leak', async () => {
    for (const step of PLAN) {
      const loaded = step.db === 'tau2' ? tau2AirlineBase() : airlineSandbox(step.db);
      runs.push(...(await airlineOracleRuns(loaded, step)));
      if (step.db !== 'tau2') loaded.base.close();
    }
    expect(runs.length).toBeGreaterThanOrEqual(500);
    const difficulties = new Set(runs.map((r) => r.task.cove.difficulty));
    expect([...difficulties].sort()).toEqual(['easy', 'hard', 'medium']);
    expect(failures(runs)).toEqual([]);
  });

  it('writes only ids an earlier tool result showed, and follows the turn rules', () => {
    let checked = 0;
    for (const run of runs) {
      checked += checkIdsSeen(run.record.messages, run.record.task_id);
      checkTurns(run);
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
