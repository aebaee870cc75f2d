import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.js';
import type { Domain } from '../../src/domains/domain.js';
import { baseFromValue, type LoadedDb } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import { runEpisode } from '../../src/sim/run-episode.js';
import type { ConstraintKind } from '../../src/tasks/constraint.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { NULL_POLICIES, nullPolicyEvaluation, readOnlyCalls } from '../../src/tasks/null-policy.js';
import { type SynthesisOptions, synthesizeTask, synthesizeVettedTask } from '../../src/tasks/sampler.js';
import type { DomainSynthesis } from '../../src/tasks/synthesis.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';
import { coveEvaluator } from '../../src/verify/cove-evaluator.js';

// Issue 23: a do-nothing policy (no tool call, one refusal) and a read-only policy (every entity of the task read
// by its exact id, the user never identified, then one refusal) must collect no reward on any generated task;
// drafts on which either collects reward are redrawn at synthesis and counted.

const synthesis = retailDomain.synthesis as DomainSynthesis;
const sim = retailDomain.simulation as NonNullable<typeof retailDomain.simulation>;
let loaded: LoadedDb;
const options = (difficulty: SynthesisOptions['difficulty'], extra: Partial<SynthesisOptions> = {}) =>
  ({
    domain: 'retail',
    seed: 23,
    difficulty,
    fuzz: 2,
    semantics: 'parity',
    db: { path: 'x', canonical_sha256: 'y', benchmark: false },
    coveVersion: 'test',
    ...extra,
  }) as SynthesisOptions;

beforeAll(() => {
  loaded = baseFromValue(retailDomain, generateRetailSandbox({ seed: 23 }), 'sandbox');
});
afterAll(() => loaded.base.close());

describe('null policies over generated tasks', () => {
  const tasks: CoveTask[] = [];
  beforeAll(async () => {
    for (const difficulty of ['easy', 'medium', 'hard'] as const) {
      const run = await synthesizeTasks(retailDomain, loaded.base, options(difficulty), 110);
      expect(run.problems).toEqual([]);
      expect(run.report.null_policy).toMatchObject({
        policies: ['do_nothing', 'read_only'],
        tasks_checked: 110,
      });
      tasks.push(...run.tasks);
    }
  }, 600_000);

  it('get reward 0 on all 330 tasks of every difficulty (CoVe score), refusal-only tasks included', async () => {
    expect(tasks).toHaveLength(330);
    expect(new Set(tasks.map((t) => t.cove.difficulty))).toEqual(new Set(['easy', 'medium', 'hard']));
    const refusalOnly = tasks.filter((t) => t.cove.constraints.every((c) => c.kind === 'refusal'));
    expect(refusalOnly.length).toBeGreaterThanOrEqual(10);
    for (const task of tasks) {
      for (const policy of NULL_POLICIES) {
        const e = await nullPolicyEvaluation(retailDomain, loaded.base, task, policy);
        expect(e.reward, `${task.id} ${policy}`).toBe(0);
      }
    }
  }, 600_000);

  it('the read-only policy really reads: the order of every refusal, the profile, never an identification', () => {
    const task = tasks.find((t) => t.cove.constraints.every((c) => c.kind === 'refusal')) as CoveTask;
    const calls = readOnlyCalls(retailDomain, task);
    const orderId = task.cove.constraints[0]?.args.order_id;
    expect(calls).toContainEqual({ name: 'get_order_details', arguments: { order_id: orderId } });
    expect(calls).toContainEqual({ name: 'get_user_details', arguments: { user_id: task.cove.user_id } });
    expect(calls.some((c) => c.name.startsWith('find_user_id'))).toBe(false);
  });

  it('the oracle still scores 1 with stateMatch on the refusal-only tasks the null policies fail', async () => {
    const evaluator = coveEvaluator(retailDomain);
    const refusalOnly = tasks.filter((t) => t.cove.constraints.every((c) => c.kind === 'refusal'));
    for (const task of refusalOnly) {
      const env = loaded.base.fork();
      const rng = new Rng(task.cove.index);
      const outcome = await runEpisode(
        env,
        sim.createOracleAgent(task.cove, rng.child('agent')),
        sim.createScriptedUser(task.cove, rng.child('user')),
      );
      const v = evaluator.evaluate({ task, outcome, env }).verification;
      env.close();
      expect([v.score, v.stateMatch], task.id).toEqual([1, true]);
    }
  }, 120_000);
});

describe('the synthesis check can fail', () => {
  /** Retail with one kind replaced: a check that vets nothing would let these tasks through. */
  function weakened(name: string, change: (k: ConstraintKind) => ConstraintKind): Domain {
    return {
      ...retailDomain,
      synthesis: { ...synthesis, kinds: synthesis.kinds.map((k) => (k.name === name ? change(k) : k)) },
    };
  }

  it('a refusal whose grounding a reader without identification meets is redrawn (rejected_by.read_only)', async () => {
    // a policy that asks for no identification: looking the order up is enough, which the read-only policy does
    const lax = weakened('refusal', (k) => ({
      ...k,
      grounding: { ...(k.grounding as NonNullable<ConstraintKind['grounding']>), identify: [] },
    }));
    const opts = options('easy');
    let index = 0;
    while (synthesizeTask(synthesis, loaded.base, opts, index).cove.constraints[0]?.kind !== 'refusal')
      index++;
    const strict = await synthesizeVettedTask(retailDomain, loaded.base, opts, index);
    expect(strict.task.cove.constraints[0]?.kind).toBe('refusal');
    expect(strict.rejectedDraws).toBe(0);
    const vetted = await synthesizeVettedTask(lax, loaded.base, opts, index);
    expect(vetted.nullPolicyRejections.read_only).toBeGreaterThanOrEqual(1);
    expect(vetted.nullPolicyRejections.do_nothing).toBe(0);
    expect(vetted.task.cove.constraints[0]?.kind).not.toBe('refusal');
    const run = await synthesizeTasks(lax, loaded.base, opts, 40);
    expect(run.report.null_policy?.rejected_by.read_only).toBeGreaterThanOrEqual(1);
    expect(run.tasks.some((t) => t.cove.constraints.some((c) => c.kind === 'refusal'))).toBe(false);
  }, 120_000);

  it('a kind a do-nothing agent satisfies is redrawn (rejected_by.do_nothing), and partial credit counts', async () => {
    const lax = weakened('information', (k) => ({
      ...k,
      predicate: () => ({ satisfied: true, evidence: 'always' }),
    }));
    const run = await synthesizeTasks(lax, loaded.base, options('medium'), 40);
    expect(run.report.null_policy?.rejected_by.do_nothing).toBeGreaterThanOrEqual(1);
    expect(run.report.null_policy?.rejected_draws).toBeGreaterThanOrEqual(1);
    expect(run.tasks.some((t) => t.cove.constraints.some((c) => c.kind === 'information'))).toBe(false);
  }, 120_000);
});
