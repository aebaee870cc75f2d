import type { EnvironmentSpec } from './environment.js';
import { Episode, type EpisodeOptions } from './episode.js';
import { SqlConnection } from './sql.js';
import { BaseDigest, type StateHashes } from './state-digest.js';

/** Idle connections kept for reuse; more are closed on release. */
const MAX_IDLE_CONNECTIONS = 512;

/**
 * A loaded domain database from which episodes are forked. The base is kept as a serialized SQLite image;
 * each episode gets a private connection (deserialized from the image, or reused from a pool) inside a
 * transaction that is rolled back when the episode ends, so episodes never see each other's writes and a new
 * episode costs a `BEGIN` once the pool is warm.
 */
export class EnvironmentBase {
  readonly spec: EnvironmentSpec;
  /** The base state, read-only by convention (used for digests and lookups that need no episode). */
  readonly sql: SqlConnection;
  readonly digest: BaseDigest;
  readonly #image: Buffer;
  readonly #idle: SqlConnection[] = [];
  /** Entity values of the base, shared by all episodes (see {@link SqlConnection.cachedEntity}). */
  readonly entityCache = new Map<string, unknown>();
  #hashes: StateHashes | undefined;

  /** @param sql a connection holding the loaded state and change tracking; it becomes the base. */
  constructor(spec: EnvironmentSpec, sql: SqlConnection) {
    this.spec = spec;
    this.sql = sql;
    this.#image = sql.db.serialize();
    this.digest = new BaseDigest(spec, sql);
  }

  /** Size of the serialized base image in bytes. */
  get imageBytes(): number {
    return this.#image.length;
  }

  /** Sets the base's hashes when they are already known (a cached base); they are never recomputed then. */
  presetHashes(hashes: StateHashes): void {
    this.#hashes = hashes;
  }

  /** Both hashes of the base state (computed once). */
  hashes(): StateHashes {
    this.#hashes ??= {
      db_hash: this.digest.digest('tau2'),
      canonical_sha256: this.digest.digest('canonical'),
    };
    return this.#hashes;
  }

  /** Starts an isolated episode on a private copy of the base. Call `episode.close()` when done. */
  fork(options: EpisodeOptions = {}): Episode {
    const sql = this.#idle.pop() ?? SqlConnection.open(this.#image);
    sql.exec('BEGIN');
    sql.takeWrites();
    return new Episode(this, sql, options);
  }

  /** Opens `n` connections ahead of time so that forks do not pay for deserialization. */
  warm(n: number): void {
    while (this.#idle.length < n) this.#idle.push(SqlConnection.open(this.#image));
  }

  /** @internal Rolls an episode's connection back to the base and keeps it for reuse. */
  release(sql: SqlConnection): void {
    sql.exec('ROLLBACK');
    sql.entityCache = undefined;
    if (this.#idle.length < MAX_IDLE_CONNECTIONS) this.#idle.push(sql);
    else sql.close();
  }

  /** Closes every idle connection and the base. */
  close(): void {
    for (const sql of this.#idle.splice(0)) sql.close();
    this.sql.close();
  }
}
