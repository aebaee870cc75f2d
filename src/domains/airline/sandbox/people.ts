import type { Faker } from '@faker-js/faker';
import type { PyDict } from '../../../core/py-value.js';
import { pyDict } from '../../../core/py-value.js';
import type { Rng } from '../../../core/rng.js';
import { fullNameKey } from '../../shared/sandbox/fingerprint.js';
import { drawUntil } from '../../shared/sandbox/sampling.js';
import { isTau2AirlineValue } from './overlap.js';

/** A passenger (τ²'s `Passenger`): names as faker gives them, date of birth `YYYY-MM-DD`. */
export interface SandboxPerson {
  readonly first: string;
  readonly last: string;
  readonly dob: string;
}

const NAME_PART = /^[A-Za-z]+$/;
/** Dates of birth from 1950-01-01 to 2000-12-31, as τ²'s users and passengers have. */
const DOB_FROM = Date.UTC(1950, 0, 1);
const DOB_DAYS = (Date.UTC(2000, 11, 31) - DOB_FROM) / 86_400_000;

/** A first and last name of letters only that is no name (user or passenger) of τ²'s airline DB. */
export function drawName(faker: Faker): [string, string] {
  return drawUntil(
    'name',
    () => [faker.person.firstName(), faker.person.lastName()] as [string, string],
    ([a, b]) => NAME_PART.test(a) && NAME_PART.test(b) && !isTau2AirlineValue('name', fullNameKey(a, b)),
  );
}

/** A date of birth, uniform over 1950–2000. */
export function drawDob(rng: Rng): string {
  return new Date(DOB_FROM + rng.int(0, DOB_DAYS) * 86_400_000).toISOString().slice(0, 10);
}

/** A new person (name and date of birth). */
export function drawPerson(faker: Faker, rng: Rng): SandboxPerson {
  const [first, last] = drawName(faker);
  return { first, last, dob: drawDob(rng) };
}

/** The `Passenger` dict, in τ²'s field order. */
export function passengerValue(p: SandboxPerson): PyDict {
  return pyDict([
    ['first_name', p.first],
    ['last_name', p.last],
    ['dob', p.dob],
  ]);
}
