import type { Faker } from '@faker-js/faker';
import type { PyDict } from '../../../core/py-value.js';
import { pyDict } from '../../../core/py-value.js';
import type { Rng } from '../../../core/rng.js';
import { makeAddress, type SandboxAddress } from '../../shared/sandbox/addresses.js';
import { digits, drawUnique } from '../../shared/sandbox/sampling.js';
import { CERTIFICATE_IDS } from '../sequences.js';
import type { MEMBERSHIPS } from '../vocabulary.js';
import { isTau2AirlineValue } from './overlap.js';
import { drawDob, drawName, drawPerson, passengerValue, type SandboxPerson } from './people.js';

export type Membership = (typeof MEMBERSHIPS)[number];
type MethodKind = 'credit_card' | 'gift_card' | 'certificate';

/** A wallet: how many credit cards, gift cards and certificates a user holds. */
export type Wallet = readonly [creditCards: number, giftCards: number, certificates: number];

/**
 * τ²'s wallets as `"<cards><gift cards><certificates>:<users>"`, counted over its 500 users (33 users hold one
 * credit card and one certificate, …): the sandbox deals wallets in these proportions.
 */
const WALLET_TABLE =
  '101:33 010:30 011:30 110:29 100:28 111:24 001:22 200:19 112:17 021:17 020:16 211:16 210:15 102:15 002:15 ' +
  '120:13 121:11 012:10 220:8 201:7 031:7 212:6 221:6 312:5 203:5 130:5 301:5 132:4 310:4 013:4 022:4 300:4 ' +
  '131:4 113:3 222:3 141:3 030:3 311:3 103:3 230:3 003:3 202:2 232:2 213:2 231:2 041:2 114:2 140:2 330:2 122:2 ' +
  '400:2 331:1 320:1 004:1 040:1 501:1 410:1 430:1 123:1 223:1 014:1 033:1 411:1 133:1 032:1 601:1 142:1 204:1 005:1';

export const WALLETS: readonly Wallet[] = WALLET_TABLE.split(' ').map(
  (entry) => [...(entry.split(':')[0] as string)].map(Number) as unknown as Wallet,
);
export const WALLET_WEIGHTS: readonly number[] = WALLET_TABLE.split(' ').map((e) => Number(e.split(':')[1]));

/** Memberships in τ²'s proportions (gold 175, silver 182, regular 143 of 500). */
export const MEMBERSHIP_LIST: readonly Membership[] = ['gold', 'silver', 'regular'];
export const MEMBERSHIP_WEIGHTS = [175, 182, 143];

/** Saved passengers per user (τ²: 328 users have one, 172 two). */
export const SAVED_COUNTS = [1, 2];
export const SAVED_WEIGHTS = [328, 172];

const CARD_BRANDS = ['visa', 'mastercard'];
const CARD_BRAND_WEIGHTS = [260, 243];
/** Certificate values (τ²: 100, 150, 250 and 500, about equally often). */
const CERTIFICATE_AMOUNTS = [100, 150, 250, 500];
/** Gift card balances: whole dollars up to 300 (τ²'s range), stored as floats. */
const GIFT_CARD_MAX = 300;

/** A sandbox user and what reservations need of them. */
export interface SandboxUser extends SandboxPerson {
  readonly userId: string;
  readonly email: string;
  readonly address: SandboxAddress;
  readonly membership: Membership;
  /** Payment methods by id, as τ²'s `payment_methods` dicts, in the user's (shuffled) order. */
  readonly paymentMethods: PyDict;
  /** Ids of the methods a booking can be paid with in the DB (credit and gift cards; τ² never uses certificates). */
  readonly payable: readonly string[];
  readonly saved: readonly SandboxPerson[];
  readonly reservations: string[];
}

/** Ids taken so far, per kind (every id is unique within its kind). */
export interface TakenIds {
  readonly users: Set<string>;
  readonly emails: Set<string>;
  readonly payments: Set<string>;
  readonly reservations: Set<string>;
}

