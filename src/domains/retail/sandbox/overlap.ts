import { parseFingerprintLines } from '../../shared/sandbox/fingerprint.js';
import { type FingerprintKind, fingerprint } from './fingerprints.js';
import { TAU2_FINGERPRINTS } from './tau2-fingerprints.js';

let known: ReadonlySet<string> | undefined;

/** The committed fingerprint set, parsed once. */
export function tau2FingerprintSet(): ReadonlySet<string> {
  known ??= parseFingerprintLines(TAU2_FINGERPRINTS);
  return known;
}

/** True when `value` (of this kind) occurs in τ²'s retail DB, as far as the fingerprints tell. */
export function isTau2Value(kind: FingerprintKind, value: string): boolean {
  return tau2FingerprintSet().has(fingerprint(kind, value));
}

/** True for a 10-digit id used by τ² as a product id or an item id (the two share one format). */
export function isTau2CatalogId(id: string): boolean {
  return isTau2Value('item', id) || isTau2Value('product', id);
}
