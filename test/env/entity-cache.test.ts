import { describe, expect, it } from 'vitest';
import { SqlConnection } from '../../src/env/sql.js';

/** The per-episode entity cache of `SqlConnection`: values computed mid tool call, between and after writes. */
describe('SqlConnection entity cache', () => {
  function connection() {
    const sql = SqlConnection.open();
    sql.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
    sql.exec("INSERT INTO t VALUES ('a', 1)");
    const local = new Map<string, Map<string, unknown>>();
    sql.entityCache = { shared: new Map(), changed: new Set(['t\u0000a']), local };
    const read = () =>
      sql.cachedEntity('t\u0000a', 'v', () => Number(sql.get("SELECT v FROM t WHERE k = 'a'")?.v));
    return { sql, read, local };
  }

  it('recomputes after every write inside a call and keeps only the value computed after the last one', () => {
    const { sql, read } = connection();
    sql.run("UPDATE t SET v = 2 WHERE k = 'a'");
    expect(read()).toBe(2);
    expect(read()).toBe(2);
    sql.run("UPDATE t SET v = 3 WHERE k = 'a'");
    expect(read()).toBe(3); // not the value computed before this write
    const settled = sql.takeSettledEntities();
    expect(settled).toEqual(new Map([['t\u0000a', new Map([['v', 3]])]]));
  });

  it('keeps nothing computed before the last write of a call', () => {
    const { sql, read } = connection();
    sql.run("UPDATE t SET v = 5 WHERE k = 'a'");
    expect(read()).toBe(5);
    sql.run("UPDATE t SET v = 6 WHERE k = 'a'");
    expect(sql.takeSettledEntities().size).toBe(0);
  });

  it('forgets mid-call values when the writes are taken', () => {
    const { sql, read } = connection();
    sql.run("UPDATE t SET v = 7 WHERE k = 'a'");
    expect(read()).toBe(7);
    sql.takeWrites();
    expect(sql.takeSettledEntities().size).toBe(0);
    // with no write pending the episode-local cache serves (and keeps) the value
    expect(read()).toBe(7);
    sql.run("UPDATE t SET v = 8 WHERE k = 'a'");
    expect(read()).toBe(8);
  });
});
