import { fingerprintOf, parseFingerprintLines } from '../../shared/sandbox/fingerprint.js';
import type { AirlineFingerprintKind } from './fingerprints.js';
import { TAU2_FINGERPRINTS } from './tau2-fingerprints.js';

let known: ReadonlySet<string> | undefined;

/** True when `value` (of this kind) occurs in τ²'s airline DB, as far as the committed fingerprints tell. */
export function isTau2AirlineValue(kind: AirlineFingerprintKind, value: string): boolean {
  known ??= parseFingerprintLines(TAU2_FINGERPRINTS);
  return known.has(fingerprintOf(kind, value));
}
