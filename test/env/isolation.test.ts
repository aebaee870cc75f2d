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

  it('entity values cached across tool calls always equal a fresh read of the rows', () => {
    const { base } = tau2RetailBase();
    const row = base.sql.get(
      "SELECT o.order_id, o.user_id FROM orders o WHERE o.status = 'pending' ORDER BY o.pos LIMIT 1",
    );
    const orderId = String(row?.order_id);
    const userId = String(row?.user_id);
    const episode = base.fork();
    const uncached = (tool: string, args: Record<string, string>) => {
      const cache = episode.sql.entityCache;
      episode.sql.entityCache = undefined;
      try {
        return episode.call(tool, pyDict(args)).content;
      } finally {
        episode.sql.entityCache = cache;
      }
    };
    const address = {
      address1: '9 Harbour Lane',
      address2: 'Unit 4',
      city: 'Halifax',
      state: 'NS',
      country: 'CA',
      zip: '12345',
    };
    const steps: [string, Record<string, string>][] = [
      ['get_order_details', { order_id: orderId }],
      ['modify_pending_order_address', { order_id: orderId, ...address }],
      ['get_order_details', { order_id: orderId }],
      ['modify_user_address', { user_id: userId, ...address, address1: '10 Harbour Lane' }],
      ['get_user_details', { user_id: userId }],
      ['cancel_pending_order', { order_id: orderId, reason: 'no longer needed' }],
      ['get_order_details', { order_id: orderId }],
      ['get_user_details', { user_id: userId }],
    ];
    let lastWrite = '';
    for (const [tool, args] of steps) {
      const result = episode.call(tool, pyDict(args));
      expect(result.error, `${tool}: ${result.content}`).toBe(false);
      const readTool = 'order_id' in args ? 'get_order_details' : 'get_user_details';
      const key = 'order_id' in args ? { order_id: orderId } : { user_id: userId };
      const fresh = uncached(readTool, key);
      expect(episode.call(readTool, pyDict(key)).content).toBe(fresh);
      if (tool.startsWith('get_')) expect(result.content).toBe(fresh);
      if (tool === 'get_order_details' && lastWrite !== '') expect(result.content).toBe(lastWrite);
      if (tool !== 'get_order_details' && tool !== 'get_user_details' && 'order_id' in args)
        lastWrite = result.content;
    }
    expect(JSON.parse(uncached('get_order_details', { order_id: orderId })).status).toBe('cancelled');
    episode.close();
  });
});
