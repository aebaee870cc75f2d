import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedDb } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';
import { playOracle, retailSandbox, sandboxSynthesisOptions } from '../helpers/retail-sandbox.js';

// Issue 13 item 2: an address given as "the address of one of my other orders" matches every place the user's
// orders ship to, so the oracle must ask which one (listing them) before it proposes the change. The places are
// read from the sandbox DB itself (the reference), not from what the conversation said.

type Json = Record<string, unknown>;
const SEED = 5;
let loaded: LoadedDb;
let db: { orders: Record<string, Json>; users: Record<string, Json> };
const tasks: CoveTask[] = [];

beforeAll(async () => {
  ({ loaded, db } = retailSandbox<typeof db>(SEED));
  const run = await synthesizeTasks(retailDomain, loaded.base, sandboxSynthesisOptions(SEED, 'medium'), 120);
  tasks.push(...run.tasks);
}, 600_000);
afterAll(() => loaded.base.close());

describe('an ambiguous address', () => {
  it('makes the oracle list the user’s order addresses and ask which; the user then names the city', async () => {
    const found = tasks.filter((t) =>
      (t.cove.behaviour?.events ?? []).some((e) => e.kind === 'ambiguous_reference' && e.field === 'address'),
    );
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const task of found) {
      const user = db.users[task.cove.user_id as string] as { orders: string[] };
      const cities = new Set(
        user.orders.map((id) => ((db.orders[id] as Json).address as { city: string }).city),
      );
      const { outcome, v, env } = await playOracle(loaded, task);
      env.close();
      expect([v.score, v.stateMatch], task.id).toEqual([1, true]);
      const texts = outcome.messages.map((m) => ({ role: m.role, text: m.content ?? '' }));
      const vague = texts.findIndex(
        (m) => m.role === 'user' && m.text.includes('the address of one of my other orders'),
      );
      expect(vague, task.id).toBeGreaterThanOrEqual(0);
      const ask = texts.findIndex(
        (m, i) => i > vague && m.role === 'assistant' && /Which of these addresses/.test(m.text),
      );
      expect(ask, task.id).toBeGreaterThan(vague);
      const listed = [...cities].filter((c) => (texts[ask]?.text ?? '').includes(c));
      expect(listed.length, `${task.id}: ${texts[ask]?.text}`).toBeGreaterThanOrEqual(2);
      const reply = texts.find((m, i) => i > ask && m.role === 'user')?.text ?? '';
      expect(
        [...cities].some((c) => reply.includes(c)),
        `${task.id}: ${reply}`,
      ).toBe(true);
    }
  }, 600_000);
});
