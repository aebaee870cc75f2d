import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/run/summary.js';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';

/**
 * Episodes lost to the infrastructure (a model endpoint down after its retries) are not the agent's failures:
 * they are counted apart and enter no yield or mean. The case, scaled down: 39 episodes that ran all
 * scored 1 and 21 were lost to HTTP 500s; the old summary said task_yield 0.65 (39/60), the right one says 1.
 */

function record(taskIndex: number, outcome: 'pass' | 'fail' | 'infra'): TrajectoryRecord {
  const infra = outcome === 'infra';
  const score = outcome === 'pass' ? 1 : 0;
  return {
    id: `e-${taskIndex}`,
    task_index: taskIndex,
    termination_reason: infra ? 'infrastructure_error' : 'user_stop',
    ...(infra
      ? { termination_detail: 'agent model call to http://127.0.0.1:9/v1 failed after 0 retries' }
      : {}),
    failure: infra ? 'infrastructure' : outcome === 'pass' ? undefined : 'state_mismatch',
    verification: {
      score,
      stateMatch: score === 1,
      tau2Reward: score,
      constraints: [],
      redundant: 0,
      terminationOk: !infra,
    },
    evaluation: { evaluator: 'cove', reward: score, report: {} },
    messages: [],
    usage: { prompt_tokens: 10, completion_tokens: 5, cost_usd: 0, retries: infra ? 4 : 0 },
    leaks: 0,
    invalid_tool_arguments: 0,
    benchmark_data: false,
  } as unknown as TrajectoryRecord;
}

const facts = (n: number) =>
  Array.from({ length: n }, (_, index) => ({
    index,
    kinds: ['cancel_pending_order'],
    k: 1,
    difficulty: 'easy',
  }));

describe('summary.json: infrastructure failures', () => {
  it('39 passes and 21 infrastructure failures: yields and mean score 1, the 21 reported apart', () => {
    const records = [
      ...Array.from({ length: 39 }, (_, i) => record(i, 'pass')),
      ...Array.from({ length: 21 }, (_, i) => record(39 + i, 'infra')),
    ];
    const s = summarize('run-x', records, facts(60), 1);
    expect(s.episodes).toBe(60);
    expect(s.graded_episodes).toBe(39);
    expect(s.infrastructure_failures).toEqual({ episodes: 21, tasks: 21 });
    expect(s.tasks).toBe(39);
    expect(s.task_yield).toBe(1);
    expect(s.episode_yield).toBe(1);
    expect(s.mean_score).toBe(1);
    expect(s.reward.distribution).toEqual({ '1': 39, '0': 0, partial: 0, null: 0 });
    expect(s.yield_by_kind.cancel_pending_order).toEqual({ tasks: 39, passed: 39, yield: 1 });
    expect(s.termination_reasons.infrastructure_error).toBe(21); // still visible as a termination reason
    expect(s.usage.retries).toBe(84); // 21 × 4: the retries of the lost calls are still paid for
  });

  it('a task whose retried episode passed is graded, not an infrastructure failure', () => {
    const lost = { ...record(0, 'infra'), id: 'e-0-a0' } as TrajectoryRecord;
    const s = summarize('run-x', [lost, record(0, 'pass'), record(1, 'fail')], facts(2), 1);
    expect(s.infrastructure_failures).toEqual({ episodes: 1, tasks: 0 });
    expect(s.tasks).toBe(2);
    expect(s.task_yield).toBe(0.5); // 1 of 2 graded tasks
    expect(s.mean_score).toBe(0.5); // (1 + 0) / 2 graded episodes
  });
});
