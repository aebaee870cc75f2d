import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedDb } from '../../src/domains/load-db.js';
import { baseFromValue } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import type { EnvironmentBase } from '../../src/env/environment-base.js';
import type { CoveTask, Difficulty } from '../../src/tasks/cove-task.js';
import { type SynthesisOptions, synthesizeTask } from '../../src/tasks/sampler.js';
import type { DomainSynthesis, FuzzLevel } from '../../src/tasks/synthesis.js';
import { tau2RetailBase } from '../helpers/retail-base.js';
import {
  type BfFuzz,
  type BfPaymentRef,
  type BfRequest,
  type BfSwap,
  bruteForceViolations,
  taskStrategies,
} from '../helpers/synthesis-brute-force.js';

/**
 * Uniqueness of fuzzy descriptions, proven by an independent brute-force checker
 * (test/helpers/synthesis-brute-force.ts): over 2,000 tasks from τ²'s DB and a sandbox DB, several seeds,
 * difficulties and fuzz levels 1 and 2, every description matches exactly the intended entity among all
 * entities in scope, and no user text mentions a hidden id. The checker is then shown to catch tampered tasks.
 */

const synthesis = retailDomain.synthesis as DomainSynthesis;
const SANDBOX_SEED = 11;

function options(seed: number, difficulty: Difficulty | 'mixed', fuzz: FuzzLevel): SynthesisOptions {
  return {
    domain: 'retail',
    seed,
    difficulty,
    fuzz,
    semantics: 'parity',
    db: { path: 'x', canonical_sha256: 'y', benchmark: false },
    coveVersion: 'test',
  };
}

let sandbox: LoadedDb;
const bases = (): Record<'tau2' | 'sandbox', EnvironmentBase> => ({
  tau2: tau2RetailBase().base,
  sandbox: sandbox.base,
});

beforeAll(() => {
  sandbox = baseFromValue(retailDomain, generateRetailSandbox({ seed: SANDBOX_SEED }), 'sandbox');
});
afterAll(() => sandbox.base.close());

describe('every description of 2,000+ synthesized tasks is unique (brute force)', () => {
  const RUNS: [
    db: 'tau2' | 'sandbox',
    seed: number,
    difficulty: Difficulty | 'mixed',
    fuzz: FuzzLevel,
    n: number,
  ][] = [
    ['tau2', 1, 'mixed', 2, 500],
    ['sandbox', 2, 'mixed', 2, 500],
    ['tau2', 3, 'mixed', 1, 350],
    ['sandbox', 4, 'mixed', 1, 350],
    ['tau2', 5, 'hard', 2, 80],
    ['sandbox', 6, 'hard', 1, 80],
    ['sandbox', 7, 'easy', 2, 80],
    ['tau2', 8, 'medium', 1, 80],
  ];
  let checked = 0;
  const strategies = new Map<string, number>();

  it.each(RUNS)('%s DB, seed %i, %s, fuzz %i: %i tasks, 0 violations', (db, seed, difficulty, fuzz, n) => {
    const base = bases()[db];
    const violations: string[] = [];
    for (let i = 0; i < n; i++) {
      const task = synthesizeTask(synthesis, base, options(seed, difficulty, fuzz), i);
      violations.push(...bruteForceViolations(base, task, { alsoInitialState: true }));
      const s = taskStrategies(task.cove.fuzz);
      for (const x of [s.user, ...s.requests.flat()]) strategies.set(x, (strategies.get(x) ?? 0) + 1);
      checked++;
    }
    expect(violations).toEqual([]);
  });

  it('checked at least 2,000 tasks and exercised every fuzzy strategy', () => {
    expect(checked).toBeGreaterThanOrEqual(2000);
    for (const s of [
      'user:email',
      'user:name_zip',
      'order:id',
      'order:items',
      'order:items+options',
      'order:items+status',
      'item:id',
      'item:name',
      'item:name+options',
      'variant:id',
      'variant:options',
      'variant:cheapest',
      'variant:same_as_order',
      'payment:id',
      'payment:kind',
      'payment:brand',
      'payment:last_four',
      'payment:original',
      'address:default',
      'address:order_city',
      'address:explicit',
    ]) {
      expect(strategies.get(s) ?? 0, s).toBeGreaterThan(0);
    }
  });
});

