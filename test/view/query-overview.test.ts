import { describe, expect, it } from 'vitest';
import { compareCounts, compareRuns } from '../../src/view/compare.js';
import type { EpisodeFacts } from '../../src/view/facts.js';
import { histogram, overview } from '../../src/view/overview.js';
import { filterFromQuery, queryFacts } from '../../src/view/query.js';

function facts(line: number, o: Partial<EpisodeFacts>): EpisodeFacts {
  return {
    line,
    id: `e${line}`,
    taskId: `t${line}`,
    taskIndex: line,
    domain: 'retail',
    trial: 0,
    agent: 'a',
    user: 'u',
    score: 1,
    stateMatch: true,
    reward: null,
    passed: true,
    sft: true,
    termination: 'user_stop',
    failure: null,
    kinds: ['cancel'],
    k: 1,
    difficulty: 'easy',
    userTurns: 3,
    messages: 10,
    toolCalls: 2,
    redundant: 0,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    retries: 0,
    ...o,
  };
}

const fail = { passed: false, sft: false };
const all = [
  facts(0, {}),
  facts(1, {
    ...fail,
    score: 0.5,
    stateMatch: false,
    failure: 'wrong_write',
    kinds: ['cancel', 'refusal'],
    k: 2,
    difficulty: 'medium',
    userTurns: 5,
    toolCalls: 6,
  }),
  facts(2, { ...fail, score: 0, termination: 'max_steps', failure: 'max_steps', userTurns: 9, toolCalls: 0 }),
  facts(3, {
    kinds: ['refusal'],
    userTurns: 4,
    promptTokens: 100,
    completionTokens: 20,
    costUsd: 0.5,
    retries: 3,
  }),
  facts(4, {
    ...fail,
    score: 0.5,
    failure: 'wrong_write',
    taskId: 't0',
    difficulty: 'medium',
    kinds: ['refusal'],
  }),
];

describe('episode list query', () => {
  it('filters by every kind of filter the page offers', () => {
    const lines = (q: Record<string, string>) =>
      queryFacts(all, filterFromQuery(q), { key: 'line', desc: false }, { offset: 0, limit: 50 }).rows.map(
        (r) => r.line,
      );
    expect(lines({ kind: 'refusal' })).toEqual([1, 3, 4]);
    expect(lines({ failure: 'wrong_write' })).toEqual([1, 4]);
    expect(lines({ failure: 'none' })).toEqual([0, 3]);
    expect(lines({ termination: 'max_steps' })).toEqual([2]);
    expect(lines({ sft: 'yes' })).toEqual([0, 3]);
    expect(lines({ stateMatch: 'no' })).toEqual([1]);
    expect(lines({ passed: 'no', kind: 'refusal' })).toEqual([1, 4]);
    expect(lines({ scoreMin: '0.5', scoreMax: '0.5' })).toEqual([1, 4]);
    expect(lines({ turnsMin: '4', turnsMax: '5' })).toEqual([1, 3]);
    expect(lines({ toolsMin: '1' })).toEqual([0, 1, 3, 4]);
    expect(lines({ tokensMin: '1' })).toEqual([3]);
    expect(lines({ difficulty: 'medium', k: '2' })).toEqual([1]);
    expect(lines({ task: 't0' })).toEqual([0, 4]);
    expect(lines({ kind: '', sft: 'maybe', scoreMin: 'x' })).toEqual([0, 1, 2, 3, 4]); // ignored values
  });

  it('sorts stably and pages', () => {
    const page = queryFacts(all, {}, { key: 'turns', desc: true }, { offset: 1, limit: 2 });
    // turns 3,5,9,4,3 → descending 9(2),5(1),4(3),3(0),3(4)
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.line)).toEqual([1, 3]);
    const byScore = queryFacts(all, {}, { key: 'score', desc: false }, { offset: 0, limit: 5 });
    expect(byScore.rows.map((r) => r.line)).toEqual([2, 1, 4, 0, 3]);
  });
});

