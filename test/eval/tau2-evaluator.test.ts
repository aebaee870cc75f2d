import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import { pyDict } from '../../src/core/py-value.js';
import { actionMatches, tau2Reward } from '../../src/eval/tau2-evaluator.js';
import type { ExecutedToolCall } from '../../src/sim/episode-session.js';
import type { ChatMessage } from '../../src/sim/messages.js';
import { type RunTask, runTaskFromTau2 } from '../../src/tasks/task.js';
import { parseTau2Tasks } from '../../src/tasks/tau2-task.js';
import { RETAIL_TASKS, TAU2 } from '../helpers/paths.js';
import { tau2RetailBase } from '../helpers/retail-base.js';

const loaded = tau2RetailBase();
afterAll(() => loaded.base.close());
const tasks = parseTau2Tasks(parsePyJson(readFileSync(RETAIL_TASKS, 'utf8')), RETAIL_TASKS).map(
  runTaskFromTau2,
);
const task = (id: string) => tasks.find((t) => t.id === id) as RunTask;

/** Runs calls on a fresh fork and returns the pieces τ²'s evaluator looks at. */
function episodeWith(calls: { name: string; arguments: Record<string, unknown> }[], texts: string[] = []) {
  const env = loaded.base.fork();
  const toolCalls: ExecutedToolCall[] = calls.map((c, i) => {
    const r = env.call(c.name, parsePyJson(JSON.stringify(c.arguments)));
    return {
      id: `c${i}`,
      name: c.name,
      arguments: JSON.stringify(c.arguments),
      argumentsValid: true,
      error: r.error,
      changed: r.changed,
      messageIndex: i,
    };
  });
  const messages: ChatMessage[] = texts.map((content) => ({ role: 'assistant', content }));
  return { env, toolCalls, messages };
}

describe("τ²'s reward rules (tau2-spec §6), hand-computed cases", () => {
  const t33 = task('33'); // basis [DB]; gold: lookups, then modify_user_address
  const gold33 = (t33.evaluation_criteria?.actions ?? []).map((a) => ({
    name: a.name,
    arguments: { ...a.arguments },
  }));

  it('DB basis: the gold calls give 1; only the lookups (no write) give 0', () => {
    const ok = episodeWith(gold33);
    const r = tau2Reward({ task: t33, ...ok, termination: 'user_stop' });
    expect(r).toMatchObject({ reward: 1, reward_basis: ['DB'], db_check: { db_match: true, db_reward: 1 } });
    ok.env.close();
    const reads = episodeWith(gold33.filter((a) => a.name !== 'modify_user_address'));
    expect(tau2Reward({ task: t33, ...reads, termination: 'agent_stop' }).reward).toBe(0);
    reads.env.close();
  });

  it('the termination gate: max_steps gives 0 with no checks, even with the gold state', () => {
    const ok = episodeWith(gold33);
    const r = tau2Reward({ task: t33, ...ok, termination: 'max_steps' });
    expect(r).toMatchObject({ reward: 0, reward_basis: null, db_check: null });
    ok.env.close();
  });

  it('no evaluation criteria → 1; actions null and env_assertions null → the DB check passes without replay', () => {
    const env = episodeWith([]);
    expect(
      tau2Reward({
        task: { id: 'x', user_scenario: { instructions: 'x' }, evaluation_criteria: null },
        ...env,
        termination: 'user_stop',
      }).reward,
    ).toBe(1);
    const noActions: RunTask = {
      id: 'y',
      user_scenario: { instructions: 'y' },
      evaluation_criteria: { actions: null, reward_basis: ['DB'] },
    };
    expect(tau2Reward({ task: noActions, ...env, termination: 'user_stop' }).db_check).toEqual({
      db_match: true,
      db_reward: 1,
    });
    env.env.close();
  });

  it('actions [] means the DB must stay unchanged: any successful write fails the check', () => {
    const t57 = task('57'); // no actions, basis DB + NL_ASSERTION with null assertions
    expect(t57.evaluation_criteria?.actions).toEqual([]);
    const quiet = episodeWith([]);
    expect(tau2Reward({ task: t57, ...quiet, termination: 'user_stop' }).reward).toBe(1);
    quiet.env.close();
    const wrote = episodeWith(gold33);
    expect(tau2Reward({ task: t57, ...wrote, termination: 'user_stop' }).reward).toBe(0);
    wrote.env.close();
  });

  it('NL assertions without a judge: reward null, listed as not evaluated — never 1', () => {
    const t2 = task('2');
    expect((t2.evaluation_criteria?.nl_assertions ?? []).length).toBeGreaterThan(0);
    const env = episodeWith([]);
    const r = tau2Reward({ task: t2, ...env, termination: 'user_stop' });
    expect(r.reward).toBeNull();
    expect(r.not_evaluated).toEqual([
      { component: 'NL_ASSERTION', reason: expect.stringContaining('judge') },
    ]);
    expect(r.reward_breakdown).toMatchObject({ DB: 0, NL_ASSERTION: null });
    env.env.close();
  });

  it('COMMUNICATE: commas are stripped from the message, not from the info; case-insensitive', () => {
    const t: RunTask = {
      id: 'c',
      user_scenario: { instructions: 'c' },
      evaluation_criteria: { actions: null, communicate_info: ['1628.5'], reward_basis: ['COMMUNICATE'] },
    };
    const said = episodeWith([], ['Your refund is 1,628.5 dollars.']);
    expect(tau2Reward({ task: t, ...said, termination: 'user_stop' }).communicate_checks).toEqual([
      { info: '1628.5', met: true },
    ]);
    said.env.close();
    const other = episodeWith([], ['Your refund is 1628 dollars.']);
    expect(tau2Reward({ task: t, ...other, termination: 'user_stop' }).reward).toBe(0);
    other.env.close();
  });

  it('ACTION: compare_with_tool_call keys and Python equality', () => {
    const gold = { name: 'f', arguments: pyDict({ a: 1n, b: 2n }), compare_args: null };
    // keys of the call: {a: 1.0} == {a: 1} → match; the action's extra key b is ignored
    expect(actionMatches(gold, 'f', pyDict({ a: 1.0 }))).toBe(true);
    expect(actionMatches(gold, 'f', pyDict({ a: 2n }))).toBe(false);
    expect(actionMatches(gold, 'g', pyDict({ a: 1n }))).toBe(false);
    // compare_args [b]: the call lacks b → {} != {b: 2}
    expect(actionMatches({ ...gold, compare_args: ['b'] }, 'f', pyDict({ a: 1n }))).toBe(false);
    // no keys at all → a match
    expect(actionMatches(gold, 'f', pyDict({}))).toBe(true);
    const t: RunTask = {
      id: 'a',
      user_scenario: { instructions: 'a' },
      evaluation_criteria: {
        actions: [{ action_id: 'a0', name: 'calculate', arguments: { expression: '1+1' } }],
        reward_basis: ['ACTION'],
      },
    };
    const env = episodeWith([{ name: 'calculate', arguments: { expression: '1+1' } }]);
    expect(tau2Reward({ task: t, ...env, termination: 'user_stop' })).toMatchObject({
      reward: 1,
      action_checks: [{ action_id: 'a0', action_match: true }],
    });
    env.env.close();
  });
});

