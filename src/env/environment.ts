import type { PyJsonInput } from '../core/py-json.js';
import type { SqlConnection } from './sql.js';
import type { ToolSpec } from './tool.js';

/** `file`: τ²'s db.json style (null optionals omitted); `model_dump`: every field (what hashes are built on). */
export type DumpStyle = 'file' | 'model_dump';

/**
 * One top-level collection of a domain's τ² DB model (e.g. retail `orders`): a dict from key to entity, stored
 * as a root table (one row per entity, ordered by its `pos` column) plus child tables whose rows belong to it.
 */
export interface StateCollection {
  readonly name: string;
  readonly table: string;
  readonly key: string;
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
  readonly schemaSql: string;
  /** τ²'s toolkit class name, used in Python-style argument errors (`RetailTools.get_user_details() …`). */
  readonly toolkitName: string;
  readonly collections: readonly StateCollection[];
  readonly tools: readonly ToolSpec[];
}
