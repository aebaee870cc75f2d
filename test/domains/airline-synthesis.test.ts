import { describe, expect, it } from 'vitest';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { baseFromValue } from '../../src/domains/load-db.js';
import type { CoveTask, Difficulty } from '../../src/tasks/cove-task.js';
import { type SynthesisOptions, synthesizeTask } from '../../src/tasks/sampler.js';
import type { DomainSynthesis, FuzzLevel } from '../../src/tasks/synthesis.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';
import { tau2AirlineBase } from '../helpers/airline-base.js';
import { airlineBruteForceViolations, leaks } from '../helpers/airline-brute-force.js';

/**
 * Airline task synthesis on τ²'s airline db.json: the shared dry run (`cove tasks --domain airline --n 200 --seed 1`
 * in process) gives solvable tasks of every kind with 0 uniqueness violations and no reward for the null policies;
 * an independent brute-force checker (test/helpers/airline-brute-force.ts, raw SQL) finds every description
 * unique over those and further runs; the leak scan finds no hidden id in user text; and the checker catches
 * tampered tasks.
 */

const synthesis = airlineDomain.synthesis as DomainSynthesis;
const ALL_KINDS = synthesis.kinds.map((k) => k.name);

function options(
  seed: number,
  difficulty: Difficulty | 'mixed',
  fuzz: FuzzLevel,
  k?: number,
): SynthesisOptions {
  return {
    domain: 'airline',
    seed,
    difficulty,
    fuzz,
    semantics: 'parity',
    db: { path: 'db.json', canonical_sha256: 'x', benchmark: true },
    coveVersion: 'test',
    ...(k === undefined ? {} : { k }),
  };
}

const asRecord = (t: CoveTask) => t as unknown as Readonly<Record<string, unknown>>;

describe('the shared dry run: 200 tasks, seed 1', () => {
  let tasks: CoveTask[] = [];

  it('is solvable with 0 violations, and the null policies collect nothing', {
    timeout: 600_000,
  }, async () => {
    const result = await synthesizeTasks(airlineDomain, tau2AirlineBase().base, options(1, 'mixed', 2), 200);
    tasks = result.tasks;
    expect(result.problems).toEqual([]);
    expect(result.report.uniqueness_violations).toBe(0);
    expect(result.report.solvability).toBe(1);
    expect(result.report.null_policy?.tasks_checked).toBe(200);
  });

  it('has every constraint kind', () => {
    const seen = new Set(tasks.flatMap((t) => t.cove.constraints.map((c) => c.kind)));
    expect([...ALL_KINDS].filter((k) => !seen.has(k))).toEqual([]);
    expect(ALL_KINDS).toHaveLength(17);
  });

  it('passes the independent brute-force checker and the leak scan', () => {
    const base = tau2AirlineBase().base;
    expect(tasks.flatMap((t) => airlineBruteForceViolations(base, asRecord(t)))).toEqual([]);
  });

  it('names the user by user id and a transfer only last', () => {
    for (const t of tasks) {
      expect(t.user_scenario.instructions.known_info).toBe(`Your user id is ${t.cove.user_id}.`);
      const kinds = t.cove.constraints.map((c) => c.kind);
      const at = kinds.indexOf('transfer_flown_cancel');
      if (at >= 0) expect(at).toBe(kinds.length - 1);
      expect(kinds.filter((k) => k === 'book_reservation').length).toBeLessThanOrEqual(2);
    }
  });
});

describe('brute force over further runs', () => {
  const RUNS: [seed: number, difficulty: Difficulty | 'mixed', fuzz: FuzzLevel, n: number, k?: number][] = [
    [2, 'hard', 2, 60],
    [3, 'mixed', 1, 80],
    [4, 'easy', 2, 80],
    [5, 'mixed', 0, 40],
    [6, 'mixed', 2, 40, 3],
  ];
  it.each(RUNS)(
    'seed %i, %s, fuzz %i: %i tasks, 0 violations',
    { timeout: 600_000 },
    (seed, difficulty, fuzz, n, k) => {
      const base = tau2AirlineBase().base;
      const problems: string[] = [];
      for (let i = 0; i < n; i++) {
        const task = synthesizeTask(synthesis, base, options(seed, difficulty, fuzz, k), i);
        if (k !== undefined) expect(task.cove.constraints).toHaveLength(k);
        if (difficulty === 'easy') expect(task.cove.constraints).toHaveLength(1);
        if (difficulty === 'hard') expect(task.cove.constraints.length).toBeGreaterThanOrEqual(4);
        problems.push(...synthesis.recheck(base, task.cove.constraints, task.cove.fuzz, 'parity'));
        problems.push(...airlineBruteForceViolations(base, asRecord(task)));
        if (fuzz === 0) expect(task.cove.fuzz.hidden_ids).toEqual([]);
      }
      expect(problems).toEqual([]);
    },
  );
});

