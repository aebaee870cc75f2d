import type { Faker } from '@faker-js/faker';
import type { PyDict, PyValue } from '../../../core/py-value.js';
import { pyDict } from '../../../core/py-value.js';
import { Rng } from '../../../core/rng.js';
import { makeAddress } from '../../shared/sandbox/addresses.js';
import { fakerFor, loadFaker } from '../../shared/sandbox/faker.js';
import { digits, drawUnique, drawUntil, quotaList } from '../../shared/sandbox/sampling.js';
import { fullNameKey } from './fingerprints.js';
import { isTau2Value } from './overlap.js';
import { generateProducts, type SandboxVariant } from './products.js';
import { addressValue, productValue, transaction, type UserRecord, userValue } from './values.js';

/** τ²-like default sizes. */
export const DEFAULT_USERS = 500;
export const DEFAULT_ORDERS = 1000;

type PaymentKind = 'credit_card' | 'gift_card' | 'paypal';

/** A user's set of payment methods, with weights near τ²'s mix (one method for two users in three). */
const WALLETS: readonly (readonly PaymentKind[])[] = [
  ['gift_card'],
  ['paypal'],
  ['credit_card'],
  ['gift_card', 'paypal'],
  ['credit_card', 'gift_card'],
  ['credit_card', 'paypal'],
  ['credit_card', 'gift_card', 'paypal'],
  ['credit_card', 'credit_card'],
  ['credit_card', 'credit_card', 'paypal'],
  ['credit_card', 'credit_card', 'gift_card', 'paypal'],
];
const WALLET_WEIGHTS = [25, 23, 20, 9, 8, 8, 3, 2, 1, 1];

const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover'];
const CARD_BRAND_WEIGHTS = [45, 40, 10, 5];

type Status = 'pending' | 'delivered' | 'processed' | 'cancelled';
const STATUSES: readonly Status[] = ['pending', 'delivered', 'processed', 'cancelled'];
const STATUS_WEIGHTS = [42, 38, 10, 10];

/** Items per order: 1–5, equally often (τ²: mean 2.98). */
const ITEM_COUNTS = [1, 2, 3, 4, 5];
/** Share of users without orders (τ²: 12 %) and of orders shipped to the user's own address (τ²: 80 %). */
const ZERO_ORDER_SHARE = 0.12;
const DEFAULT_ADDRESS_SHARE = 0.8;

const NAME_PART = /^[A-Za-z]+$/;

const notTau2Address = (address1: string): boolean => !isTau2Value('address1', address1);

interface SandboxUser extends UserRecord {
  readonly orders: string[];
}

/** Every id in the DB is unique within its kind; these sets hold the ids taken so far. */
interface Taken {
  readonly catalog: Set<string>;
  readonly users: Set<string>;
  readonly emails: Set<string>;
  readonly payments: Set<string>;
  readonly orders: Set<string>;
  readonly tracking: Set<string>;
}

function checkSize(name: string, n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`sandbox: ${name} must be a positive integer`);
  return n;
}

/** Options of {@link generateRetailSandbox}. */
export interface RetailSandboxOptions {
  /** Drives every random choice: the same options give the same DB, byte for byte. */
  readonly seed: number;
  /** @defaultValue 500 (τ²'s count) */
  readonly users?: number | undefined;
  /** @defaultValue 1000 (τ²'s count) */
  readonly orders?: number | undefined;
}

/**
 * A synthetic retail DB in τ²'s db.json shape (file style: no null optionals), from faker and the seed only:
 * the same options give the same value. Shares (order statuses, payment kinds, variants, availability, orders
 * and items per order, delivery addresses) follow τ²'s DB; no identifying value or price is τ²'s.
 */
export function generateRetailSandbox(options: RetailSandboxOptions): PyValue {
  if (!Number.isSafeInteger(options.seed)) throw new RangeError('sandbox: seed must be an integer');
  const userCount = checkSize('users', options.users ?? DEFAULT_USERS);
  const orderCount = checkSize('orders', options.orders ?? DEFAULT_ORDERS);
  const root = new Rng(options.seed);
  const faker = loadFaker();
  const taken: Taken = {
    catalog: new Set(),
    users: new Set(),
    emails: new Set(),
    payments: new Set(),
    orders: new Set(),
    tracking: new Set(),
  };

  const products = generateProducts(root, taken.catalog);
  const wallets = quotaList(root.child('wallets'), userCount, WALLETS, WALLET_WEIGHTS);
  const users = wallets.map((wallet, i) => makeUser(root.child('user', i), faker, wallet, taken));
  const owners = orderOwners(root.child('owners'), userCount, orderCount);
  const statuses = quotaList(root.child('statuses'), orderCount, STATUSES, STATUS_WEIGHTS);
  const itemCounts = quotaList(root.child('item-counts'), orderCount, ITEM_COUNTS, [1, 1, 1, 1, 1]);
  const atHome = quotaList(
    root.child('delivery'),
    orderCount,
    [true, false],
    [DEFAULT_ADDRESS_SHARE, 1 - DEFAULT_ADDRESS_SHARE],
  );
  const variants = products.flatMap((p) => p.variants);
  const orders = new Map<string, PyValue>();
  for (let i = 0; i < orderCount; i++) {
    const user = users[owners[i] as number] as SandboxUser;
    const order = makeOrder(root.child('order', i), faker, {
      user,
      status: statuses[i] as Status,
      itemCount: itemCounts[i] as number,
      atHome: atHome[i] as boolean,
      variants,
      taken,
    });
    orders.set(order.get('order_id') as string, order);
    user.orders.push(order.get('order_id') as string);
  }
  return pyDict([
    ['products', new Map(products.map((p) => [p.productId, productValue(p)]))],
    ['users', new Map(users.map((u) => [u.userId, userValue(u)]))],
    ['orders', orders],
  ]);
}

