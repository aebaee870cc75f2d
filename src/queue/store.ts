import type pg from 'pg';
import { ConfigError } from '../core/errors.js';
import type { TrajectoryRecord } from '../run/trajectory.js';
import { checkPostgres, postgresPool, redactUrl } from './connection.js';

/**
 * The schema's versions, applied in order once each (recorded in `cove_migrations`). Records are kept as the
 * exact JSON text the worker made (not `jsonb`, which reorders keys), so a run folder written from the store is
 * byte-identical to one written in a single process.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE cove_runs (
     run_id text PRIMARY KEY,
     definition text NOT NULL,
     status text NOT NULL,
     tasks text,
     updated_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE TABLE cove_trajectories (
     run_id text NOT NULL,
     trajectory_id text NOT NULL,
     record text NOT NULL,
     infrastructure_error boolean NOT NULL,
     stored_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (run_id, trajectory_id)
   );`,
];

/** Key for `pg_advisory_xact_lock`: one migrating process at a time per database. */
const MIGRATION_LOCK = 0x636f7665;

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Where `--store` keeps runs: a PostgreSQL database. The URL's own `schema` query parameter (cove's, not libpq's)
 * puts cove's tables in that schema (created when missing); default `public`.
 */
export class RecordStore {
  readonly url: string;
  readonly #pool: pg.Pool;
  readonly #schema: string;
  #ready: Promise<void> | undefined;

  /** @throws {ConfigError} for a URL that is not `postgres://` / `postgresql://`, or a bad `schema` name. */
  constructor(url: string) {
    this.url = url;
    let schema = 'public';
    let connection = url;
    try {
      const u = new URL(url);
      const s = u.searchParams.get('schema');
      if (s !== null) {
        if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(s)) {
          throw new ConfigError(`--store ${redactUrl(url)}: schema '${s}' must be a plain SQL name`);
        }
        schema = s;
        u.searchParams.delete('schema');
        connection = u.toString();
      }
    } catch (e) {
      if (e instanceof ConfigError) throw e; // a malformed URL is reported by postgresPool below
    }
    this.#schema = schema;
    this.#pool = postgresPool(connection);
  }

  #table(name: string): string {
    return `${quoteIdent(this.#schema)}.${name}`;
  }

  /**
   * Checks the connection and brings the schema up to date (idempotent; concurrent callers wait on a lock).
   * @throws {ConfigError} when PostgreSQL cannot be reached, naming the URL and what to check.
   */
  ready(): Promise<void> {
    this.#ready ??= this.#migrate().catch((e) => {
      this.#ready = undefined;
      throw e;
    });
    return this.#ready;
  }

  async #migrate(): Promise<void> {
    await checkPostgres(this.#pool, this.url);
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.#schema)}`);
      await client.query(`SET LOCAL search_path TO ${quoteIdent(this.#schema)}`);
      await client.query(
        'CREATE TABLE IF NOT EXISTS cove_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = await client.query<{ version: number }>('SELECT version FROM cove_migrations');
      const applied = new Set(done.rows.map((r) => r.version));
      for (const [i, sql] of MIGRATIONS.entries()) {
        const version = i + 1;
        if (applied.has(version)) continue;
        await client.query(sql);
        await client.query('INSERT INTO cove_migrations (version) VALUES ($1)', [version]);
      }
      const newest = Math.max(0, ...applied);
      if (newest > MIGRATIONS.length) {
        throw new ConfigError(
          `--store ${redactUrl(this.url)}: its schema is at version ${newest}, newer than this cove knows (${MIGRATIONS.length}); use the cove version that made it`,
        );
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /** The schema version now in force (the number of migrations applied). */
  async schemaVersion(): Promise<number> {
    await this.ready();
    const r = await this.#pool.query<{ v: number | null }>(
      `SELECT max(version) AS v FROM ${this.#table('cove_migrations')}`,
    );
    return r.rows[0]?.v ?? 0;
  }

  /** Records a run's definition (JSON text) and status, replacing an earlier status. */
  async saveRun(runId: string, definition: string, status: string): Promise<void> {
    await this.ready();
    await this.#pool.query(
      `INSERT INTO ${this.#table('cove_runs')} (run_id, definition, status) VALUES ($1, $2, $3)
       ON CONFLICT (run_id) DO UPDATE SET status = EXCLUDED.status, updated_at = now()`,
      [runId, definition, status],
    );
  }

  /** Records the run's task list (tasks.json text) once the run has ended. */
  async saveTasks(runId: string, tasksText: string): Promise<void> {
    await this.ready();
    await this.#pool.query(`UPDATE ${this.#table('cove_runs')} SET tasks = $2 WHERE run_id = $1`, [
      runId,
      tasksText,
    ]);
  }

  /** A run's definition text, status and tasks.json text, or undefined when the store has no such run. */
  async run(
    runId: string,
  ): Promise<{ definition: string; status: string; tasks: string | null } | undefined> {
    await this.ready();
    const r = await this.#pool.query<{ definition: string; status: string; tasks: string | null }>(
      `SELECT definition, status, tasks FROM ${this.#table('cove_runs')} WHERE run_id = $1`,
      [runId],
    );
    return r.rows[0];
  }

  /**
   * Stores one trajectory record unless the run already has one with its id (insert-or-ignore: a job delivered
   * twice stores its episode once); only a record of an episode lost to the infrastructure is replaced (a rerun
   * of it). Returns whether this call stored it.
   */
  async putRecord(runId: string, record: TrajectoryRecord): Promise<boolean> {
    await this.ready();
    const table = this.#table('cove_trajectories');
    const r = await this.#pool.query(
      `INSERT INTO ${table} (run_id, trajectory_id, record, infrastructure_error) VALUES ($1, $2, $3, $4)
       ON CONFLICT (run_id, trajectory_id) DO UPDATE SET record = EXCLUDED.record,
         infrastructure_error = EXCLUDED.infrastructure_error, stored_at = now()
       WHERE ${table}.infrastructure_error`,
      [runId, record.id, JSON.stringify(record), record.termination_reason === 'infrastructure_error'],
    );
    return r.rowCount === 1;
  }

  /** One stored record, or undefined. */
  async record(runId: string, trajectoryId: string): Promise<TrajectoryRecord | undefined> {
    await this.ready();
    const r = await this.#pool.query<{ record: string }>(
      `SELECT record FROM ${this.#table('cove_trajectories')} WHERE run_id = $1 AND trajectory_id = $2`,
      [runId, trajectoryId],
    );
    const row = r.rows[0];
    return row === undefined ? undefined : (JSON.parse(row.record) as TrajectoryRecord);
  }

  /** Every record of a run, in the order they were stored. */
  async records(runId: string): Promise<TrajectoryRecord[]> {
    await this.ready();
    const r = await this.#pool.query<{ record: string }>(
      `SELECT record FROM ${this.#table('cove_trajectories')} WHERE run_id = $1 ORDER BY stored_at, trajectory_id`,
      [runId],
    );
    return r.rows.map((row) => JSON.parse(row.record) as TrajectoryRecord);
  }

  /** How many records a run has. */
  async count(runId: string): Promise<number> {
    await this.ready();
    const r = await this.#pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.#table('cove_trajectories')} WHERE run_id = $1`,
      [runId],
    );
    return Number(r.rows[0]?.n ?? 0);
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