describe('a seeded airline sandbox', () => {
  it('gives unique, solvable tasks of (nearly) every kind', { timeout: 600_000 }, () => {
    const sandbox = airlineDomain.sandbox;
    if (sandbox === undefined) throw new Error('airline has no sandbox');
    const loaded = baseFromValue(
      airlineDomain,
      sandbox.generate(5, { users: 300, reservations: 1200 }),
      'sandbox',
    );
    try {
      const problems: string[] = [];
      const kinds = new Set<string>();
      for (let i = 0; i < 200; i++) {
        const task = synthesizeTask(synthesis, loaded.base, options(8, 'mixed', 2), i);
        for (const c of task.cove.constraints) kinds.add(c.kind);
        problems.push(...synthesis.recheck(loaded.base, task.cove.constraints, task.cove.fuzz, 'parity'));
        problems.push(...airlineBruteForceViolations(loaded.base, asRecord(task)));
      }
      expect(problems).toEqual([]);
      // refuse_compensation needs a rare user (regular, uninsured, a cancelled or delayed flight)
      expect(ALL_KINDS.filter((k) => !kinds.has(k) && k !== 'refuse_compensation')).toEqual([]);
    } finally {
      loaded.base.close();
    }
  });
});

describe('the brute-force checker and the leak scan catch tampered tasks', () => {
  const base = () => tau2AirlineBase().base;
  function firstWith(pick: (t: CoveTask) => boolean): CoveTask {
    for (let i = 0; i < 200; i++) {
      const task = synthesizeTask(synthesis, base(), options(7, 'mixed', 2), i);
      if (pick(task)) return structuredClone(task);
    }
    throw new Error('no such task');
  }
  type Req = Record<string, unknown> & {
    reservation?: Record<string, unknown>;
    payment?: Record<string, unknown>;
  };
  const requests = (t: CoveTask) => (t.cove.fuzz as unknown as { requests: Req[] }).requests;

  it('reports a reservation description moved to another date', () => {
    const task = firstWith((t) => requests(t).some((r) => r.reservation?.strategy === 'route_date'));
    const r = requests(task).find((x) => x.reservation?.strategy === 'route_date') as Req;
    (r.reservation as Record<string, unknown>).date = '2024-05-31';
    expect(airlineBruteForceViolations(base(), asRecord(task)).join('\n')).toMatch(
      /reservation: \[\] for \w{6}/,
    );
  });

  it('reports a payment named by its kind when the user has several of that kind', () => {
    const sourceOf = (id: string) =>
      String(base().sql.get('SELECT source FROM payment_methods WHERE id = ?', id)?.source);
    const several = (t: CoveTask, id: string) =>
      base().sql.all(
        'SELECT id FROM payment_methods WHERE user_id = ? AND source = ?',
        String(t.cove.user_id),
        sourceOf(id),
      ).length >= 2;
    const at = (t: CoveTask) =>
      requests(t).findIndex(
        (r, i) => r.payment !== undefined && several(t, String(t.cove.constraints[i]?.args.payment_id)),
      );
    const task = firstWith((t) => at(t) >= 0);
    const i = at(task);
    const id = String(task.cove.constraints[i]?.args.payment_id);
    (requests(task)[i] as Req).payment = { strategy: 'kind', source: sourceOf(id), phrase: 'x' };
    expect(airlineBruteForceViolations(base(), asRecord(task)).join('\n')).toMatch(
      new RegExp(`c${i + 1} payment: \\[\\w+ \\w+.*\\] for ${id}`),
    );
  });

  it('reports a hidden id planted in the scenario and in a phrase', () => {
    const task = firstWith((t) => t.cove.fuzz.hidden_ids.length > 0);
    const id = task.cove.fuzz.hidden_ids[0] as string;
    task.user_scenario.instructions.reason_for_call += ` (${id})`;
    expect(leaks(asRecord(task))).toEqual([`${task.id}: user text mentions hidden id ${id}`]);
    const clean = firstWith((t) => t.cove.fuzz.hidden_ids.length > 0);
    const req = requests(clean).find((x) => x.reservation !== undefined) as Req;
    (req.reservation as Record<string, unknown>).phrase = `reservation ${clean.cove.fuzz.hidden_ids[0]}`;
    expect(leaks(asRecord(clean))).toHaveLength(1);
  });
});
