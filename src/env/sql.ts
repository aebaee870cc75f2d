import Database from 'better-sqlite3';

/** A value bound to or read from SQLite: REAL ↔ number (Python float), INTEGER ↔ bigint (Python int). */
export type SqlValue = null | number | bigint | string | Buffer;
/** One result row. */
export type SqlRow = Record<string, SqlValue>;

/**
 * One SQLite connection with a per-connection statement cache. Integers are read as `bigint` (safe
 * integers), so the int/float distinction of stored values survives reads.
 */
export class SqlConnection {
  readonly db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  #writes = 0;
  /** Entity values computed while writes were pending, with the write count at the time (see below). */
  readonly #pending = new Map<
    string,
    { readonly entity: string; readonly form: string; readonly writes: number; readonly value: unknown }
  >();
  /**
   * For episode connections: a cache of entity values shared by every fork of one base (valid because the base
   * never changes), and the entities this episode has changed (never served from the cache).
   */
  entityCache:
    | {
        readonly shared: Map<string, unknown>;
        readonly changed: ReadonlySet<string>;
        /** Values of entities this episode changed, dropped whenever the entity changes again. */
        readonly local: Map<string, Map<string, unknown>>;
      }
    | undefined;

  constructor(db: Database.Database) {
    this.db = db;
    db.defaultSafeIntegers(true);
  }

  /** A fresh in-memory database, or one deserialized from a `serialize()` image. */
  static open(image?: Buffer): SqlConnection {
    return new SqlConnection(image === undefined ? new Database(':memory:') : new Database(image));
  }

  statement(sql: string): Database.Statement {
    let st = this.#statements.get(sql);
    if (st === undefined) {
      st = this.db.prepare(sql);
      this.#statements.set(sql, st);
    }
    return st;
  }

  /** First row or undefined. */
  get(sql: string, ...params: SqlValue[]): SqlRow | undefined {
    return this.statement(sql).get(...params) as SqlRow | undefined;
  }

  /** All rows. */
  all(sql: string, ...params: SqlValue[]): SqlRow[] {
    return this.statement(sql).all(...params) as SqlRow[];
  }

  /** Runs a write statement; returns the number of changed rows. */
  run(sql: string, ...params: SqlValue[]): number {
    this.#writes++;
    return this.statement(sql).run(...params).changes;
  }

  /** Write statements run since the last {@link takeWrites}. */
  get pendingWrites(): number {
    return this.#writes;
  }

  /** Returns and resets the count of write statements run (values computed meanwhile are forgotten). */
  takeWrites(): number {
    const n = this.#writes;
    this.#writes = 0;
    this.#pending.clear();
    return n;
  }

  /**
   * An entity's value from the base-wide cache when this connection has not changed it (and has no write
   * pending), else `compute()`. `key` names the entity and the form of the value (e.g. `orders\0#W1\0model_dump`).
   */
  cachedEntity<T>(entity: string, form: string, compute: () => T): T {
    const cache = this.entityCache;
    if (cache === undefined) return compute();
    if (this.#writes > 0) {
      // mid tool call: valid until the next write; kept for the episode if no write follows
      const key = `${entity}\u0000${form}`;
      const pending = this.#pending.get(key);
      if (pending !== undefined && pending.writes === this.#writes) return pending.value as T;
      const value = compute();
      this.#pending.set(key, { entity, form, writes: this.#writes, value });
      return value;
    }
    if (cache.changed.has(entity)) {
      let forms = cache.local.get(entity);
      if (forms === undefined) {
        forms = new Map();
        cache.local.set(entity, forms);
      }
      let value = forms.get(form) as T | undefined;
      if (value === undefined) {
        value = compute();
        forms.set(form, value);
      }
      return value;
    }
    const key = `${entity}\u0000${form}`;
    let value = cache.shared.get(key) as T | undefined;
    if (value === undefined) {
      value = compute();
      cache.shared.set(key, value);
    }
    return value;
  }

  /**
   * Returns (and forgets) the entity values computed after the last pending write, as `entity → form → value`:
   * still valid once the writes are taken. Call before {@link takeWrites} at the end of a tool call.
   */
  takeSettledEntities(): Map<string, Map<string, unknown>> {
    const out = new Map<string, Map<string, unknown>>();
    for (const { entity, form, writes, value } of this.#pending.values()) {
      if (writes !== this.#writes) continue;
      let forms = out.get(entity);
      if (forms === undefined) {
        forms = new Map();
        out.set(entity, forms);
      }
      forms.set(form, value);
    }
    this.#pending.clear();
    return out;
  }

  /** Executes several statements (schema, BEGIN/ROLLBACK). Never with user-supplied text. */
  exec(sql: string): void {
    this.db.exec(sql);
  }

  close(): void {
    this.db.close();
  }
}

/** Reads a column that must be text. */
export function text(row: SqlRow, column: string): string {
  const v = row[column];
  if (typeof v !== 'string') throw new TypeError(`column ${column} is not text`);
  return v;
}

/** Reads a nullable text column. */
export function textOrNull(row: SqlRow, column: string): string | null {
  const v = row[column];
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') throw new TypeError(`column ${column} is not text`);
  return v;
}

/** Reads a numeric column, keeping Python's int (bigint) / float (number) distinction. */
export function num(row: SqlRow, column: string): number | bigint {
  const v = row[column];
  if (typeof v !== 'number' && typeof v !== 'bigint') throw new TypeError(`column ${column} is not numeric`);
  return v;
}

/** Reads a nullable numeric column. */
export function numOrNull(row: SqlRow, column: string): number | bigint | null {
  const v = row[column];
  return v === null || v === undefined ? null : num(row, column);
}
