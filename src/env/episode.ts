import type { PyJsonInput } from '../core/py-json.js';
import type { PyValue } from '../core/py-value.js';
import { type EntityRef, takeChanges } from './change-tracking.js';
import { type DispatchStats, dispatchToolCall } from './dispatch.js';
import type { DumpStyle } from './environment.js';
import type { EnvironmentBase } from './environment-base.js';
import type { SqlConnection } from './sql.js';
import { type DigestStyle, entityChunk, type StateHashes } from './state-digest.js';
import type { Semantics, ToolResult, ToolSpec } from './tool.js';

/** Options of a new episode. */
export interface EpisodeOptions {
  /** Tool semantics. @defaultValue 'parity' */
  readonly semantics?: Semantics;
}

/** One tool call as executed: its result and the entities it changed (empty for reads and failures). */
export interface ExecutedCall extends ToolResult {
  readonly name: string;
  readonly changed: readonly EntityRef[];
}

const toolMaps = new WeakMap<object, ReadonlyMap<string, ToolSpec>>();

/**
 * One episode's private database: tool calls, the entities they changed, and the state's hashes and dump.
 * Closing it rolls every change back and returns the connection to the base's pool.
 */
export class Episode {
  readonly base: EnvironmentBase;
  readonly sql: SqlConnection;
  readonly semantics: Semantics;
  readonly stats: DispatchStats = { internalErrors: 0 };
  readonly #tools: ReadonlyMap<string, ToolSpec>;
  readonly #changed = new Map<string, EntityRef>();
  readonly #changedKeys = new Set<string>();
  #closed = false;

  /** @internal Use {@link EnvironmentBase.fork}. */
  constructor(base: EnvironmentBase, sql: SqlConnection, options: EpisodeOptions) {
    this.base = base;
    this.sql = sql;
    this.semantics = options.semantics ?? 'parity';
    let tools = toolMaps.get(base.spec);
    if (tools === undefined) {
      tools = new Map(base.spec.tools.map((t) => [t.name, t]));
      toolMaps.set(base.spec, tools);
    }
    this.#tools = tools;
    sql.entityCache = { shared: base.entityCache, changed: this.#changedKeys, local: new Map() };
  }

  /**
   * Executes a tool call with τ²'s dispatch semantics (see {@link dispatchToolCall}) and records the
   * entities it changed. A failing call may still leave changes where τ² does (no rollback, as in τ²).
   */
  call(name: string, args: PyValue): ExecutedCall {
    if (this.#closed) throw new Error('episode is closed');
    const result = dispatchToolCall(
      this.#tools,
      this.base.spec.toolkitName ?? 'Tools',
      { sql: this.sql, semantics: this.semantics },
      name,
      args,
      this.stats,
    );
    const settled = this.sql.takeSettledEntities();
    const changed = takeChanges(this.sql);
    const local = this.sql.entityCache?.local;
    for (const ref of changed) {
      const key = `${ref.collection}\u0000${ref.key}`;
      this.#changed.set(key, ref);
      this.#changedKeys.add(key);
      local?.delete(key);
    }
    // values the tool computed after its last write (e.g. the order a write returns) stay valid
    if (local !== undefined) {
      for (const [entity, forms] of settled) {
        if (!this.#changedKeys.has(entity)) continue; // unchanged entities are served by the shared cache
        let known = local.get(entity);
        if (known === undefined) {
          known = new Map();
          local.set(entity, known);
        }
        for (const [form, value] of forms) known.set(form, value);
      }
    }
    return { name, content: result.content, error: result.error, changed };
  }

  /** Every entity changed since the fork (possibly changed back to its base value). */
  changedEntities(): EntityRef[] {
    return [...this.#changed.values()];
  }

  /** The serialisation of one entity in this episode (`null` if it does not exist). */
  chunk(ref: EntityRef, style: DigestStyle = 'tau2'): string | null {
    return this.sql.cachedEntity(`${ref.collection}\u0000${ref.key}`, `chunk:${style}`, () =>
      entityChunk(this.base.spec, this.sql, ref, style),
    );
  }

  /** Both state hashes, computed from the base's cached text and this episode's changed entities. */
  hashes(): StateHashes {
    if (this.#changed.size === 0) return this.base.hashes();
    const overrides = (style: DigestStyle) => {
      const byCollection = new Map<string, Map<string, string | null>>();
      for (const ref of this.#changed.values()) {
        let m = byCollection.get(ref.collection);
        if (m === undefined) {
          m = new Map();
          byCollection.set(ref.collection, m);
        }
        m.set(ref.key, this.chunk(ref, style));
      }
      return byCollection;
    };
    return {
      db_hash: this.base.digest.digest('tau2', overrides('tau2')),
      canonical_sha256: this.base.digest.digest('canonical', overrides('canonical')),
    };
  }

  /** The whole state as τ²'s DB model, in `file` or `model_dump` style. */
  dump(style: DumpStyle): PyJsonInput {
    return dumpState(this.base.spec, this.sql, style);
  }

  /** Rolls back and releases the connection. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.base.release(this.sql);
  }
}

/** The whole state of a connection as τ²'s DB model: collections in model order, entities in their `orderBy` order. */
export function dumpState(
  spec: EnvironmentBase['spec'],
  sql: SqlConnection,
  style: DumpStyle,
): Map<string, PyJsonInput> {
  const out = new Map<string, PyJsonInput>();
  for (const c of spec.collections) {
    const entities = new Map<string, PyJsonInput>();
    for (const row of sql.all(`SELECT ${c.key} AS k FROM ${c.table} ORDER BY ${c.orderBy ?? 'pos'}`)) {
      const key = String(row.k);
      const value = c.dump(sql, key, style);
      if (value !== undefined) entities.set(key, value);
    }
    out.set(c.name, entities);
  }
  return out;
}
