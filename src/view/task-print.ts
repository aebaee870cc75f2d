import { createHash } from 'node:crypto';

/**
 * Fingerprints of tasks, so that `cove view <runA> <runB>` pairs episodes only when their tasks are the same
 * task, not merely the same id: `cove generate --n 30` and `cove generate --n 30 --difficulty hard` both name
 * their tasks `retail-s1-0` … `retail-s1-29`, yet the tasks differ (docs/view.md, "Compare").
 */

/** Fields of a task's `cove` block that say how or where it was made, not what the task is. */
const VOLATILE_COVE_FIELDS = new Set(['cove_version', 'index']);

/** JSON text with object keys sorted at every level, so key order does not change a fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Fingerprint of a task definition (a tasks.json entry or a τ² results file's task): the SHA-256 of its JSON
 * with sorted keys, leaving out the `cove` block's version and position in the file.
 */
export function taskPrint(task: unknown): string {
  let t = task;
  if (t !== null && typeof t === 'object' && !Array.isArray(t)) {
    const o = t as Record<string, unknown>;
    const cove = o.cove;
    if (cove !== null && typeof cove === 'object' && !Array.isArray(cove)) {
      const kept = Object.fromEntries(
        Object.entries(cove as Record<string, unknown>).filter(([k]) => !VOLATILE_COVE_FIELDS.has(k)),
      );
      t = { ...o, cove: kept };
    }
  }
  return createHash('sha256').update(canonical(t)).digest('hex').slice(0, 16);
}

/** Task id → fingerprint of the task, for the tasks (`id` strings) of a tasks list. */
export function taskPrints(tasks: readonly unknown[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of tasks) {
    const id = t !== null && typeof t === 'object' ? (t as { id?: unknown }).id : undefined;
    if (typeof id === 'string' && !out.has(id)) out.set(id, taskPrint(t));
  }
  return out;
}
