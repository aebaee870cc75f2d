import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import { toPyValue } from '../../src/core/py-value.js';
import { baseFromValue, type LoadedDb } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import type { EnvironmentBase } from '../../src/env/environment-base.js';
import { replayCalls } from '../../src/env/replay.js';
import { type CoveTask, type Difficulty, readCoveBlocks } from '../../src/tasks/cove-task.js';
import { type SynthesisOptions, synthesizeTask } from '../../src/tasks/sampler.js';
import type { DomainSynthesis, FuzzLevel } from '../../src/tasks/synthesis.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';
import { checkTaskSolvable } from '../../src/tasks/task-checks.js';
import { parseTau2Tasks } from '../../src/tasks/tau2-task.js';
import { tau2RetailBase } from '../helpers/retail-base.js';
import { taskStrategies } from '../helpers/synthesis-brute-force.js';

/**
 * CoVe task synthesis for retail: determinism, difficulty ranges, kinds, consistency of the constraints of one
 * task, fuzz levels, solvability by replay, τ²'s task shape and varied texts.
 */

const synthesis = retailDomain.synthesis as DomainSynthesis;
const SANDBOX_SEED = 21;
const KINDS = [
  'cancel_pending_order',
  'modify_pending_order_address',
  'modify_pending_order_payment',
  'modify_pending_order_items',
  'modify_user_address',
  'return_delivered_order_items',
  'exchange_delivered_order_items',
  'information',
  'refusal',
];
const WRITE_KINDS = KINDS.slice(0, 7);

function options(
  seed: number,
  difficulty: Difficulty | 'mixed' = 'mixed',
  fuzz: FuzzLevel = 2,
  k?: number,
): SynthesisOptions {
  return {
    domain: 'retail',
    seed,
    difficulty,
    fuzz,
    semantics: 'parity',
    db: { path: 'x', canonical_sha256: 'y', benchmark: false },
    coveVersion: 'test',
    ...(k === undefined ? {} : { k }),
  };
}

const buildSandbox = (): LoadedDb =>
  baseFromValue(retailDomain, generateRetailSandbox({ seed: SANDBOX_SEED }), 'sandbox');

function draw(base: EnvironmentBase, opts: SynthesisOptions, n: number): CoveTask[] {
  return Array.from({ length: n }, (_, i) => synthesizeTask(synthesis, base, opts, i));
}

let sandbox: LoadedDb;
beforeAll(() => {
  sandbox = buildSandbox();
});
afterAll(() => sandbox.base.close());

describe('determinism', () => {
  it('same seed and options give byte-identical tasks, also from a separately built copy of the DB', async () => {
    const a = await synthesizeTasks(retailDomain, sandbox.base, options(5), 30);
    const again = await synthesizeTasks(retailDomain, sandbox.base, options(5), 30);
    expect(JSON.stringify(again.tasks)).toBe(JSON.stringify(a.tasks));
    expect(JSON.stringify(again.report)).toBe(JSON.stringify(a.report));
    const copy = buildSandbox();
    try {
      expect(JSON.stringify(draw(copy.base, options(5), 30))).toBe(JSON.stringify(a.tasks));
    } finally {
      copy.base.close();
    }
  });

  it('task i depends only on (seed, i): --n 10 is a prefix of --n 30, and task 17 alone equals task 17', () => {
    const thirty = draw(sandbox.base, options(9, 'mixed', 1), 30);
    const ten = draw(sandbox.base, options(9, 'mixed', 1), 10);
    expect(JSON.stringify(ten)).toBe(JSON.stringify(thirty.slice(0, 10)));
    expect(JSON.stringify(synthesizeTask(synthesis, sandbox.base, options(9, 'mixed', 1), 17))).toBe(
      JSON.stringify(thirty[17]),
    );
    expect(thirty.map((t) => t.cove.index)).toEqual([...Array(30).keys()]);
    expect(new Set(thirty.map((t) => t.id)).size).toBe(30);
  });

  it('another seed gives other tasks', () => {
    const a = draw(sandbox.base, options(5), 20);
    const b = draw(sandbox.base, options(6), 20);
    const same = a.filter(
      (t, i) => JSON.stringify(t.cove.constraints) === JSON.stringify(b[i]?.cove.constraints),
    ).length;
    expect(same).toBeLessThan(3);
    expect(b.every((t) => t.cove.seed === 6)).toBe(true);
  });
});

