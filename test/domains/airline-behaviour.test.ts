import { describe, expect, it } from 'vitest';
import { airlineDomain } from '../../src/domains/airline/index.js';
import type { AirlineFuzz } from '../../src/domains/airline/synthesis/requests.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';
import { airlineSandbox } from '../helpers/airline-oracle.js';

/**
 * The behaviour every airline task draws (docs/airline.md, "Behaviour"), counted over 300 tasks of mixed
 * difficulty on a sandbox. The expected shares are the design's numbers, worked out by hand:
 *
 * - wrong_detail: 0.2 of tasks;
 * - partial_info: per request of a kind with an intent-only opening, the persona's tendency (confused 0.7, terse
 *   and impatient 0.45, the four others 0.3), i.e. (0.7 + 2 × 0.45 + 4 × 0.3) / 7 = 0.4 over uniform personas;
 * - push_back: 0.6 of refused requests;
 * - transfer: 0.35 of the push-backs on a task's last request;
 * - two_requests: 0.4 of the tasks with ≥ 2 requests whose second has no partial_info.
 *
 * Each range is the share ± about 3.5 standard deviations of a binomial count of the expected size, so a correct
 * draw fails it with negligible probability; a transfer has only 10–20 chances in 300 mixed tasks (a refusal last,
 * pushed back on), so it is only checked to appear and to stay at most 0.8.
 */

const PARTIAL_KINDS = new Set([
  'book_reservation',
  'change_flights',
  'change_cabin',
  'add_bags',
  'change_passengers',
  'cancel_reservation',
  'transfer',
]);

describe('airline behaviour draw: 300 tasks', () => {
  let tasks: CoveTask[] = [];
  let users = new Set<string>();

  it('synthesizes the tasks', { timeout: 600_000 }, async () => {
    const sandbox = airlineSandbox(5);
    users = new Set(sandbox.base.sql.all('SELECT user_id FROM users').map((r) => String(r.user_id)));
    const result = await synthesizeTasks(
      airlineDomain,
      sandbox.base,
      {
        domain: 'airline',
        seed: 11,
        difficulty: 'mixed',
        fuzz: 2,
        semantics: 'parity',
        db: { path: 'db.json', canonical_sha256: 'x', benchmark: false },
        coveVersion: 'test',
      },
      300,
    );
    tasks = result.tasks;
    sandbox.base.close();
    expect(tasks).toHaveLength(300);
  });

  it('draws every knowledge entry and event with the designed shares', () => {
    const count = { tasks: 0, wrong: 0, partialChances: 0, partial: 0, refusals: 0, pushBack: 0 };
    const more = { lastPushBacks: 0, transfer: 0, twoChances: 0, two: 0 };
    for (const task of tasks) {
      const b = task.cove.behaviour;
      expect(b, task.id).toBeDefined();
      if (b === undefined) continue;
      const fuzz = task.cove.fuzz as unknown as AirlineFuzz;
      const { requests } = fuzz;
      const userId = fuzz.user.user_id;
      const last = requests.length - 1;
      const has = (kind: string, i: number) =>
        [...b.knowledge, ...b.events].some((e) => e.kind === kind && e.request === i);
      count.tasks++;
      const wrong = b.knowledge.filter((k) => k.kind === 'wrong_detail');
      if (wrong.length > 0) {
        count.wrong++;
        const value = String(wrong[0]?.value);
        expect(users.has(value), `${task.id}: ${value} is a user`).toBe(false);
        expect(value).toHaveLength(userId.length);
        expect([...value].filter((c, i) => c !== userId[i])).toHaveLength(1);
      }
      requests.forEach((r, i) => {
        if (PARTIAL_KINDS.has(r.kind)) {
          count.partialChances++;
          if (has('partial_info', i)) count.partial++;
        } else expect(has('partial_info', i), `${task.id}: partial ${r.kind}`).toBe(false);
        if (r.kind === 'refusal') {
          count.refusals++;
          if (has('push_back', i)) count.pushBack++;
        } else expect(has('push_back', i), `${task.id}: push-back on ${r.kind}`).toBe(false);
        if (has('transfer', i)) {
          expect(i, `${task.id}: transfer before the last request`).toBe(last);
          expect(has('push_back', i)).toBe(true);
        }
        if (i === last && has('push_back', i)) {
          more.lastPushBacks++;
          if (has('transfer', i)) more.transfer++;
        }
      });
      if (requests.length >= 2 && !has('partial_info', 1)) {
        more.twoChances++;
        if (has('two_requests', 0)) more.two++;
      } else expect(has('two_requests', 0), task.id).toBe(false);
    }
    const share = (n: number, of: number) => n / of;
    // enough chances for each share to mean something
    expect(count.partialChances).toBeGreaterThan(300);
    expect(count.refusals).toBeGreaterThan(60);
    expect(more.lastPushBacks).toBeGreaterThanOrEqual(10);
    expect(more.twoChances).toBeGreaterThan(80);
    expect(share(count.wrong, count.tasks)).toBeGreaterThanOrEqual(0.12);
    expect(share(count.wrong, count.tasks)).toBeLessThanOrEqual(0.28);
    expect(share(count.partial, count.partialChances)).toBeGreaterThanOrEqual(0.3);
    expect(share(count.partial, count.partialChances)).toBeLessThanOrEqual(0.5);
    expect(share(count.pushBack, count.refusals)).toBeGreaterThanOrEqual(0.45);
    expect(share(count.pushBack, count.refusals)).toBeLessThanOrEqual(0.75);
    expect(more.transfer).toBeGreaterThan(0);
    expect(share(more.transfer, more.lastPushBacks)).toBeLessThanOrEqual(0.8);
    expect(share(more.two, more.twoChances)).toBeGreaterThanOrEqual(0.25);
    expect(share(more.two, more.twoChances)).toBeLessThanOrEqual(0.55);
    // the personas: each of the 7 drawn, none far from 1/7 (≈ 43 of 300; ± 3.5 sd ≈ ± 21)
    const personas = new Map<string, number>();
    for (const t of tasks) {
      const p = t.cove.behaviour?.persona ?? '';
      personas.set(p, (personas.get(p) ?? 0) + 1);
    }
    expect(personas.size).toBe(7);
    for (const n of personas.values()) expect(n).toBeGreaterThanOrEqual(22);
    for (const n of personas.values()) expect(n).toBeLessThanOrEqual(64);
  });

  it('tells a model-played user about its behaviour in the scenario', () => {
    const wrong = tasks.find((t) => t.cove.behaviour?.knowledge.some((k) => k.kind === 'wrong_detail'));
    const value = String(wrong?.cove.behaviour?.knowledge.find((k) => k.kind === 'wrong_detail')?.value);
    expect(wrong?.user_scenario.instructions.task_instructions).toContain(
      `The first time you give your user id you get one digit wrong (${value})`,
    );
    const two = tasks.find((t) => t.cove.behaviour?.events.some((e) => e.kind === 'two_requests'));
    expect(two?.user_scenario.instructions.task_instructions).toContain(
      'Mention your first two requests together in one message.',
    );
  });
});
