import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Tau2ResultsSource } from '../../src/view/tau2-results-source.js';
import { comparePaths, fieldDiff } from '../../web/view/src/field-diff.js';
import { TAU2 } from '../helpers/paths.js';

// The state-diff panel's field rows (web/view/src/field-diff.ts), on an entity of a real τ² simulation.

const RETAIL = join(TAU2, 'results', 'retail__gpt-4.1__user-gpt-4.1__sierra-feature-gym.json');
const parse = (t: string | null) => (t === null ? undefined : (JSON.parse(t) as unknown));

describe('the state diff field rows', () => {
  it('on τ² simulation 1 (a return of 2 of 3 items, order #W5565470): only the changed fields, lists entry by entry', async () => {
    const source = Tau2ResultsSource.read(RETAIL, TAU2);
    const diff = await source.stateDiff(1);
    const order = diff.entities.find((e) => e.collection === 'orders' && e.key === '#W5565470');
    expect(order?.match).toBe(true);
    // hand-checked against the entity's three JSON texts: before, the order is delivered with return_items and
    // return_payment_method_id null; the episode and the gold actions both request the return of the kettle
    // (7602931732) and the keyboard (9570044148) to paypal_3024827. Nothing else of the order changes.
    expect(
      fieldDiff(parse(order?.final ?? null), parse(order?.gold ?? null), parse(order?.base ?? null)),
    ).toEqual([
      { path: 'return_items', final: '[2 entries]', gold: '[2 entries]', base: 'null' },
      { path: 'return_items[0]', final: '"7602931732"', gold: '"7602931732"', base: undefined },
      { path: 'return_items[1]', final: '"9570044148"', gold: '"9570044148"', base: undefined },
      { path: 'return_payment_method_id', final: '"paypal_3024827"', gold: '"paypal_3024827"', base: 'null' },
      { path: 'status', final: '"return requested"', gold: '"return requested"', base: '"delivered"' },
    ]);
  });

  it('diffs list entries by position, in natural order, and leaves equal entries out', () => {
    const before = { items: Array.from({ length: 12 }, (_, i) => ({ id: i, price: 1 })) };
    const after = { items: before.items.map((x) => (x.id === 2 || x.id === 10 ? { ...x, price: 2 } : x)) };
    expect(fieldDiff(after, before, before)).toEqual([
      { path: 'items[2].price', final: '2', gold: '1', base: '1' },
      { path: 'items[10].price', final: '2', gold: '1', base: '1' },
    ]);
    expect(fieldDiff({ a: [] }, { a: [1] }, { a: [] })).toEqual([
      { path: 'a[0]', final: undefined, gold: '1', base: undefined },
    ]);
    expect(fieldDiff({ x: 1 }, { x: 1 }, undefined)).toEqual([
      { path: 'x', final: '1', gold: '1', base: undefined },
    ]);
  });

  it('orders paths naturally', () => {
    const paths = [['b'], ['a', 10], ['a', 2], ['a'], ['a', 2, 'z']];
    expect(paths.sort(comparePaths)).toEqual([['a'], ['a', 2], ['a', 2, 'z'], ['a', 10], ['b']]);
  });
});
