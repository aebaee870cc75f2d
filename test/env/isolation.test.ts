import { describe, expect, it } from 'vitest';
import { pyDict } from '../../src/core/py-value.js';
import { tau2RetailBase } from '../helpers/retail-base.js';

// #W2611340 is a 'processed' order in τ²'s DB and #W4817420 is 'delivered'; pending ones are picked below.
describe('episode isolation', () => {
  it('interleaved episodes never see each other’s writes', async () => {
    const { base } = tau2RetailBase();
    const pending = base.sql
      .all("SELECT order_id FROM orders WHERE status = 'pending' ORDER BY pos LIMIT 8")
      .map((r) => String(r.order_id));
    const episodes = pending.map(() => base.fork());
    // every episode cancels "its" order, interleaved with reads of all the others, across awaits
    await Promise.all(
      episodes.map(async (episode, i) => {
        for (const [j, orderId] of pending.entries()) {
          await Promise.resolve();
          const seen = JSON.parse(episode.call('get_order_details', pyDict({ order_id: orderId })).content);
          expect(seen.status).toBe('pending');
          if (j === i) {
            const r = episode.call(
              'cancel_pending_order',
              pyDict({ order_id: orderId, reason: 'no longer needed' }),
            );
            expect(r.error).toBe(false);
          }
        }
      }),
    );
    episodes.forEach((episode, i) => {
      pending.forEach((orderId, j) => {
        const status = JSON.parse(
          episode.call('get_order_details', pyDict({ order_id: orderId })).content,
        ).status;
        expect(status).toBe(i === j ? 'cancelled' : 'pending');
      });
    });
    const hashes = new Set(episodes.map((e) => e.hashes().db_hash));
    expect(hashes.size).toBe(episodes.length);
    for (const e of episodes) e.close();
    // closed episodes leave the base untouched and their connections come back clean
    const fresh = base.fork();
    expect(fresh.hashes().db_hash).toBe(tau2RetailBase().hashes.db_hash);
    for (const orderId of pending) {
      expect(JSON.parse(fresh.call('get_order_details', pyDict({ order_id: orderId })).content).status).toBe(
        'pending',
      );
    }
    expect(fresh.changedEntities()).toEqual([]);
    fresh.close();
  });

  it('a recycled connection starts from the base state, not from the last episode', () => {
    const { base } = tau2RetailBase();
    const first = base.fork();
    const orderId = String(
      base.sql.get("SELECT order_id FROM orders WHERE status = 'pending' LIMIT 1")?.order_id,
    );
    first.call('cancel_pending_order', pyDict({ order_id: orderId, reason: 'ordered by mistake' }));
    const dirtyHash = first.hashes().db_hash;
    first.close();
    const second = base.fork();
    expect(second.sql).toBe(first.sql); // the pool hands the same connection back
    expect(second.hashes().db_hash).not.toBe(dirtyHash);
    expect(JSON.parse(second.call('get_order_details', pyDict({ order_id: orderId })).content).status).toBe(
      'pending',
    );
    second.close();
  });
});