describe('gold states and env assertions', () => {
  it('two tasks with the same gold tools and other arguments each get their own gold state (tasks 0 and 1)', () => {
    // retail tasks 0 and 1 both call find_user_id_by_name_zip, get_order_details, get_product_details ×2 and
    // exchange_delivered_order_items, for different users and items
    const [t0, t1] = [task('0'), task('1')];
    const names = (t: RunTask) => (t.evaluation_criteria?.actions ?? []).map((a) => a.name);
    expect(names(t0)).toEqual(names(t1));
    const gold = (t: RunTask) =>
      (t.evaluation_criteria?.actions ?? []).map((a) => ({ name: a.name, arguments: { ...a.arguments } }));
    const db = (t: RunTask, calls: ReturnType<typeof gold>) => {
      const e = episodeWith(calls);
      const r = tau2Reward({ task: t, ...e, termination: 'user_stop' });
      e.env.close();
      return r.db_check?.db_match;
    };
    expect(db(t0, gold(t0))).toBe(true);
    expect(db(t1, gold(t1))).toBe(true);
    expect(db(t1, gold(t0))).toBe(false);
  });

  it('ENV_ASSERTION: no retail or airline task of either task set uses it; listed assertions give null, never a pass', () => {
    for (const file of [
      'retail/tasks.json',
      'airline/tasks.json',
      'legacy_v0.1.0/retail/tasks.json',
      'legacy_v0.1.0/airline/tasks.json',
    ]) {
      const list = JSON.parse(readFileSync(`${TAU2}/${file}`, 'utf8')) as {
        evaluation_criteria?: { env_assertions?: unknown[] | null; reward_basis?: string[] };
      }[];
      expect(list.length).toBeGreaterThan(0);
      for (const t of list) {
        expect(t.evaluation_criteria?.env_assertions ?? null).toBeNull();
        expect(t.evaluation_criteria?.reward_basis ?? []).not.toContain('ENV_ASSERTION');
      }
    }
    const t33 = task('33');
    const criteria = t33.evaluation_criteria as NonNullable<RunTask['evaluation_criteria']>;
    const gold = (criteria.actions ?? []).map((a) => ({ name: a.name, arguments: { ...a.arguments } }));
    const withBasis = (envAssertions: unknown[] | null): RunTask => ({
      ...t33,
      evaluation_criteria: {
        ...criteria,
        reward_basis: ['DB', 'ENV_ASSERTION'],
        env_assertions: envAssertions,
      } as NonNullable<RunTask['evaluation_criteria']>,
    });
    const e = episodeWith(gold);
    // τ²: the product over an empty list of assertions is 1
    expect(tau2Reward({ task: withBasis([]), ...e, termination: 'user_stop' }).reward).toBe(1);
    const listed = tau2Reward({
      task: withBasis([{ env_type: 'assistant', func_name: 'assert_x', arguments: {}, assert_value: true }]),
      ...e,
      termination: 'user_stop',
    });
    e.env.close();
    expect(listed.reward).toBeNull();
    expect(listed.not_evaluated.map((n) => n.component)).toEqual(['ENV_ASSERTION']);
  });
});