describe('difficulty', () => {
  const ks = (tasks: readonly CoveTask[]) => new Set(tasks.map((t) => t.cove.constraints.length));

  it.each([
    ['easy', [1]],
    ['medium', [2, 3]],
    ['hard', [4, 5, 6]],
  ] as const)('%s tasks have k in %j (every value drawn) and carry that difficulty', (difficulty, range) => {
    const tasks = draw(sandbox.base, options(31, difficulty), 40);
    expect([...ks(tasks)].sort()).toEqual([...range]);
    expect(tasks.every((t) => t.cove.difficulty === difficulty)).toBe(true);
    expect(new Set(tasks.map((t) => t.description.purpose.match(/\d+/)?.[0]))).toEqual(
      new Set(range.map(String)),
    );
  });

  it.each([
    [1, 'hard', 'easy'],
    [2, 'hard', 'medium'],
    [5, 'easy', 'hard'],
  ] as const)('an explicit k=%i overrides difficulty %s (label %s)', (k, difficulty, label) => {
    const tasks = draw(sandbox.base, options(32, difficulty, 2, k), 15);
    expect([...ks(tasks)]).toEqual([k]);
    expect(tasks.every((t) => t.cove.difficulty === label)).toBe(true);
  });
});

describe('a few hundred mixed tasks (sandbox and τ² DBs)', () => {
  let sandboxRun: Awaited<ReturnType<typeof synthesizeTasks>>;
  let tau2Tasks: CoveTask[];
  const all = (): CoveTask[] => [...sandboxRun.tasks, ...tau2Tasks];
  beforeAll(async () => {
    sandboxRun = await synthesizeTasks(retailDomain, sandbox.base, options(41), 250);
    tau2Tasks = draw(tau2RetailBase().base, options(42), 200);
  });
  const baseOf = (t: CoveTask): EnvironmentBase =>
    t.cove.seed === 41 ? sandbox.base : tau2RetailBase().base;

  it('the run re-checks clean: 0 uniqueness violations, 100 % solvable, no problems', () => {
    expect(sandboxRun.problems).toEqual([]);
    expect(sandboxRun.report.uniqueness_violations).toBe(0);
    expect(sandboxRun.report.solvability).toBe(1);
    expect(sandboxRun.report.tasks).toBe(250);
  });

  it('every one of the 9 constraint kinds appears on both DBs, and every difficulty', () => {
    for (const tasks of [sandboxRun.tasks, tau2Tasks]) {
      const counts = new Map<string, number>();
      for (const t of tasks)
        for (const c of t.cove.constraints) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
      for (const kind of KINDS) expect(counts.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(3);
      expect([...counts.keys()].sort()).toEqual([...KINDS].sort());
      expect(new Set(tasks.map((t) => t.cove.difficulty))).toEqual(new Set(['easy', 'medium', 'hard']));
    }
  });

  it('constraints of one task are consistent: one user, no order used twice, at most one user-address change', () => {
    for (const t of all()) {
      const episode = baseOf(t).fork();
      try {
        const users = new Set<string>();
        const orders: string[] = [];
        for (const [i, c] of t.cove.constraints.entries()) {
          const a = c.args;
          // a refused request about another user's order names an order that is not the task user's
          if (a.action === 'other_users_order') {
            const owner = episode.sql.get(
              'SELECT user_id FROM orders WHERE order_id = ?',
              String(a.order_id),
            );
            expect(owner?.user_id, t.id).not.toBe(t.cove.user_id);
            continue;
          }
          // a refused second item change follows an item change of the same order in the task
          if (a.action === 'second_item_change') {
            const earlier = t.cove.constraints.slice(0, i);
            expect(
              earlier.some((x) => x.kind === 'modify_pending_order_items' && x.args.order_id === a.order_id),
              t.id,
            ).toBe(true);
            continue;
          }
          if (typeof a.order_id === 'string') {
            orders.push(a.order_id);
            users.add(
              String(episode.sql.get('SELECT user_id FROM orders WHERE order_id = ?', a.order_id)?.user_id),
            );
          }
          if (typeof a.user_id === 'string') users.add(a.user_id);
        }
        expect(users.size, t.id).toBeLessThanOrEqual(1);
        const user = [...users][0];
        for (const c of t.cove.constraints) {
          const method = c.args.payment_method_id;
          if (typeof method !== 'string') continue;
          const owners = episode.sql
            .all('SELECT user_id FROM payment_methods WHERE id = ?', method)
            .map((r) => String(r.user_id));
          expect(user === undefined ? owners.length : owners.filter((u) => u === user).length, t.id).toBe(1);
        }
        expect(new Set(orders).size, t.id).toBe(orders.length);
        expect(
          t.cove.constraints.filter((c) => c.kind === 'modify_user_address').length,
          t.id,
        ).toBeLessThanOrEqual(1);
        expect(t.cove.constraints.map((c) => c.id)).toEqual(t.cove.constraints.map((_, i) => `c${i + 1}`));
      } finally {
        episode.close();
      }
    }
  });

  it('every gold action replays without error on a fresh fork and every predicate holds', () => {
    for (const t of all()) {
      expect(checkTaskSolvable(synthesis, baseOf(t), t), t.id).toEqual([]);
      const { episode, calls } = replayCalls(
        baseOf(t),
        t.evaluation_criteria.actions.map((a) => ({ name: a.name, arguments: toPyValue(a.arguments) })),
      );
      episode.close();
      expect(
        calls.filter((c) => c.error).map((c) => c.content),
        t.id,
      ).toEqual([]);
      expect(t.evaluation_criteria.actions.map((a) => a.name)).toEqual(
        t.cove.constraints.filter((c) => WRITE_KINDS.includes(c.kind)).map((c) => c.kind),
      );
    }
  });

  it('has τ²’s task shape plus the cove block, and τ²’s loader accepts it', () => {
    const tasks = all();
    for (const t of tasks) {
      const i = t.user_scenario.instructions;
      expect(typeof t.id).toBe('string');
      expect(i.domain).toBe('retail');
      for (const f of ['reason_for_call', 'known_info', 'unknown_info', 'task_instructions'] as const)
        expect(typeof i[f], f).toBe('string');
      expect(Array.isArray(t.evaluation_criteria.actions)).toBe(true);
      expect(t.evaluation_criteria.reward_basis).toEqual(['DB', 'COMMUNICATE']);
      const info = t.cove.constraints.filter((c) => c.kind === 'information').map((c) => c.args.value_text);
      expect(t.evaluation_criteria.communicate_info).toEqual(info);
      for (const f of ['constraints', 'fuzz', 'db', 'semantics', 'difficulty', 'seed', 'index'] as const)
        expect(t.cove[f], f).toBeDefined();
      expect(t.evaluation_criteria.actions.every((a) => a.requestor === 'assistant')).toBe(true);
    }
    const value = parsePyJson(JSON.stringify(tasks.slice(0, 250)));
    const loaded = parseTau2Tasks(value, 'tasks.json');
    expect(loaded.map((l) => l.task.id)).toEqual(tasks.slice(0, 250).map((t) => t.id));
    const blocks = readCoveBlocks(
      loaded.map((l) => l.raw),
      loaded.map((l) => l.task.id),
      'tasks.json',
    );
    expect(blocks.map((b) => b.constraints.length)).toEqual(
      tasks.slice(0, 250).map((t) => t.cove.constraints.length),
    );
  });

  it('recorded strategies match the references themselves', () => {
    for (const t of all()) {
      const derived = taskStrategies(t.cove.fuzz);
      expect(t.cove.references.user).toBe(derived.user);
      const sorted = (xs: readonly (readonly string[])[]) => xs.map((x) => [...x].sort());
      expect(sorted(t.cove.references.constraints), t.id).toEqual(sorted(derived.requests));
      expect(t.cove.fuzz.strategies).toEqual(t.cove.references.constraints);
    }
  });

  it('texts vary: several reason_for_call openings per kind, and several multi-request preambles', () => {
    const openings = new Map<string, Set<string>>();
    const preambles = new Set<string>();
    for (const t of all()) {
      const text = t.user_scenario.instructions.reason_for_call;
      if (t.cove.constraints.length > 1) {
        const [preamble, ...sentences] = text.split(/ ?\(\d+\) /);
        preambles.add(preamble ?? '');
        // each numbered sentence is one request, in the order of the constraints
        sentences.forEach((sentence, i) => {
          const kind = t.cove.constraints[i]?.kind ?? '';
          const set = openings.get(kind) ?? new Set<string>();
          set.add(sentence.split(' ').slice(0, 4).join(' '));
          openings.set(kind, set);
        });
        continue;
      }
      const kind = t.cove.constraints[0]?.kind ?? '';
      const set = openings.get(kind) ?? new Set<string>();
      set.add(text.split(' ').slice(0, 4).join(' '));
      openings.set(kind, set);
    }
    for (const kind of KINDS) expect(openings.get(kind)?.size ?? 0, kind).toBeGreaterThanOrEqual(2);
    expect(preambles.size).toBeGreaterThanOrEqual(2);
  });
});

/** The task's user, from its constraints: the owner of an order, a `user_id` argument or a payment method. */
function ownerOf(t: CoveTask): string {
  const sql = sandbox.base.sql;
  for (const c of t.cove.constraints) {
    if (c.args.action === 'other_users_order') continue;
    if (typeof c.args.user_id === 'string') return c.args.user_id;
    if (typeof c.args.order_id === 'string')
      return String(sql.get('SELECT user_id FROM orders WHERE order_id = ?', c.args.order_id)?.user_id);
    if (typeof c.args.payment_method_id === 'string')
      return String(
        sql.get('SELECT user_id FROM payment_methods WHERE id = ?', c.args.payment_method_id)?.user_id,
      );
  }
  return '?';
}

describe('fuzz levels', () => {
  it('fuzz 0 keeps every id (addresses spelled out) and hides only the user id', () => {
    const tasks = draw(sandbox.base, options(51, 'mixed', 0), 60);
    for (const t of tasks) {
      expect(['user:email', 'user:name_zip']).toContain(t.cove.references.user);
      for (const s of t.cove.references.constraints.flat())
        expect(s.startsWith('address:') ? s : s.split(':')[1], `${t.id} ${s}`).toMatch(
          /^(id|address:explicit)$/,
        );
      const hidden = t.cove.fuzz.hidden_ids as string[];
      expect(hidden, t.id).toEqual([ownerOf(t)]);
      expect(JSON.stringify(t.user_scenario)).not.toContain(hidden[0]);
    }
    // ids are kept: the order ids of the constraints appear in the texts
    const withOrders = tasks.filter((t) =>
      t.cove.constraints.some((c) => typeof c.args.order_id === 'string'),
    );
    expect(withOrders.length).toBeGreaterThan(0);
    for (const t of withOrders)
      for (const c of t.cove.constraints)
        if (typeof c.args.order_id === 'string' && c.args.action !== 'other_users_order')
          expect(t.user_scenario.instructions.reason_for_call).toContain(c.args.order_id);
  });

  it('fuzz 2 uses no id anywhere; fuzz 1 mixes ids and descriptions', () => {
    const two = draw(sandbox.base, options(52, 'mixed', 2), 60);
    for (const t of two)
      t.cove.references.constraints.forEach((refs, i) => {
        // another user's order is named by its id at every level (it is not the user's, so nothing is hidden)
        if (t.cove.constraints[i]?.args.action === 'other_users_order') expect(refs).toEqual(['order:id']);
        else for (const s of refs) expect(s, t.id).not.toMatch(/:id$/);
      });
    const one = draw(sandbox.base, options(53, 'mixed', 1), 60).flatMap((t) =>
      t.cove.references.constraints.flat(),
    );
    expect(one.filter((s) => s.endsWith(':id')).length).toBeGreaterThan(10);
    expect(one.filter((s) => !s.endsWith(':id') && !s.startsWith('address:')).length).toBeGreaterThan(10);
    expect(two.every((t) => t.cove.fuzz.level === 2)).toBe(true);
  });
});