/** What {@link makeUser} draws for one user besides names and ids. */
export interface UserPlan {
  readonly wallet: Wallet;
  readonly membership: Membership;
  readonly savedCount: number;
}

/**
 * A user with τ²'s id formats: `first_last_NNNN`, `first.lastNNNN@example.com` (other digits), payment ids
 * `<kind>_NNNNNNN`; none equal to one of τ²'s (fingerprints), nor the street line, and no certificate id the
 * tools hand out.
 */
export function makeUser(rng: Rng, faker: Faker, plan: UserPlan, taken: TakenIds): SandboxUser {
  const [first, last] = drawName(faker);
  const lower = `${first.toLowerCase()}_${last.toLowerCase()}`;
  const userId = drawUnique(
    'user id',
    () => `${lower}_${digits(rng, 4)}`,
    taken.users,
    (id) => !isTau2AirlineValue('user', id),
  );
  const email = drawUnique(
    'email',
    () => `${first.toLowerCase()}.${last.toLowerCase()}${digits(rng, 4)}@example.com`,
    taken.emails,
    (e) => !isTau2AirlineValue('email', e),
  );
  const address = makeAddress(faker, rng, (a) => !isTau2AirlineValue('address1', a));
  const dob = drawDob(rng);
  const [cards, giftCards, certificates] = plan.wallet;
  const kinds: MethodKind[] = [
    ...Array<MethodKind>(cards).fill('credit_card'),
    ...Array<MethodKind>(giftCards).fill('gift_card'),
    ...Array<MethodKind>(certificates).fill('certificate'),
  ];
  const paymentMethods: PyDict = new Map();
  const payable: string[] = [];
  for (const kind of rng.shuffle(kinds)) {
    const id = drawUnique(
      'payment method id',
      () => `${kind}_${digits(rng, 7)}`,
      taken.payments,
      (v) => !isTau2AirlineValue('payment', v) && !CERTIFICATE_IDS.includes(v),
    );
    paymentMethods.set(id, paymentMethodValue(rng, kind, id));
    if (kind !== 'certificate') payable.push(id);
  }
  const saved = Array.from({ length: plan.savedCount }, () => drawPerson(faker, rng));
  return {
    userId,
    first,
    last,
    dob,
    email,
    address,
    membership: plan.membership,
    paymentMethods,
    payable,
    saved,
    reservations: [],
  };
}

function paymentMethodValue(rng: Rng, kind: MethodKind, id: string): PyDict {
  switch (kind) {
    case 'credit_card':
      return pyDict([
        ['source', kind],
        ['id', id],
        ['brand', rng.weighted(CARD_BRANDS, CARD_BRAND_WEIGHTS)],
        ['last_four', String(rng.int(0, 9999)).padStart(4, '0')],
      ]);
    case 'gift_card':
      return pyDict([
        ['source', kind],
        ['id', id],
        ['amount', rng.int(0, GIFT_CARD_MAX)],
      ]);
    case 'certificate':
      return pyDict([
        ['source', kind],
        ['id', id],
        ['amount', rng.pick(CERTIFICATE_AMOUNTS)],
      ]);
  }
}

/** The `User` dict, in the field order of τ²'s db.json. */
export function userValue(u: SandboxUser): PyDict {
  const a = u.address;
  return pyDict([
    ['user_id', u.userId],
    [
      'name',
      pyDict([
        ['first_name', u.first],
        ['last_name', u.last],
      ]),
    ],
    [
      'address',
      pyDict([
        ['address1', a.address1],
        ['address2', a.address2],
        ['city', a.city],
        ['country', a.country],
        ['state', a.state],
        ['zip', a.zip],
      ]),
    ],
    ['email', u.email],
    ['dob', u.dob],
    ['payment_methods', u.paymentMethods],
    ['saved_passengers', u.saved.map(passengerValue)],
    ['membership', u.membership],
    ['reservations', [...u.reservations]],
  ]);
}
