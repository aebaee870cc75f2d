import { createHash } from 'node:crypto';
import { type PyJsonInput, type PyJsonOptions, pyJsonDumps } from './py-json.js';

/** Lower-case hex SHA-256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * `json.dumps` options of τ²'s state hash (τ²'s `get_db_hash`):
 * `sha256(json.dumps(db.model_dump(), sort_keys=True, default=str))`.
 */
export const TAU2_HASH_JSON: PyJsonOptions = { sortKeys: true };

/**
 * Options of cove's canonical form: keys sorted recursively, compact separators, floats with an integral
 * value written as ints, non-ASCII raw (UTF-8). Equal for `2` and `2.0`, which is its point.
 */
export const CANONICAL_JSON: PyJsonOptions = {
  sortKeys: true,
  separators: [',', ':'],
  ensureAscii: false,
  integralFloatsAsInts: true,
};

/** τ²'s `get_dict_hash`: SHA-256 of the Python `json.dumps(..., sort_keys=True)` text of a model dump. */
export function tau2DictHash(modelDump: PyJsonInput): string {
  return sha256Hex(pyJsonDumps(modelDump, TAU2_HASH_JSON));
}

/** cove's canonical SHA-256 (see {@link CANONICAL_JSON}). */
export function canonicalSha256(modelDump: PyJsonInput): string {
  return sha256Hex(pyJsonDumps(modelDump, CANONICAL_JSON));
}
