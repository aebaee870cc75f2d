import { pyJsonDumps } from '../../core/py-json.js';
import type { PyValue } from '../../core/py-value.js';

/** Compact JSON text of a value as stored in a JSON column (order and int/float kept). */
export function jsonText(value: PyValue | ReadonlyMap<string, PyValue>): string {
  return pyJsonDumps(value as PyValue, { ensureAscii: false, separators: [',', ':'] });
}
