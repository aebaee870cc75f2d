import { pyJsonDumps } from '../core/py-json.js';
import type { DumpStyle, EnvironmentSpec } from './environment.js';
import { dumpState } from './episode.js';
import type { SqlConnection } from './sql.js';

/**
 * The state as a τ² `db.json` text: Python `json.dumps(..., indent=4)`, no trailing newline. In `file` style
 * it is byte-identical to τ²'s own db.json when nothing changed; `model_dump` style writes every field.
 */
export function stateFileText(spec: EnvironmentSpec, sql: SqlConnection, style: DumpStyle = 'file'): string {
  return pyJsonDumps(dumpState(spec, sql, style), { indent: 4 });
}