describe('the brute-force checker catches tampered tasks', () => {
  /** The first task (τ² DB, fuzz 2) for which `pick` returns a tampered copy. */
  function tamper(pick: (task: CoveTask, base: EnvironmentBase) => CoveTask | undefined): CoveTask {
    const base = tau2RetailBase().base;
    for (let i = 0; i < 400; i++) {
      const task = synthesizeTask(synthesis, base, options(101, 'mixed', 2), i);
      expect(bruteForceViolations(base, task)).toEqual([]);
      const bad = pick(structuredClone(task), base);
      if (bad !== undefined) return bad;
    }
    throw new Error('no task to tamper with');
  }
  const fuzzOf = (t: CoveTask) => t.cove.fuzz as unknown as BfFuzz & { requests: BfRequest[] };
  const check = (t: CoveTask) => bruteForceViolations(tau2RetailBase().base, t);

  it('reports an order description reduced to an item name that two of the user’s orders share', () => {
    let shared = '';
    const bad = tamper((task, base) => {
      const episode = base.fork();
      try {
        for (const [i, c] of task.cove.constraints.entries()) {
          const orderId = c.args.order_id;
          if (typeof orderId !== 'string') continue;
          const row = episode.sql.get(
            `SELECT a.name AS name FROM order_items a
               JOIN orders oa ON oa.order_id = a.order_id
               JOIN orders ob ON ob.user_id = oa.user_id AND ob.order_id <> oa.order_id
               JOIN order_items b ON b.order_id = ob.order_id AND b.name = a.name
             WHERE a.order_id = ? LIMIT 1`,
            orderId,
          );
          if (row === undefined) continue;
          shared = String(row.name);
          const r = fuzzOf(task).requests[i] as { order: unknown };
          r.order = { strategy: 'items', items: [{ product_name: shared }] };
          return task;
        }
        return undefined;
      } finally {
        episode.close();
      }
    });
    const problems = check(bad);
    expect(problems.some((p) => p.includes('order description') && p.includes(shared))).toBe(true);
    expect(problems.join('\n')).toMatch(/order description .* matches \[#W\w+, #W\w+/);
  });

  it('reports a payment `kind` description for a user with two credit cards', () => {
    const bad = tamper((task, base) => {
      const episode = base.fork();
      try {
        for (const [i, c] of task.cove.constraints.entries()) {
          const r = fuzzOf(task).requests[i] as { payment?: BfPaymentRef };
          const methodId = c.args.payment_method_id;
          if (r.payment === undefined || typeof methodId !== 'string') continue;
          const cards = episode.sql.all(
            `SELECT id FROM payment_methods WHERE source = 'credit_card' AND user_id =
               (SELECT user_id FROM payment_methods WHERE id = ?)`,
            methodId,
          );
          if (cards.length < 2 || !cards.some((x) => x.id === methodId)) continue;
          r.payment = { strategy: 'kind', source: 'credit_card' };
          return task;
        }
        return undefined;
      } finally {
        episode.close();
      }
    });
    expect(check(bad).join('\n')).toMatch(
      /payment description \{"strategy":"kind","source":"credit_card"\} matches \[\w+, \w+/,
    );
  });

  it('reports a hidden id planted in reason_for_call', () => {
    let planted = '';
    const bad = tamper((task) => {
      const orderId = fuzzOf(task).hidden_ids.find((id) => id.startsWith('#W'));
      if (orderId === undefined) return undefined;
      planted = orderId;
      task.user_scenario.instructions.reason_for_call += ` The order number is ${orderId}.`;
      return task;
    });
    expect(check(bad)).toContain(`${bad.id}: user text mentions hidden id ${planted}`);
  });

  it('reports a hidden id that is no id of the DB, and a described id that is not hidden', () => {
    const bad = tamper((task) => {
      const fuzz = fuzzOf(task) as unknown as { hidden_ids: string[] };
      fuzz.hidden_ids = [...fuzz.hidden_ids.slice(1), '#W0000000'];
      return task;
    });
    const problems = check(bad);
    expect(problems).toContain(`${bad.id}: hidden id #W0000000 does not exist in the DB`);
    expect(problems).toContain(`${bad.id}: hidden id #W0000000 was replaced by no description`);
    expect(problems.some((p) => p.includes('described but not hidden'))).toBe(true);
  });

  it('reports an item description that lost the options telling it apart', () => {
    const bad = tamper((task) => {
      for (const r of fuzzOf(task).requests) {
        for (const [j, it] of (r.items ?? []).entries()) {
          const ref = 'replacement' in it ? it.item : it;
          if (ref.strategy !== 'name_options') continue;
          const plain = { strategy: 'name', product_name: ref.product_name } as const;
          (r.items as unknown[])[j] = 'replacement' in it ? { ...it, item: plain } : plain;
          return task;
        }
      }
      return undefined;
    });
    expect(check(bad).join('\n')).toMatch(/item description \{"strategy":"name",.* matches \[\d+, \d+/);
  });

  it('reports an order description that lost the status telling it apart', () => {
    const bad = tamper((task) => {
      for (const r of fuzzOf(task).requests) {
        if (r.order?.strategy !== 'items' || r.order.status === undefined) continue;
        (r as { order: unknown }).order = { strategy: 'items', items: r.order.items };
        return task;
      }
      return undefined;
    });
    expect(check(bad).join('\n')).toMatch(/order description .* matches \[#W\w+, #W\w+/);
  });

  it('reports a replacement that names no change (it matches the old item, not the new one)', () => {
    const bad = tamper((task) => {
      for (const r of fuzzOf(task).requests) {
        const swap = (r.items ?? []).find((x): x is BfSwap => 'replacement' in x);
        if (swap === undefined || swap.replacement.strategy !== 'options') continue;
        (swap as { replacement: unknown }).replacement = { ...swap.replacement, options: {} };
        return task;
      }
      return undefined;
    });
    expect(check(bad).join('\n')).toMatch(/replacement .* matches \[\d+\], intended \d+/);
  });

  it('reports a user description that finds another user or none', () => {
    const bad = tamper((task) => {
      const fuzz = fuzzOf(task) as { user: unknown };
      fuzz.user = { strategy: 'email', email: 'nobody@example.com' };
      return task;
    });
    expect(check(bad).join('\n')).toContain(
      'user description {"strategy":"email","email":"nobody@example.com"} matches []',
    );
  });

  it('reports an address description that resolves to another address', () => {
    const bad = tamper((task, base) => {
      for (const [i, r] of fuzzOf(task).requests.entries()) {
        if (i > 0 || r.kind !== 'modify_pending_order_address' || r.address?.strategy !== 'explicit')
          continue;
        const target = task.cove.constraints[i]?.args.address as Record<string, string>;
        const episode = base.fork();
        const home = episode.sql.get(
          'SELECT u.* FROM users u JOIN orders o ON o.user_id = u.user_id WHERE o.order_id = ?',
          String(task.cove.constraints[i]?.args.order_id),
        );
        episode.close();
        if (home === undefined || ['address1', 'address2', 'city', 'zip'].every((k) => home[k] === target[k]))
          continue;
        (r as { address: unknown }).address = { strategy: 'default' };
        return task;
      }
      return undefined;
    });
    expect(check(bad).join('\n')).toContain(
      'address description {"strategy":"default"} matches 1 address(es)',
    );
  });
});
