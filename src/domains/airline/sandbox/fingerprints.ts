import type { PyValue } from '../../../core/py-value.js';
import { parseWith } from '../../../core/schema-helpers.js';
import {
  fullNameKey,
  fingerprintModuleText as moduleText,
  sortedFingerprints,
} from '../../shared/sandbox/fingerprint.js';
import { airlineDbSchema } from '../data-model.js';

/**
 * The kinds of τ²'s identifying airline values that are fingerprinted (see `shared/sandbox/fingerprint.ts`):
 * user ids, emails, full names (users, saved passengers and reservation passengers, as lower-case `"first last"`),
 * street lines (`address1`), reservation ids and payment method ids.
 */
export type AirlineFingerprintKind = 'user' | 'email' | 'name' | 'address1' | 'reservation' | 'payment';

/** Every identifying value of a τ² airline DB value as `[kind, value]` pairs (duplicates included). */
export function tau2AirlineIdentifyingValues(
  value: PyValue,
  file: string,
): [AirlineFingerprintKind, string][] {
  const db = parseWith(airlineDbSchema, value, file);
  const out: [AirlineFingerprintKind, string][] = [];
  const person = (p: { first_name: string; last_name: string }) =>
    out.push(['name', fullNameKey(p.first_name, p.last_name)]);
  for (const [userId, user] of db.users) {
    out.push(['user', userId], ['email', user.email], ['address1', user.address.address1]);
    person(user.name);
    for (const p of user.saved_passengers) person(p);
    for (const id of user.payment_methods.keys()) out.push(['payment', id]);
    for (const id of user.reservations) out.push(['reservation', id]);
  }
  for (const [reservationId, r] of db.reservations) {
    out.push(['reservation', reservationId], ['user', r.user_id]);
    for (const p of r.passengers) person(p);
    for (const p of r.payment_history) out.push(['payment', p.payment_id]);
  }
  return out;
}

/** The sorted, distinct fingerprints of a τ² airline DB value. */
export function tau2AirlineFingerprints(value: PyValue, file: string): string[] {
  return sortedFingerprints(tau2AirlineIdentifyingValues(value, file));
}

/** The text of the airline `tau2-fingerprints.ts` for these fingerprints (biome-formatted, as committed). */
export function airlineFingerprintModuleText(fingerprints: readonly string[]): string {
  return moduleText(
    'airline',
    [
      "Fingerprints of every identifying value in τ²'s airline db.json (see `fingerprints.ts`): the sandbox",
      'generator resamples any candidate whose fingerprint is listed, so no generated user id, email, name,',
      "street address, reservation id or payment method id equals τ²'s. Space-separated, sorted.",
    ],
    fingerprints,
  );
}