describe('overview', () => {
  it('counts what the charts show, each bar with the filter of its episodes', () => {
    const o = overview(all, 2, 1);
    expect([o.episodes, o.tasks, o.passed, o.sft, o.stateMatch, o.malformed, o.superseded]).toEqual([
      5, 4, 2, 2, 4, 2, 1,
    ]);
    expect(o.yield).toBe(2 / 5);
    expect(o.taskYield).toBe(2 / 4); // t0 and t3 passed; t1, t2 did not
    expect(o.meanScore).toBe((1 + 0.5 + 0 + 1 + 0.5) / 5);
    expect(o.meanReward).toBeNull();
    expect(o.usage).toEqual({ promptTokens: 100, completionTokens: 20, costUsd: 0.5, retries: 3 });
    expect(o.byKind).toEqual([
      { label: 'cancel', total: 3, passed: 1, filter: { kind: 'cancel' } },
      { label: 'refusal', total: 3, passed: 1, filter: { kind: 'refusal' } },
    ]);
    expect(o.byDifficulty.map((b) => [b.label, b.total, b.passed])).toEqual([
      ['easy', 3, 2],
      ['medium', 2, 0],
    ]);
    expect(o.termination).toEqual([
      { label: 'user_stop', total: 4, filter: { termination: 'user_stop' } },
      { label: 'max_steps', total: 1, filter: { termination: 'max_steps' } },
    ]);
    expect(o.failure.map((b) => [b.label, b.total])).toEqual([
      ['wrong_write', 2],
      ['max_steps', 1],
    ]);
    expect(o.score.map((b) => [b.label, b.total, b.filter.scoreMin])).toEqual([
      ['0', 1, '0'],
      ['0.5', 2, '0.5'],
      ['1', 2, '1'],
    ]);
    expect(o.tokens.map((b) => b.total).reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('bins wide histograms into ranges that filter inclusively', () => {
    // values 0..99 in 30 bars: width ceil(100/30) = 4, so 25 bins of 4 values each
    const bars = histogram(
      Array.from({ length: 100 }, (_, i) => i),
      'turns',
    );
    expect(bars).toHaveLength(25);
    expect(bars[0]).toEqual({ label: '0–3', total: 4, filter: { turnsMin: '0', turnsMax: '3' } });
    expect(bars[24]).toEqual({ label: '96–99', total: 4, filter: { turnsMin: '96', turnsMax: '99' } });
    expect(histogram([2, 2, 4], 'tools').map((b) => [b.label, b.total])).toEqual([
      ['2', 2],
      ['3', 0],
      ['4', 1],
    ]);
  });
});

describe('compare', () => {
  it('pairs two runs by task and says which passed', () => {
    const b = [facts(0, { ...fail }), facts(1, {}), facts(2, { ...fail }), facts(7, { taskId: 'tx' })];
    // both runs hold the same task definitions (one fingerprint per id on both sides)
    const tasks = new Map(['t0', 't1', 't2', 't3', 'tx'].map((id) => [id, `print-${id}`]));
    const rows = compareRuns(all, b, { a: tasks, b: tasks });
    expect(rows.map((r) => [r.taskId, r.status])).toEqual([
      ['t0', 'only_a'],
      ['t1', 'only_b'],
      ['t2', 'neither'],
      ['t3', 'missing'],
      ['tx', 'missing'],
    ]);
    expect(rows[0]?.a).toEqual({ lines: [0, 4], passed: 1, total: 2, best: 1, failures: ['wrong_write'] });
    expect(compareCounts(rows)).toEqual({
      both: 0,
      only_a: 1,
      only_b: 1,
      neither: 1,
      different: 0,
      missing: 2,
    });
  });

  it('counts a shared id whose tasks differ as different, not as a pass or a fail', () => {
    const b = [facts(0, {}), facts(1, {}), facts(2, { ...fail })];
    const rows = compareRuns(all.slice(0, 3), b, {
      a: new Map([
        ['t0', 'x'],
        ['t1', 'y'],
        ['t2', 'z'],
      ]),
      b: new Map([
        ['t0', 'x'],
        ['t1', 'other'],
        ['t2', 'z'],
      ]),
    });
    expect(rows.map((r) => [r.taskId, r.status, r.sameTask])).toEqual([
      ['t0', 'both', true],
      ['t1', 'different', false],
      ['t2', 'neither', true],
    ]);
  });
});
