import type { PyJsonInput } from '../core/py-json.js';
import type { SqlConnection } from './sql.js';
import type { ToolSpec } from './tool.js';

/** `file`: τ²'s db.json style (null optionals omitted); `model_dump`: every field (what hashes are built on). */
export type DumpStyle = 'file' | 'model_dump';

/**
 * One top-level collection of a domain's state (e.g. retail `orders`, or one table of a plain SQLite database): a
 * dict from key to entity, stored as a root table (one row per entity) plus child tables whose rows belong to it.
 * `sqlite_*` tables are never state.
 */
export interface StateCollection {
  readonly name: string;
  readonly table: string;
  /** The key as an SQL expression over the root table's columns (a column name, or `json_array(a, b)`). */
  readonly key: string;
  /** For a composite key, its columns (change-tracking triggers read them as `NEW.<column>`). */
  readonly keyColumns?: readonly string[];
  /** Entity order of the dump: τ²'s position column, else the primary key (or rowid). @defaultValue 'pos' */
  readonly orderBy?: string;
  /** Tables whose rows belong to one entity of this collection, with the column holding the entity key. */
  readonly children: readonly { readonly table: string; readonly key: string }[];
  /** The entity's model value, or `undefined` if no row has that key. */
  dump(sql: SqlConnection, key: string, style: DumpStyle): PyJsonInput | undefined;
}

/**
 * What the environment layer needs of a domain: its SQL schema, its state collections (in τ² model order) and
 * its tools (in τ² order). Shared code never branches on a domain's name.
 */
export interface EnvironmentSpec {
  readonly name: string;
  /** DDL of the domain's tables (empty for a base read from an existing SQLite file, which has its own). */
  readonly schemaSql: string;
  /** Class name used in Python-style argument errors (`RetailTools.get_user_details() …`): τ²'s toolkit name
   * for τ² domains. @defaultValue `Tools` */
  readonly toolkitName?: string;
  readonly collections: readonly StateCollection[];
  readonly tools: readonly ToolSpec[];
}
