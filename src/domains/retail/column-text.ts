import { pyJsonDumps } from '../../core/py-json.js';

/** Ordered `dict[str, str]` as stored in an options column (JSON object text, order kept). */
export function optionsText(options: ReadonlyMap<string, string>): string {
  return pyJsonDumps(options, { ensureAscii: false, separators: [',', ':'] });
}

/** A `list[str]` as stored in a JSON list column. */
export function listText(items: readonly string[]): string {
  return pyJsonDumps(items, { ensureAscii: false, separators: [',', ':'] });
}
