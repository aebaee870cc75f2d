import Database from 'better-sqlite3';

/** A reference as SQL tasks store it in `cove.fuzz.goals[].references`. */
export interface StoredReference {
  readonly table: string;
  readonly key: Record<string, string | number | null>;
  readonly clauses: readonly { via?: number; column: string; value: string | number | null }[];
}

const same = (a: unknown, b: unknown) =>
  a === b ||
  (a !== null && b !== null && (typeof a === 'bigint' || typeof b === 'bigint') && Number(a) === Number(b));

/**
 * An independent check of a fuzzy reference: reads every row of the table and of its parents into memory, follows
 * foreign keys in JavaScript (no SQL joins or WHERE), and returns the keys of the rows every clause matches. It
 * shares no code with the synthesis's count queries.
 */
export function bruteForceMatches(dbFile: string | Buffer, ref: StoredReference): Record<string, unknown>[] {
  const db = new Database(dbFile, { readonly: typeof dbFile === 'string' });
  db.defaultSafeIntegers(false);
  try {
    const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
    const rows = db.prepare(`SELECT * FROM ${q(ref.table)}`).all() as Record<string, unknown>[];
    const fks = db.prepare(`SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq`).all(ref.table) as {
      id: number;
      table: string;
      from: string;
      to: string | null;
    }[];
    const fkIds = [...new Set(fks.map((f) => f.id))];
    // the synthesis numbers foreign keys in pragma order after dropping dangling ones; the six test databases have none
    const parents = new Map<number, { cols: string[]; to: string[]; rows: Record<string, unknown>[] }>();
    fkIds.forEach((id, index) => {
      const parts = fks.filter((f) => f.id === id);
      const table = parts[0]?.table as string;
      const pk = (
        db.prepare('SELECT name, pk FROM pragma_table_info(?)').all(table) as { name: string; pk: number }[]
      )
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      parents.set(index, {
        cols: parts.map((p) => p.from),
        to: parts.map((p, i) => p.to ?? (pk[i] as string)),
        rows: db.prepare(`SELECT * FROM ${q(table)}`).all() as Record<string, unknown>[],
      });
    });
    const pick = (row: Record<string, unknown>, col: string) => {
      const k = Object.keys(row).find((c) => c.toLowerCase() === col.toLowerCase());
      return k === undefined ? undefined : row[k];
    };
    return rows
      .filter((row) =>
        ref.clauses.every((c) => {
          if (c.via === undefined) return same(pick(row, c.column), c.value);
          const p = parents.get(c.via);
          if (p === undefined) return false;
          const parent = p.rows.find((pr) =>
            p.cols.every((col, i) => same(pick(pr, p.to[i] as string), pick(row, col))),
          );
          return parent !== undefined && same(pick(parent, c.column), c.value);
        }),
      )
      .map((row) => Object.fromEntries(Object.keys(ref.key).map((k) => [k, pick(row, k)])));
  } finally {
    db.close();
  }
}