function makeUser(rng: Rng, faker: Faker, wallet: readonly PaymentKind[], taken: Taken): SandboxUser {
  const f = fakerFor(faker, rng);
  const [first, last] = drawUntil(
    'name',
    () => [f.person.firstName(), f.person.lastName()] as const,
    ([a, b]) => NAME_PART.test(a) && NAME_PART.test(b) && !isTau2Value('name', fullNameKey(a, b)),
  );
  const lower = `${first.toLowerCase()}_${last.toLowerCase()}`;
  const userId = drawUnique(
    'user id',
    () => `${lower}_${digits(rng, 4)}`,
    taken.users,
    (id) => !isTau2Value('user', id),
  );
  const email = drawUnique(
    'email',
    () => `${first.toLowerCase()}.${last.toLowerCase()}${digits(rng, 4)}@example.com`,
    taken.emails,
    (e) => !isTau2Value('email', e),
  );
  const address = makeAddress(f, rng, notTau2Address);
  const paymentMethods: PyDict = new Map();
  for (const kind of rng.shuffle(wallet)) {
    const id = drawUnique(
      'payment method id',
      () => `${kind}_${digits(rng, 7)}`,
      taken.payments,
      (v) => !isTau2Value('payment', v),
    );
    paymentMethods.set(id, paymentMethodValue(rng, kind, id));
  }
  return { userId, first, last, address, email, paymentMethods, orders: [] };
}

function paymentMethodValue(rng: Rng, kind: PaymentKind, id: string): PyDict {
  switch (kind) {
    case 'credit_card':
      return pyDict([
        ['source', kind],
        ['id', id],
        ['brand', rng.weighted(CARD_BRANDS, CARD_BRAND_WEIGHTS)],
        ['last_four', String(rng.int(0, 9999)).padStart(4, '0')],
      ]);
    case 'gift_card':
      // whole-dollar balances up to $100, as τ²'s gift cards have (a float, e.g. 37.0)
      return pyDict([
        ['source', kind],
        ['id', id],
        ['balance', rng.int(0, 100)],
      ]);
    case 'paypal':
      return pyDict([
        ['source', kind],
        ['id', id],
      ]);
  }
}

/**
 * The user index of each order: ~12 % of users get none, every other user at least one, the rest uniformly
 * (τ²-like: 1–9 orders per active user). With fewer orders than users, the surplus users get none.
 */
function orderOwners(rng: Rng, userCount: number, orderCount: number): number[] {
  const zero = Math.round(userCount * ZERO_ORDER_SHARE);
  const activeCount = Math.max(1, Math.min(userCount - zero, orderCount));
  const active = rng.sample(
    Array.from({ length: userCount }, (_, i) => i),
    activeCount,
  );
  const owners = [...active];
  while (owners.length < orderCount) owners.push(rng.pick(active));
  return rng.shuffle(owners);
}

interface OrderPlan {
  readonly user: SandboxUser;
  readonly status: Status;
  readonly itemCount: number;
  readonly atHome: boolean;
  readonly variants: readonly SandboxVariant[];
  readonly taken: Taken;
}

function makeOrder(rng: Rng, faker: Faker, plan: OrderPlan): PyDict {
  const { user, status, taken } = plan;
  const orderId = drawUnique(
    'order id',
    () => `#W${digits(rng, 7)}`,
    taken.orders,
    (id) => !isTau2Value('order', id),
  );
  // τ² draws items uniformly over all variants, available or not, with replacement
  const items = Array.from({ length: plan.itemCount }, () => rng.pick(plan.variants));
  const address = plan.atHome ? user.address : makeAddress(fakerFor(faker, rng), rng, notTau2Address);
  const methodId = rng.pick([...user.paymentMethods.keys()]);
  const cents = items.reduce((n, v) => n + Math.round(v.price * 100), 0);
  const amount = cents / 100; // = Python's round(sum(prices), 2), as in τ²'s DB
  const fulfillments: PyValue[] = [];
  if (status !== 'pending') {
    const trackingId = drawUnique(
      'tracking id',
      () => digits(rng, 12),
      taken.tracking,
      (t) => !isTau2Value('tracking', t),
    );
    fulfillments.push(
      pyDict([
        ['tracking_id', [trackingId]],
        ['item_ids', items.map((v) => v.itemId)],
      ]),
    );
  }
  const payments: PyValue[] = [transaction('payment', amount, methodId)];
  if (status === 'cancelled') payments.push(transaction('refund', amount, methodId));
  return pyDict([
    ['order_id', orderId],
    ['user_id', user.userId],
    ['address', addressValue(address)],
    [
      'items',
      items.map((v) =>
        pyDict([
          ['name', v.productName],
          ['product_id', v.productId],
          ['item_id', v.itemId],
          ['price', v.price],
          ['options', new Map(v.options)],
        ]),
      ),
    ],
    ['status', status],
    ['fulfillments', fulfillments],
    ['payment_history', payments],
  ]);
}
