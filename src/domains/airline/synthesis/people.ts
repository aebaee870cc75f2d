import type { Rng } from '../../../core/rng.js';
import type { PassengerView } from './views.js';

/**
 * New passengers a user adds (names of cove's own, not τ²'s), with a date of birth between 1950 and 2012.
 */

const FIRST_NAMES = [
  'Ines',
  'Tobias',
  'Marisol',
  'Keiran',
  'Odette',
  'Lucian',
  'Priyanka',
  'Anselm',
  'Rosalind',
  'Dmitri',
  'Noemi',
  'Caspian',
];
const LAST_NAMES = [
  'Faraday',
  'Okonkwo',
  'Lindqvist',
  'Moreau',
  'Takahashi',
  'Brennan',
  'Castellanos',
  'Haddad',
  'Vasquez-Lowe',
  'Petrakis',
];

/** A new passenger (drawn name and date of birth). */
export function newPassenger(rng: Rng): PassengerView {
  const month = String(rng.int(1, 12)).padStart(2, '0');
  const day = String(rng.int(1, 28)).padStart(2, '0');
  return {
    first_name: rng.pick(FIRST_NAMES),
    last_name: rng.pick(LAST_NAMES),
    dob: `${rng.int(1950, 2012)}-${month}-${day}`,
  };
}
