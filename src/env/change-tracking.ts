import type { EnvironmentSpec } from './environment.js';
import type { SqlConnection } from './sql.js';

/** The table where triggers record which entities a transaction touched. */
export const CHANGES_TABLE = '_cove_changes';

/** An entity of a state collection, e.g. `{collection: 'orders', key: '#W2378156'}`. */
export interface EntityRef {
  readonly collection: string;
  readonly key: string;
}

/**
 * Installs the change-tracking table and one trigger per table and event, so every write records the
 * (collection, key) of the entity whose rows it changed. This is how episodes diff against the shared base
 * without hashing whole databases.
 */
export function installChangeTracking(sql: SqlConnection, spec: EnvironmentSpec): void {
  const statements = [
    `CREATE TABLE ${CHANGES_TABLE} (seq INTEGER PRIMARY KEY, collection TEXT NOT NULL, key ANY NOT NULL)`,
  ];
  for (const collection of spec.collections) {
    const root = {
      table: collection.table,
      keyOf: (row: string) =>
        collection.keyColumns === undefined
          ? `${row}.${collection.key}`
          : `json_array(${collection.keyColumns.map((c) => `${row}.${c}`).join(', ')})`,
    };
    const children = collection.children.map((c) => ({
      table: c.table,
      keyOf: (row: string) => `${row}.${c.key}`,
    }));
    for (const { table, keyOf } of [root, ...children]) {
      const name = `"_cove_${table.replaceAll('"', '')}`;
      const record = (row: 'NEW' | 'OLD') =>
        `INSERT INTO ${CHANGES_TABLE}(collection, key) VALUES (${sqlString(collection.name)}, ${keyOf(row)});`;
      statements.push(
        `CREATE TRIGGER ${name}_insert" AFTER INSERT ON ${table} BEGIN ${record('NEW')} END`,
        `CREATE TRIGGER ${name}_update" AFTER UPDATE ON ${table} BEGIN ${record('OLD')} ${record('NEW')} END`,
        `CREATE TRIGGER ${name}_delete" AFTER DELETE ON ${table} BEGIN ${record('OLD')} END`,
      );
    }
  }
  sql.exec(`${statements.join(';\n')};`);
}

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Reads and clears the entities recorded since the last call, in first-touch order, without duplicates. */
export function takeChanges(sql: SqlConnection): EntityRef[] {
  if (sql.takeWrites() === 0) return [];
  const rows = sql.all(`SELECT collection, key FROM ${CHANGES_TABLE} ORDER BY seq`);
  if (rows.length === 0) return [];
  sql.run(`DELETE FROM ${CHANGES_TABLE}`);
  sql.takeWrites(); // the bookkeeping delete is not a change of the state
  const seen = new Set<string>();
  const out: EntityRef[] = [];
  for (const row of rows) {
    const ref = { collection: String(row.collection), key: String(row.key) };
    const id = `${ref.collection}\u0000${ref.key}`;
    if (!seen.has(id)) {
      seen.add(id);
      out.push(ref);
    }
  }
  return out;
}
