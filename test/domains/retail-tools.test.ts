import { beforeAll, describe, expect, it } from 'vitest';
import { type PyValue, pyDict } from '../../src/core/py-value.js';
import type { Episode } from '../../src/env/episode.js';
import type { Semantics } from '../../src/env/tool.js';
import { tau2RetailBase } from '../helpers/retail-base.js';

/**
 * Every error branch of every retail tool, with τ²'s exact message, plus the success-path quirks of the write tools.
 *
 * The expected strings and numbers were produced by running τ²'s Python tool code (RetailTools, pydantic 2.13, CPython
 * 3.11) on τ²'s db.json; the expected hashes are τ²'s `get_db_hash()` of the resulting state. Nothing here was computed
 * by running cove.
 */

// A pending order of aarav_nguyen_7344, paid with PayPal; the user also has a gift card with 22.0 on it.
const PENDING = '#W2443586';
const P_USER = 'aarav_nguyen_7344';
const P_PAYPAL = 'paypal_7859314';
const P_GIFT = 'gift_card_2742113';
const KBD = '9690244451'; // Mechanical Keyboard, 236.51
const BOOTS = '1437889264'; // Hiking Boots, 258.09
const HOSE = '3369928769'; // Garden Hose, 97.35
// A delivered order of sophia_jackson_6355, paid with credit_card_8041020; gift card balance 10.0.
const DELIVERED = '#W4250821';
const D_USER = 'sophia_jackson_6355';
const D_CARD = 'credit_card_8041020';
const D_CARD2 = 'credit_card_6547060';
const D_PAYPAL = 'paypal_7425862';
const D_GIFT = 'gift_card_6052478';
const D_KBD = '5222576926'; // Mechanical Keyboard, 249.95 (that variant is no longer available)
const D_BED = '6857426243'; // Pet Bed, 196.53
const PROCESSED = '#W2611340';
const CANCELLED = '#W3220387';
const PENDING_DUP = '#W9093821'; // holds item 3557711149 twice
const DELIVERED_DUP = '#W4316152'; // holds item 7292993796 twice
const ADDRESS = {
  address1: '1 Main St',
  address2: '',
  city: 'Austin',
  state: 'TX',
  country: 'USA',
  zip: '78701',
};

type Args = Record<string, PyValue>;

interface ErrorCase {
  readonly label: string;
  readonly tool?: string;
  readonly args: Args;
  /** Successful calls made first in the same episode. */
  readonly setup?: readonly (readonly [string, Args])[];
  readonly message: string;
}

/** Turns the pending order into `pending (item modified)` (keyboard → 7706410293, paid with PayPal). */
const SETUP_ITEMS_MODIFIED: readonly (readonly [string, Args])[] = [
  [
    'modify_pending_order_items',
    { order_id: PENDING, item_ids: [KBD], new_item_ids: ['7706410293'], payment_method_id: P_PAYPAL },
  ],
];

let baseHash = '';
beforeAll(() => {
  baseHash = tau2RetailBase().hashes.db_hash;
});

function withEpisode<T>(fn: (episode: Episode) => T, semantics: Semantics = 'parity'): T {
  const episode = tau2RetailBase().base.fork({ semantics });
  try {
    return fn(episode);
  } finally {
    episode.close();
  }
}

/** A call that must succeed; returns its content. */
function ok(episode: Episode, tool: string, args: Args): string {
  const result = episode.call(tool, pyDict(args));
  expect(result.error, result.content).toBe(false);
  expect(episode.stats.internalErrors).toBe(0);
  return result.content;
}

interface OrderJson {
  readonly status: string;
  readonly items: readonly {
    readonly name: string;
    readonly product_id: string;
    readonly item_id: string;
    readonly price: number;
    readonly options: Record<string, string>;
  }[];
  readonly payment_history: readonly {
    readonly transaction_type: string;
    readonly amount: number;
    readonly payment_method_id: string;
  }[];
  readonly cancel_reason: string | null;
  readonly exchange_items: string[] | null;
  readonly exchange_new_items: string[] | null;
  readonly exchange_payment_method_id: string | null;
  readonly exchange_price_difference: number | null;
  readonly return_items: string[] | null;
  readonly return_payment_method_id: string | null;
  readonly address: Record<string, string>;
}

/** A successful call whose result is an order, parsed (numbers lose their int/float tag: check raw text for that). */
function order(episode: Episode, tool: string, args: Args): OrderJson {
  return JSON.parse(ok(episode, tool, args)) as OrderJson;
}

/** The balance of one of a user's gift cards, as `get_user_details` shows it. */
function balance(episode: Episode, userId: string, giftCardId: string): number | undefined {
  const user = JSON.parse(ok(episode, 'get_user_details', { user_id: userId })) as {
    payment_methods: Record<string, { balance?: number }>;
  };
  return user.payment_methods[giftCardId]?.balance;
}

/** The call fails with exactly `Error: <message>` and leaves the state exactly as it was. */
function expectToolError(tool: string, c: ErrorCase): void {
  withEpisode((episode) => {
    for (const [name, args] of c.setup ?? []) ok(episode, name, args);
    const before = episode.hashes().db_hash;
    const changedBefore = episode.changedEntities();
    const result = episode.call(tool, pyDict(c.args));
    expect(result.content).toBe(`Error: ${c.message}`);
    expect(result.error).toBe(true);
    expect(result.changed).toEqual([]);
    expect(episode.stats.internalErrors).toBe(0);
    expect(episode.changedEntities()).toEqual(changedBefore);
    expect(episode.hashes().db_hash).toBe(before);
    if (c.setup === undefined) {
      expect(episode.hashes().db_hash).toBe(baseHash);
      expect(episode.changedEntities()).toEqual([]);
    }
  });
}

const DISPATCH_ERRORS: ErrorCase[] = [
  { label: 'unknown tool', tool: 'nope', args: {}, message: "Tool 'nope' not found." },
  {
    label: 'unknown tool with arguments',
    tool: 'get_orders',
    args: { order_id: PENDING },
    message: "Tool 'get_orders' not found.",
  },
  {
    label: 'missing one argument',
    tool: 'get_user_details',
    args: {},
    message: "RetailTools.get_user_details() missing 1 required positional argument: 'user_id'",
  },
  {
    label: 'missing two arguments',
    tool: 'find_user_id_by_name_zip',
    args: { first_name: 'Aarav' },
    message:
      "RetailTools.find_user_id_by_name_zip() missing 2 required positional arguments: 'last_name' and 'zip'",
  },
  {
    label: 'missing three arguments',
    tool: 'modify_pending_order_items',
    args: { order_id: PENDING },
    message:
      "RetailTools.modify_pending_order_items() missing 3 required positional arguments: 'item_ids', 'new_item_ids', and 'payment_method_id'",
  },
  {
    label: 'missing seven arguments',
    tool: 'modify_user_address',
    args: {},
    message:
      "RetailTools.modify_user_address() missing 7 required positional arguments: 'user_id', 'address1', 'address2', 'city', 'state', 'country', and 'zip'",
  },
  {
    label: 'unexpected keyword',
    tool: 'get_user_details',
    args: { user_id: P_USER, foo: 1n },
    message: "RetailTools.get_user_details() got an unexpected keyword argument 'foo'",
  },
  {
    label: 'unexpected keyword wins over missing',
    tool: 'get_user_details',
    args: { userId: P_USER },
    message: "RetailTools.get_user_details() got an unexpected keyword argument 'userId'",
  },
  {
    label: 'first unexpected keyword in call order',
    tool: 'cancel_pending_order',
    args: { why: 'x', order_id: PENDING, orderId: PENDING },
    message: "RetailTools.cancel_pending_order() got an unexpected keyword argument 'why'",
  },
  {
    label: 'no parameters at all',
    tool: 'list_all_product_types',
    args: { x: 1n },
    message: "RetailTools.list_all_product_types() got an unexpected keyword argument 'x'",
  },
  {
    label: 'transfer without summary',
    tool: 'transfer_to_human_agents',
    args: {},
    message: "RetailTools.transfer_to_human_agents() missing 1 required positional argument: 'summary'",
  },
];

const CANCEL_PENDING_ORDER_ERRORS: ErrorCase[] = [
  {
    label: 'order not found',
    args: { order_id: '#W0000000', reason: 'no longer needed' },
    message: 'Order not found',
  },
  {
    label: 'order id without #',
    args: { order_id: '2443586', reason: 'no longer needed' },
    message: 'Order not found',
  },
  {
    label: 'order id as int',
    args: { order_id: 2443586n, reason: 'no longer needed' },
    message: 'Order not found',
  },
  {
    label: 'order id as null',
    args: { order_id: null, reason: 'no longer needed' },
    message: 'Order not found',
  },
  {
    label: 'order id as list',
    args: { order_id: [PENDING], reason: 'no longer needed' },
    message: "unhashable type: 'list'",
  },
  {
    label: 'order id as dict',
    args: { order_id: pyDict([['id', PENDING]]), reason: 'no longer needed' },
    message: "unhashable type: 'dict'",
  },
  {
    label: 'processed',
    args: { order_id: PROCESSED, reason: 'no longer needed' },
    message: 'Non-pending order cannot be cancelled',
  },
  {
    label: 'delivered',
    args: { order_id: DELIVERED, reason: 'no longer needed' },
    message: 'Non-pending order cannot be cancelled',
  },
  {
    label: 'cancelled',
    args: { order_id: CANCELLED, reason: 'no longer needed' },
    message: 'Non-pending order cannot be cancelled',
  },
  {
    label: 'status is checked before the reason',
    args: { order_id: PROCESSED, reason: 'bored' },
    message: 'Non-pending order cannot be cancelled',
  },
  {
    label: 'pending (item modified) is not pending',
    args: { order_id: PENDING, reason: 'no longer needed' },
    setup: SETUP_ITEMS_MODIFIED,
    message: 'Non-pending order cannot be cancelled',
  },
  { label: 'invalid reason', args: { order_id: PENDING, reason: 'bored' }, message: 'Invalid reason' },
  {
    label: 'reason with other case',
    args: { order_id: PENDING, reason: 'No longer needed' },
    message: 'Invalid reason',
  },
  { label: 'empty reason', args: { order_id: PENDING, reason: '' }, message: 'Invalid reason' },
  { label: 'reason as null', args: { order_id: PENDING, reason: null }, message: 'Invalid reason' },
  { label: 'reason as int', args: { order_id: PENDING, reason: 1n }, message: 'Invalid reason' },
  {
    label: 'reason as list',
    args: { order_id: PENDING, reason: ['no longer needed'] },
    message: "unhashable type: 'list'",
  },
];

const EXCHANGE_DELIVERED_ORDER_ITEMS_ERRORS: ErrorCase[] = [
  {
    label: 'order not found',
    args: {
      order_id: '#W0000000',
      item_ids: [D_KBD],
      new_item_ids: ['7706410293'],
      payment_method_id: D_CARD,
    },
    message: 'Order not found',
  },
  {
    label: 'order id as list',
    args: {
      order_id: [DELIVERED],
      item_ids: [D_KBD],
      new_item_ids: ['7706410293'],
      payment_method_id: D_CARD,
    },
    message: "unhashable type: 'list'",
  },
  {
    label: 'pending',
    args: { order_id: PENDING, item_ids: [D_KBD], new_item_ids: ['7706410293'], payment_method_id: D_CARD },
    message: 'Non-delivered order cannot be exchanged',
  },
  {
    label: 'processed',
    args: { order_id: PROCESSED, item_ids: [D_KBD], new_item_ids: ['7706410293'], payment_method_id: D_CARD },
    message: 'Non-delivered order cannot be exchanged',
  },
  {
    label: 'cancelled',
    args: { order_id: CANCELLED, item_ids: [D_KBD], new_item_ids: ['7706410293'], payment_method_id: D_CARD },
    message: 'Non-delivered order cannot be exchanged',
  },
  {
    label: 'item not in the order',
    args: { order_id: DELIVERED, item_ids: [KBD], new_item_ids: ['7706410293'], payment_method_id: D_CARD },
    message: 'Number of 9690244451 not found.',
  },
  {
    label: 'item listed more often than ordered',
    args: {
      order_id: DELIVERED,
      item_ids: [D_KBD, D_KBD],
      new_item_ids: ['7706410293', '7706410293'],
      payment_method_id: D_CARD,
    },
    message: 'Number of 5222576926 not found.',
  },
  {
    label: 'duplicate item listed three times',
    args: {
      order_id: DELIVERED_DUP,
      item_ids: ['7292993796', '7292993796', '7292993796'],
      new_item_ids: ['1', '1', '1'],
      payment_method_id: D_CARD,
    },
    message: 'Number of 7292993796 not found.',
  },
  {
    label: 'count check comes before the length check',
    args: { order_id: DELIVERED, item_ids: ['1'], new_item_ids: [], payment_method_id: D_CARD },
    message: 'Number of 1 not found.',
  },
  {
    label: 'fewer new items',
    args: { order_id: DELIVERED, item_ids: [D_KBD], new_item_ids: [], payment_method_id: D_CARD },
    message: 'The number of items to be exchanged should match.',
  },
  {
    label: 'more new items',
    args: {
      order_id: DELIVERED,
      item_ids: [D_KBD],
      new_item_ids: ['7706410293', '3616838507'],
      payment_method_id: D_CARD,
    },
    message: 'The number of items to be exchanged should match.',
  },
  {
    label: 'unavailable new item',
    args: { order_id: DELIVERED, item_ids: [D_KBD], new_item_ids: ['9690244451'], payment_method_id: D_CARD },
    message: 'New item 9690244451 not found or available',
  },
  {
    label: 'same id but the variant is no longer available',
    args: { order_id: DELIVERED, item_ids: [D_KBD], new_item_ids: [D_KBD], payment_method_id: D_CARD },
    message: 'New item 5222576926 not found or available',
  },
  {
    label: 'variant of another product',
    args: { order_id: DELIVERED, item_ids: [D_KBD], new_item_ids: ['1615379700'], payment_method_id: D_CARD },
    message: 'Variant not found',
  },
  {
    label: 'unknown new item',
    args: { order_id: DELIVERED, item_ids: [D_KBD], new_item_ids: ['0000000000'], payment_method_id: D_CARD },
    message: 'Variant not found',
  },
  {
    label: 'payment method not found',
    args: {
      order_id: DELIVERED,
      item_ids: [D_KBD],
      new_item_ids: ['7706410293'],
      payment_method_id: 'credit_card_0000000',
    },
    message: 'Payment method not found',
  },
  {
    label: "another user's payment method",
    args: {
      order_id: DELIVERED,
      item_ids: [D_KBD],
      new_item_ids: ['7706410293'],
      payment_method_id: P_PAYPAL,
    },
    message: 'Payment method not found',
  },
  {
    label: 'gift card balance too low',
    args: { order_id: DELIVERED, item_ids: [D_KBD], new_item_ids: ['7706410293'], payment_method_id: D_GIFT },
    message: 'Insufficient gift card balance to pay for the price difference',
  },
  {
    label: 'item_ids as int',
    args: { order_id: DELIVERED, item_ids: 5n, new_item_ids: ['7706410293'], payment_method_id: D_CARD },
    message: "'int' object is not iterable",
  },
  {
    label: 'item_ids as null',
    args: { order_id: DELIVERED, item_ids: null, new_item_ids: ['7706410293'], payment_method_id: D_CARD },
    message: "'NoneType' object is not iterable",
  },
  {
    label: 'item_ids as dict',
    args: {
      order_id: DELIVERED,
      item_ids: pyDict([['5222576926', 1n]]),
      new_item_ids: ['7706410293'],
      payment_method_id: D_CARD,
    },
    message: "'dict' object has no attribute 'count'",
  },
  {
    label: 'item_ids as str (iterated by character)',
    args: {
      order_id: DELIVERED,
      item_ids: '5222576926',
      new_item_ids: ['7706410293'],
      payment_method_id: D_CARD,
    },
    message: 'Number of 5 not found.',
  },
  {
    label: 'item id as int',
    args: { order_id: DELIVERED, item_ids: [5n], new_item_ids: ['1'], payment_method_id: D_CARD },
    message: 'Number of 5 not found.',
  },
  {
    label: 'item id as null',
    args: { order_id: DELIVERED, item_ids: [null], new_item_ids: ['1'], payment_method_id: D_CARD },
    message: 'Number of None not found.',
  },
  {
    label: 'item id as list',
    args: { order_id: DELIVERED, item_ids: [[D_KBD]], new_item_ids: ['1'], payment_method_id: D_CARD },
    message: "Number of ['5222576926'] not found.",
  },
  {
    label: 'new_item_ids as int',
    args: { order_id: DELIVERED, item_ids: [], new_item_ids: 0n, payment_method_id: D_CARD },
    message: "object of type 'int' has no len()",
  },
  {
    label: 'new item id as list',
    args: {
      order_id: DELIVERED,
      item_ids: [D_KBD],
      new_item_ids: [['7706410293']],
      payment_method_id: D_CARD,
    },
    message: "unhashable type: 'list'",
  },
  {
    label: 'payment method id as list',
    args: {
      order_id: DELIVERED,
      item_ids: [D_KBD],
      new_item_ids: ['7706410293'],
      payment_method_id: [D_CARD],
    },
    message: "unhashable type: 'list'",
  },
  {
    label: 'payment method id as int',
    args: {
      order_id: DELIVERED,
      item_ids: [D_KBD],
      new_item_ids: ['7706410293'],
      payment_method_id: 8041020n,
    },
    message: 'Payment method not found',
  },
];

const FIND_USER_ID_BY_NAME_ZIP_ERRORS: ErrorCase[] = [
  {
    label: 'unknown name',
    args: { first_name: 'Nobody', last_name: 'Nguyen', zip: '75268' },
    message: 'User not found',
  },
  {
    label: 'wrong zip',
    args: { first_name: 'Aarav', last_name: 'Nguyen', zip: '75269' },
    message: 'User not found',
  },
  {
    label: 'zip as int (== is never true)',
    args: { first_name: 'Aarav', last_name: 'Nguyen', zip: 75268n },
    message: 'User not found',
  },
  {
    label: 'first name as int',
    args: { first_name: 1n, last_name: 'Nguyen', zip: '75268' },
    message: "'int' object has no attribute 'lower'",
  },
  {
    label: 'first name as null',
    args: { first_name: null, last_name: 'Nguyen', zip: '75268' },
    message: "'NoneType' object has no attribute 'lower'",
  },
  {
    label: 'last name as int after a first-name match',
    args: { first_name: 'AARAV', last_name: 1n, zip: '75268' },
    message: "'int' object has no attribute 'lower'",
  },
  {
    label: 'last name as list without a first-name match',
    args: { first_name: 'Nobody', last_name: ['x'], zip: '75268' },
    message: 'User not found',
  },
];

const FIND_USER_ID_BY_EMAIL_ERRORS: ErrorCase[] = [
  { label: 'unknown email', args: { email: 'nobody@example.com' }, message: 'User not found' },
  { label: 'empty email', args: { email: '' }, message: 'User not found' },
  { label: 'email as int', args: { email: 5n }, message: "'int' object has no attribute 'lower'" },
  { label: 'email as null', args: { email: null }, message: "'NoneType' object has no attribute 'lower'" },
  {
    label: 'email as list',
    args: { email: ['aarav.nguyen1293@example.com'] },
    message: "'list' object has no attribute 'lower'",
  },
  { label: 'email as dict', args: { email: pyDict([]) }, message: "'dict' object has no attribute 'lower'" },
  { label: 'email as bool', args: { email: true }, message: "'bool' object has no attribute 'lower'" },
];

const GET_ORDER_DETAILS_ERRORS: ErrorCase[] = [
  { label: 'not found', args: { order_id: '#W0000000' }, message: 'Order not found' },
  { label: 'empty id', args: { order_id: '' }, message: 'Order not found' },
  { label: 'int', args: { order_id: 2443586n }, message: 'Order not found' },
  { label: 'float', args: { order_id: 1.5 }, message: 'Order not found' },
  { label: 'list', args: { order_id: [] }, message: "unhashable type: 'list'" },
  { label: 'dict', args: { order_id: pyDict([]) }, message: "unhashable type: 'dict'" },
];

const GET_PRODUCT_DETAILS_ERRORS: ErrorCase[] = [
  { label: 'not found', args: { product_id: '0000000000' }, message: 'Product not found' },
  { label: 'an item id is not a product id', args: { product_id: KBD }, message: 'Product not found' },
  { label: 'int', args: { product_id: 1656367028n }, message: 'Product not found' },
  { label: 'list', args: { product_id: ['1656367028'] }, message: "unhashable type: 'list'" },
];

const GET_ITEM_DETAILS_ERRORS: ErrorCase[] = [
  { label: 'not found', args: { item_id: '0000000000' }, message: 'Item not found' },
  { label: 'a product id is not an item id', args: { item_id: '1656367028' }, message: 'Item not found' },
  { label: 'int', args: { item_id: 9690244451n }, message: 'Item not found' },
  { label: 'dict', args: { item_id: pyDict([['item_id', KBD]]) }, message: "unhashable type: 'dict'" },
];

const GET_USER_DETAILS_ERRORS: ErrorCase[] = [
  { label: 'not found', args: { user_id: 'nobody_1234' }, message: 'User not found' },
  { label: 'other case', args: { user_id: 'Aarav_Nguyen_7344' }, message: 'User not found' },
  { label: 'null', args: { user_id: null }, message: 'User not found' },
  { label: 'list', args: { user_id: [P_USER] }, message: "unhashable type: 'list'" },
];

const MODIFY_PENDING_ORDER_ADDRESS_ERRORS: ErrorCase[] = [
  {
    label: 'order not found',
    args: {
      order_id: '#W0000000',
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: '78701',
    },
    message: 'Order not found',
  },
  {
    label: 'order id as list',
    args: {
      order_id: [PENDING],
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: '78701',
    },
    message: "unhashable type: 'list'",
  },
  {
    label: 'delivered',
    args: {
      order_id: DELIVERED,
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: '78701',
    },
    message: 'Non-pending order cannot be modified',
  },
  {
    label: 'processed',
    args: {
      order_id: PROCESSED,
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: '78701',
    },
    message: 'Non-pending order cannot be modified',
  },
  {
    label: 'cancelled',
    args: {
      order_id: CANCELLED,
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: '78701',
    },
    message: 'Non-pending order cannot be modified',
  },
  {
    label: 'status is checked before the address',
    args: {
      order_id: DELIVERED,
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: 78701n,
    },
    message: 'Non-pending order cannot be modified',
  },
  {
    label: 'zip as int (not coerced)',
    args: {
      order_id: PENDING,
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: 78701n,
    },
    message:
      '1 validation error for UserAddress\nzip\n  Input should be a valid string [type=string_type, input_value=78701, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type',
  },
  {
    label: 'address2 as null',
    args: {
      order_id: PENDING,
      address1: '1 Main St',
      address2: null,
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: '78701',
    },
    message:
      '1 validation error for UserAddress\naddress2\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type',
  },
  {
    label: 'errors in model field order (country before state)',
    args: {
      order_id: PENDING,
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: ['TX'],
      country: pyDict([['name', 'USA']]),
      zip: '78701',
    },
    message:
      "2 validation errors for UserAddress\ncountry\n  Input should be a valid string [type=string_type, input_value={'name': 'USA'}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type\nstate\n  Input should be a valid string [type=string_type, input_value=['TX'], input_type=list]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type",
  },
  {
    label: 'six invalid fields',
    args: {
      order_id: PENDING,
      address1: 1n,
      address2: null,
      city: 2.5,
      state: true,
      country: [],
      zip: pyDict([]),
    },
    message:
      '6 validation errors for UserAddress\naddress1\n  Input should be a valid string [type=string_type, input_value=1, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type\naddress2\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type\ncity\n  Input should be a valid string [type=string_type, input_value=2.5, input_type=float]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type\ncountry\n  Input should be a valid string [type=string_type, input_value=[], input_type=list]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type\nstate\n  Input should be a valid string [type=string_type, input_value=True, input_type=bool]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type\nzip\n  Input should be a valid string [type=string_type, input_value={}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type',
  },
  {
    label: 'on a pending (item modified) order too',
    args: {
      order_id: PENDING,
      address1: '1 Main St',
      address2: '',
      city: 7n,
      state: 'TX',
      country: 'USA',
      zip: '78701',
    },
    setup: SETUP_ITEMS_MODIFIED,
    message:
      '1 validation error for UserAddress\ncity\n  Input should be a valid string [type=string_type, input_value=7, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type',
  },
];

const MODIFY_PENDING_ORDER_ITEMS_ERRORS: ErrorCase[] = [
  {
    label: 'order not found',
    args: {
      order_id: '#W0000000',
      item_ids: [KBD],
      new_item_ids: ['7706410293'],
      payment_method_id: P_PAYPAL,
    },
    message: 'Order not found',
  },
  {
    label: 'order id as dict',
    args: {
      order_id: pyDict([]),
      item_ids: [KBD],
      new_item_ids: ['7706410293'],
      payment_method_id: P_PAYPAL,
    },
    message: "unhashable type: 'dict'",
  },
  {
    label: 'delivered',
    args: { order_id: DELIVERED, item_ids: [KBD], new_item_ids: ['7706410293'], payment_method_id: P_PAYPAL },
    message: 'Non-pending order cannot be modified',
  },
  {
    label: 'processed',
    args: { order_id: PROCESSED, item_ids: [KBD], new_item_ids: ['7706410293'], payment_method_id: P_PAYPAL },
    message: 'Non-pending order cannot be modified',
  },
  {
    label: 'cancelled',
    args: { order_id: CANCELLED, item_ids: [KBD], new_item_ids: ['7706410293'], payment_method_id: P_PAYPAL },
    message: 'Non-pending order cannot be modified',
  },
  {
    label: 'pending (item modified) is not pending',
    args: { order_id: PENDING, item_ids: [BOOTS], new_item_ids: ['3812493782'], payment_method_id: P_PAYPAL },
    setup: SETUP_ITEMS_MODIFIED,
    message: 'Non-pending order cannot be modified',
  },
  {
    label: 'item not in the order',
    args: { order_id: PENDING, item_ids: [D_KBD], new_item_ids: ['7706410293'], payment_method_id: P_PAYPAL },
    message: '5222576926 not found',
  },
  {
    label: 'item listed more often than ordered',
    args: {
      order_id: PENDING,
      item_ids: [KBD, KBD],
      new_item_ids: ['7706410293', '7706410293'],
      payment_method_id: P_PAYPAL,
    },
    message: '9690244451 not found',
  },
  {
    label: 'duplicate item listed three times',
    args: {
      order_id: PENDING_DUP,
      item_ids: ['3557711149', '3557711149', '3557711149'],
      new_item_ids: ['1', '1', '1'],
      payment_method_id: 'x',
    },
    message: '3557711149 not found',
  },
  {
    label: 'fewer new items',
    args: { order_id: PENDING, item_ids: [KBD], new_item_ids: [], payment_method_id: P_PAYPAL },
    message: 'The number of items to be exchanged should match',
  },
  {
    label: 'more new items',
    args: {
      order_id: PENDING,
      item_ids: [KBD],
      new_item_ids: ['7706410293', '3616838507'],
      payment_method_id: P_PAYPAL,
    },
    message: 'The number of items to be exchanged should match',
  },
  {
    label: 'same old and new id',
    args: { order_id: PENDING, item_ids: [KBD], new_item_ids: [KBD], payment_method_id: P_PAYPAL },
    message: 'The new item id should be different from the old item id',
  },
  {
    label: 'same id in the second pair',
    args: {
      order_id: PENDING,
      item_ids: [KBD, BOOTS],
      new_item_ids: ['7706410293', BOOTS],
      payment_method_id: P_PAYPAL,
    },
    message: 'The new item id should be different from the old item id',
  },
  {
    label: 'pairs are checked in order',
    args: {
      order_id: PENDING,
      item_ids: [KBD, BOOTS],
      new_item_ids: ['1340995114', BOOTS],
      payment_method_id: P_PAYPAL,
    },
    message: 'New item 1340995114 not found or available',
  },
  {
    label: 'unavailable new item',
    args: { order_id: PENDING, item_ids: [KBD], new_item_ids: ['1340995114'], payment_method_id: P_PAYPAL },
    message: 'New item 1340995114 not found or available',
  },
  {
    label: 'variant of another product',
    args: { order_id: PENDING, item_ids: [KBD], new_item_ids: ['1615379700'], payment_method_id: P_PAYPAL },
    message: 'Variant not found',
  },
  {
    label: 'unknown new item',
    args: { order_id: PENDING, item_ids: [KBD], new_item_ids: ['0000000000'], payment_method_id: P_PAYPAL },
    message: 'Variant not found',
  },
  {
    label: 'payment method not found',
    args: {
      order_id: PENDING,
      item_ids: [KBD],
      new_item_ids: ['7706410293'],
      payment_method_id: 'gift_card_0000000',
    },
    message: 'Payment method not found',
  },
  {
    label: "another user's payment method",
    args: { order_id: PENDING, item_ids: [KBD], new_item_ids: ['7706410293'], payment_method_id: D_CARD },
    message: 'Payment method not found',
  },
  {
    label: 'gift card balance too low',
    args: { order_id: PENDING, item_ids: [KBD], new_item_ids: ['1151293680'], payment_method_id: P_GIFT },
    message: 'Insufficient gift card balance to pay for the new item',
  },
  {
    label: 'item_ids as int',
    args: { order_id: PENDING, item_ids: 3n, new_item_ids: ['7706410293'], payment_method_id: P_PAYPAL },
    message: "'int' object is not iterable",
  },
  {
    label: 'item_ids as dict',
    args: {
      order_id: PENDING,
      item_ids: pyDict([['9690244451', '7706410293']]),
      new_item_ids: ['7706410293'],
      payment_method_id: P_PAYPAL,
    },
    message: "'dict' object has no attribute 'count'",
  },
  {
    label: 'item_ids as str (iterated by character)',
    args: {
      order_id: PENDING,
      item_ids: '9690244451',
      new_item_ids: ['7706410293'],
      payment_method_id: P_PAYPAL,
    },
    message: '9 not found',
  },
  {
    label: 'item id as int',
    args: {
      order_id: PENDING,
      item_ids: [9690244451n],
      new_item_ids: ['7706410293'],
      payment_method_id: P_PAYPAL,
    },
    message: '9690244451 not found',
  },
  {
    label: 'item id as float',
    args: { order_id: PENDING, item_ids: [1.0], new_item_ids: ['7706410293'], payment_method_id: P_PAYPAL },
    message: '1.0 not found',
  },
  {
    label: 'new_item_ids as null',
    args: { order_id: PENDING, item_ids: [KBD], new_item_ids: null, payment_method_id: P_PAYPAL },
    message: "object of type 'NoneType' has no len()",
  },
  {
    label: 'new item id as null',
    args: { order_id: PENDING, item_ids: [KBD], new_item_ids: [null], payment_method_id: P_PAYPAL },
    message: 'Variant not found',
  },
  {
    label: 'new item id as dict',
    args: { order_id: PENDING, item_ids: [KBD], new_item_ids: [pyDict([])], payment_method_id: P_PAYPAL },
    message: "unhashable type: 'dict'",
  },
  {
    label: 'payment method id as list',
    args: { order_id: PENDING, item_ids: [KBD], new_item_ids: ['7706410293'], payment_method_id: [] },
    message: "unhashable type: 'list'",
  },
];

const MODIFY_PENDING_ORDER_PAYMENT_ERRORS: ErrorCase[] = [
  {
    label: 'order not found',
    args: { order_id: 'W2443586', payment_method_id: P_GIFT },
    message: 'Order not found',
  },
  {
    label: 'order id as list',
    args: { order_id: [PENDING], payment_method_id: P_GIFT },
    message: "unhashable type: 'list'",
  },
  {
    label: 'delivered',
    args: { order_id: DELIVERED, payment_method_id: D_GIFT },
    message: 'Non-pending order cannot be modified',
  },
  {
    label: 'processed',
    args: { order_id: PROCESSED, payment_method_id: P_GIFT },
    message: 'Non-pending order cannot be modified',
  },
  {
    label: 'cancelled',
    args: { order_id: CANCELLED, payment_method_id: P_GIFT },
    message: 'Non-pending order cannot be modified',
  },
  {
    label: 'payment method not found',
    args: { order_id: PENDING, payment_method_id: 'paypal_0000000' },
    message: 'Payment method not found',
  },
  {
    label: "another user's payment method",
    args: { order_id: PENDING, payment_method_id: D_PAYPAL },
    message: 'Payment method not found',
  },
  {
    label: 'payment method id as int',
    args: { order_id: PENDING, payment_method_id: 7859314n },
    message: 'Payment method not found',
  },
  {
    label: 'payment method id as list',
    args: { order_id: PENDING, payment_method_id: [P_GIFT] },
    message: "unhashable type: 'list'",
  },
  {
    label: 'same payment method',
    args: { order_id: PENDING, payment_method_id: P_PAYPAL },
    message: 'The new payment method should be different from the current one',
  },
  {
    label: 'gift card balance too low',
    args: { order_id: PENDING, payment_method_id: P_GIFT },
    message: 'Insufficient gift card balance to pay for the order',
  },
  {
    label: 'pending (item modified) passes the status check, then two payments',
    args: { order_id: PENDING, payment_method_id: P_GIFT },
    setup: SETUP_ITEMS_MODIFIED,
    message: 'There should be exactly one payment for a pending order',
  },
  {
    label: 'the payment method is checked before the history',
    args: { order_id: PENDING, payment_method_id: 'nope' },
    setup: SETUP_ITEMS_MODIFIED,
    message: 'Payment method not found',
  },
  {
    label: 'a second change of a pending order',
    args: { order_id: '#W1080318', payment_method_id: 'credit_card_3577130' },
    setup: [
      ['modify_pending_order_payment', { order_id: '#W1080318', payment_method_id: 'gift_card_3749819' }],
    ],
    message: 'There should be exactly one payment for a pending order',
  },
];

const MODIFY_USER_ADDRESS_ERRORS: ErrorCase[] = [
  {
    label: 'user not found',
    args: {
      user_id: 'nobody_1234',
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: '78701',
    },
    message: 'User not found',
  },
  {
    label: 'user id as list',
    args: {
      user_id: [P_USER],
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: '78701',
    },
    message: "unhashable type: 'list'",
  },
  {
    label: 'user id as int',
    args: {
      user_id: 7344n,
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: '78701',
    },
    message: 'User not found',
  },
  {
    label: 'user is checked before the address',
    args: {
      user_id: 'nobody_1234',
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: null,
    },
    message: 'User not found',
  },
  {
    label: 'zip as int',
    args: {
      user_id: P_USER,
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: 78701n,
    },
    message:
      '1 validation error for UserAddress\nzip\n  Input should be a valid string [type=string_type, input_value=78701, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type',
  },
  {
    label: 'zip as float',
    args: {
      user_id: P_USER,
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: 78701.0,
    },
    message:
      '1 validation error for UserAddress\nzip\n  Input should be a valid string [type=string_type, input_value=78701.0, input_type=float]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type',
  },
  {
    label: 'city as list',
    args: {
      user_id: P_USER,
      address1: '1 Main St',
      address2: '',
      city: ['Austin', 1n],
      state: 'TX',
      country: 'USA',
      zip: '78701',
    },
    message:
      "1 validation error for UserAddress\ncity\n  Input should be a valid string [type=string_type, input_value=['Austin', 1], input_type=list]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type",
  },
  {
    label: 'two invalid fields',
    args: {
      user_id: P_USER,
      address1: null,
      address2: '',
      city: 'Austin',
      state: 'TX',
      country: 'USA',
      zip: false,
    },
    message:
      '2 validation errors for UserAddress\naddress1\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type\nzip\n  Input should be a valid string [type=string_type, input_value=False, input_type=bool]\n    For further information visit https://errors.pydantic.dev/2.13/v/string_type',
  },
];

const RETURN_DELIVERED_ORDER_ITEMS_ERRORS: ErrorCase[] = [
  {
    label: 'order not found',
    args: { order_id: '#W0000000', item_ids: [D_KBD], payment_method_id: D_CARD },
    message: 'Order not found',
  },
  {
    label: 'order id as int',
    args: { order_id: 4250821n, item_ids: [D_KBD], payment_method_id: D_CARD },
    message: 'Order not found',
  },
  {
    label: 'order id as list',
    args: { order_id: [], item_ids: [D_KBD], payment_method_id: D_CARD },
    message: "unhashable type: 'list'",
  },
  {
    label: 'pending',
    args: { order_id: PENDING, item_ids: [D_KBD], payment_method_id: D_CARD },
    message: 'Non-delivered order cannot be returned',
  },
  {
    label: 'processed',
    args: { order_id: PROCESSED, item_ids: [D_KBD], payment_method_id: D_CARD },
    message: 'Non-delivered order cannot be returned',
  },
  {
    label: 'cancelled',
    args: { order_id: CANCELLED, item_ids: [D_KBD], payment_method_id: D_CARD },
    message: 'Non-delivered order cannot be returned',
  },
  {
    label: 'payment method not found',
    args: { order_id: DELIVERED, item_ids: [D_KBD], payment_method_id: 'credit_card_0000000' },
    message: 'Payment method not found',
  },
  {
    label: "another user's gift card",
    args: { order_id: DELIVERED, item_ids: [D_KBD], payment_method_id: P_GIFT },
    message: 'Payment method not found',
  },
  {
    label: 'a non-original PayPal account',
    args: { order_id: DELIVERED, item_ids: [D_KBD], payment_method_id: D_PAYPAL },
    message: 'Payment method should be the original payment method',
  },
  {
    label: 'a non-original credit card',
    args: { order_id: DELIVERED, item_ids: [D_KBD], payment_method_id: D_CARD2 },
    message: 'Payment method should be the original payment method',
  },
  {
    label: 'the payment method is checked before the items',
    args: { order_id: DELIVERED, item_ids: ['1'], payment_method_id: D_PAYPAL },
    message: 'Payment method should be the original payment method',
  },
  {
    label: 'item not in the order',
    args: { order_id: DELIVERED, item_ids: [KBD], payment_method_id: D_CARD },
    message: 'Some item not found',
  },
  {
    label: 'item listed more often than ordered',
    args: { order_id: DELIVERED, item_ids: [D_KBD, D_KBD], payment_method_id: D_CARD },
    message: 'Some item not found',
  },
  {
    label: 'duplicate item listed three times',
    args: {
      order_id: DELIVERED_DUP,
      item_ids: ['7292993796', '7292993796', '7292993796'],
      payment_method_id: 'gift_card_7245904',
    },
    message: 'Some item not found',
  },
  {
    label: 'item_ids as int',
    args: { order_id: DELIVERED, item_ids: 1n, payment_method_id: D_CARD },
    message: "'int' object is not iterable",
  },
  {
    label: 'item_ids as null',
    args: { order_id: DELIVERED, item_ids: null, payment_method_id: D_CARD },
    message: "'NoneType' object is not iterable",
  },
  {
    label: 'item_ids as dict',
    args: { order_id: DELIVERED, item_ids: pyDict([['5222576926', 1n]]), payment_method_id: D_CARD },
    message: "'dict' object has no attribute 'count'",
  },
  {
    label: 'item_ids as str',
    args: { order_id: DELIVERED, item_ids: '5', payment_method_id: D_CARD },
    message: 'Some item not found',
  },
  {
    label: 'item id as int',
    args: { order_id: DELIVERED, item_ids: [5222576926n], payment_method_id: D_CARD },
    message: 'Some item not found',
  },
  {
    label: 'payment method id as dict',
    args: { order_id: DELIVERED, item_ids: [D_KBD], payment_method_id: pyDict([]) },
    message: "unhashable type: 'dict'",
  },
];

describe('dispatcher errors (Python argument binding)', () => {
  it.each(DISPATCH_ERRORS)('$label', (c) => expectToolError(c.tool ?? '', c));
});

const TOOL_ERRORS: [string, ErrorCase[]][] = [
  ['cancel_pending_order', CANCEL_PENDING_ORDER_ERRORS],
  ['exchange_delivered_order_items', EXCHANGE_DELIVERED_ORDER_ITEMS_ERRORS],
  ['find_user_id_by_name_zip', FIND_USER_ID_BY_NAME_ZIP_ERRORS],
  ['find_user_id_by_email', FIND_USER_ID_BY_EMAIL_ERRORS],
  ['get_order_details', GET_ORDER_DETAILS_ERRORS],
  ['get_product_details', GET_PRODUCT_DETAILS_ERRORS],
  ['get_item_details', GET_ITEM_DETAILS_ERRORS],
  ['get_user_details', GET_USER_DETAILS_ERRORS],
  ['modify_pending_order_address', MODIFY_PENDING_ORDER_ADDRESS_ERRORS],
  ['modify_pending_order_items', MODIFY_PENDING_ORDER_ITEMS_ERRORS],
  ['modify_pending_order_payment', MODIFY_PENDING_ORDER_PAYMENT_ERRORS],
  ['modify_user_address', MODIFY_USER_ADDRESS_ERRORS],
  ['return_delivered_order_items', RETURN_DELIVERED_ORDER_ITEMS_ERRORS],
];

describe.each(TOOL_ERRORS)('%s errors', (tool, cases) => {
  it.each(cases)('$label', (c) => expectToolError(tool, c));
});

/**
 * τ²'s `Environment.get_response` calls `self.make_tool_call(message.name, requestor=message.requestor,
 * **message.arguments)`, and `make_tool_call(self, tool_name, requestor="assistant", **kwargs)` passes the rest on to
 * `toolkit.use_tool(tool_name=..., **kwargs)`. So an argument named `requestor`, `tool_name` or `self` collides
 * with those parameters before the tool is even looked up. Messages as CPython 3.11 raises them.
 */
describe('dispatcher errors: argument names that collide with τ²’s own parameters', () => {
  const cases: ErrorCase[] = [
    {
      label: 'requestor',
      tool: 'get_user_details',
      args: { requestor: 'x', user_id: P_USER },
      message:
        "tau2.environment.environment.Environment.make_tool_call() got multiple values for keyword argument 'requestor'",
    },
    {
      label: 'requestor, unknown tool',
      tool: 'nope',
      args: { requestor: 'user' },
      message:
        "tau2.environment.environment.Environment.make_tool_call() got multiple values for keyword argument 'requestor'",
    },
    {
      label: 'tool_name',
      tool: 'get_user_details',
      args: { user_id: P_USER, tool_name: 'x' },
      message: "Environment.make_tool_call() got multiple values for argument 'tool_name'",
    },
    {
      label: 'self',
      tool: 'get_user_details',
      args: { self: 'x' },
      message: "Environment.make_tool_call() got multiple values for argument 'self'",
    },
  ];
  it.each(cases)('$label', (c) => expectToolError(c.tool ?? '', c));
});

describe('read and generic tools: successes', () => {
  it('calculate is wired', () => {
    withEpisode((episode) => expect(ok(episode, 'calculate', { expression: '2+2' })).toBe('4.0'));
  });

  it('transfer_to_human_agents takes any summary', () => {
    withEpisode((episode) => {
      expect(ok(episode, 'transfer_to_human_agents', { summary: 5n })).toBe('Transfer successful');
      expect(episode.changedEntities()).toEqual([]);
    });
  });

  it('user lookups ignore case (names and email) but not the zip', () => {
    withEpisode((episode) => {
      const args = { first_name: 'AARAV', last_name: 'nguyen', zip: '75268' };
      expect(ok(episode, 'find_user_id_by_name_zip', args)).toBe(P_USER);
      expect(ok(episode, 'find_user_id_by_email', { email: 'Aarav.Nguyen1293@EXAMPLE.com' })).toBe(P_USER);
    });
  });
});

describe('modify_pending_order_items: success quirks', () => {
  it('appends the UNROUNDED price difference as a payment', () => {
    withEpisode((episode) => {
      const args = {
        order_id: PENDING,
        item_ids: [KBD],
        new_item_ids: ['7706410293'],
        payment_method_id: P_PAYPAL,
      };
      const content = ok(episode, 'modify_pending_order_items', args);
      // 269.16 - 236.51 in binary floating point
      expect(content).toContain(
        '{"transaction_type": "payment", "amount": 32.650000000000034, "payment_method_id": "paypal_7859314"}]',
      );
      const o = JSON.parse(content) as OrderJson;
      expect(o.status).toBe('pending (item modified)');
      expect(o.payment_history).toHaveLength(2);
      expect(o.items[0]).toEqual({
        name: 'Mechanical Keyboard',
        product_id: '1656367028',
        item_id: '7706410293',
        price: 269.16,
        options: { 'switch type': 'clicky', backlight: 'none', size: 'full size' },
      });
      expect(episode.hashes().db_hash).toBe(
        'cb366136b7c7c6e7850fd9d7818685cc5fbdfe3fde1c00ec893c2ce95c79c27c',
      );
    });
  });

  it('a cheaper item refunds to a gift card at once, rounded with round(x, 2)', () => {
    withEpisode((episode) => {
      const args = {
        order_id: PENDING,
        item_ids: [KBD],
        new_item_ids: ['3616838507'],
        payment_method_id: P_GIFT,
      };
      const content = ok(episode, 'modify_pending_order_items', args);
      // 226.11 - 236.51 = -10.399999999999977: a refund of its absolute value, unrounded
      expect(content).toContain(
        '{"transaction_type": "refund", "amount": 10.399999999999977, "payment_method_id": "gift_card_2742113"}]',
      );
      // round(22.0 - (-10.399999999999977), 2)
      expect(balance(episode, P_USER, P_GIFT)).toBe(32.4);
      expect(episode.hashes().db_hash).toBe(
        '38222fe6aea0428933baa0e513760cce3ea5025f37ed35204b78d021ecc79bc8',
      );
    });
  });

  it('a zero difference appends a refund of 0.0 (gift card unchanged)', () => {
    withEpisode((episode) => {
      // 9838673490 and 7184044281 both cost 344.55
      const args = {
        order_id: '#W5762451',
        item_ids: ['9838673490'],
        new_item_ids: ['7184044281'],
        payment_method_id: 'gift_card_4544711',
      };
      const content = ok(episode, 'modify_pending_order_items', args);
      expect(content).toContain(
        '{"transaction_type": "refund", "amount": 0.0, "payment_method_id": "gift_card_4544711"}]',
      );
      expect(balance(episode, 'liam_kovacs_4286', 'gift_card_4544711')).toBe(37);
      expect(episode.hashes().db_hash).toBe(
        '1fdde766680b25882b07ea2d0e6dce601e017f4457d689234674b9e35d854631',
      );
    });
  });

  it('empty lists succeed: a 0.0 refund and the status changes, nothing else', () => {
    withEpisode((episode) => {
      const args = { order_id: PENDING, item_ids: [], new_item_ids: [], payment_method_id: P_GIFT };
      const content = ok(episode, 'modify_pending_order_items', args);
      expect(content).toContain(
        '{"transaction_type": "refund", "amount": 0.0, "payment_method_id": "gift_card_2742113"}]',
      );
      const o = JSON.parse(content) as OrderJson;
      expect(o.status).toBe('pending (item modified)');
      expect(o.items.map((i) => i.item_id)).toEqual([KBD, BOOTS, HOSE]);
      expect(balance(episode, P_USER, P_GIFT)).toBe(22);
      expect(episode.hashes().db_hash).toBe(
        'd2456c6bb593af8fbf4b65719271cde4f4e8272577a35182e86986c52b4cae52',
      );
    });
  });

  const TWO_PAIRS = { item_ids: [KBD, BOOTS], new_item_ids: ['7706410293', '3812493782'] };
  const TWO_PAIRS_REVERSED = { item_ids: [BOOTS, KBD], new_item_ids: ['3812493782', '7706410293'] };
  const BOOTS_VARIANT = { price: 244.34, options: { size: '7', material: 'leather', waterproof: 'yes' } };
  const KBD_VARIANT = {
    price: 269.16,
    options: { 'switch type': 'clicky', backlight: 'none', size: 'full size' },
  };

  it('parity: with 2 pairs every modified item gets the price and options of the LAST new variant', () => {
    withEpisode((episode) => {
      const o = order(episode, 'modify_pending_order_items', {
        order_id: PENDING,
        ...TWO_PAIRS,
        payment_method_id: P_PAYPAL,
      });
      expect(o.items.slice(0, 2)).toEqual([
        { name: 'Mechanical Keyboard', product_id: '1656367028', item_id: '7706410293', ...BOOTS_VARIANT },
        { name: 'Hiking Boots', product_id: '7363354090', item_id: '3812493782', ...BOOTS_VARIANT },
      ]);
      expect(o.payment_history[1]?.amount).toBe(18.900000000000063);
      expect(episode.hashes().db_hash).toBe(
        'b4b055d7133535491de0a636276cdc44fd8b40376c3782ac4b41434a20c79863',
      );
    });
    withEpisode((episode) => {
      const args = { order_id: PENDING, ...TWO_PAIRS_REVERSED, payment_method_id: P_PAYPAL };
      const o = order(episode, 'modify_pending_order_items', args);
      expect(o.items.slice(0, 2)).toEqual([
        { name: 'Mechanical Keyboard', product_id: '1656367028', item_id: '7706410293', ...KBD_VARIANT },
        { name: 'Hiking Boots', product_id: '7363354090', item_id: '3812493782', ...KBD_VARIANT },
      ]);
      expect(episode.hashes().db_hash).toBe(
        '72f96c0b68ad772ba99aedfb67b525609855af2993e459dde8f2d8d1f772a22f',
      );
    });
  });

  it('fixed: every modified item gets its own variant', () => {
    withEpisode((episode) => {
      const o = order(episode, 'modify_pending_order_items', {
        order_id: PENDING,
        ...TWO_PAIRS,
        payment_method_id: P_PAYPAL,
      });
      expect(o.items.slice(0, 2)).toEqual([
        { name: 'Mechanical Keyboard', product_id: '1656367028', item_id: '7706410293', ...KBD_VARIANT },
        { name: 'Hiking Boots', product_id: '7363354090', item_id: '3812493782', ...BOOTS_VARIANT },
      ]);
      expect(o.payment_history[1]?.amount).toBe(18.900000000000063);
      expect(o.status).toBe('pending (item modified)');
      // τ²'s Python code patched to give each item its own variant (pairs taken in sorted order), then get_db_hash()
      expect(episode.hashes().db_hash).toBe(
        'e5aacdb90b0a1db78e66faf7184eb3dc506f08d7ff52db38f55e09b4e32de6ec',
      );
    }, 'fixed');
  });

  it('fixed: the outcome does not depend on the order of the pairs (parity: it does)', () => {
    const pairs: [string, string][] = [
      [KBD, '7706410293'],
      [BOOTS, '3812493782'],
      [HOSE, '8481719475'],
    ];
    const permutations = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ].map((p) => p.map((i) => pairs[i] as [string, string]));
    const run = (semantics: Semantics) =>
      permutations.map((perm) =>
        withEpisode((episode) => {
          const args = {
            order_id: PENDING,
            item_ids: perm.map((p) => p[0]),
            new_item_ids: perm.map((p) => p[1]),
            payment_method_id: P_PAYPAL,
          };
          return { content: ok(episode, 'modify_pending_order_items', args), hash: episode.hashes().db_hash };
        }, semantics),
      );
    const fixed = run('fixed');
    expect(new Set(fixed.map((r) => r.content)).size).toBe(1);
    // same patched τ² code as above
    expect(new Set(fixed.map((r) => r.hash))).toEqual(
      new Set(['c9495cfb3b7977e60b5b6a74988c36f654b3369efc6ba44cea6a3e8555eceb2f']),
    );
    // parity: the last pair decides the price and options of all three items
    expect(new Set(run('parity').map((r) => r.hash)).size).toBe(3);
  });

  it('the order becomes pending (item modified): address changes still work, the status stays', () => {
    withEpisode((episode) => {
      for (const [name, args] of SETUP_ITEMS_MODIFIED) ok(episode, name, args);
      const o = order(episode, 'modify_pending_order_address', { order_id: PENDING, ...ADDRESS });
      expect(o.status).toBe('pending (item modified)');
      expect(o.address).toEqual({
        address1: '1 Main St',
        address2: '',
        city: 'Austin',
        country: 'USA',
        state: 'TX',
        zip: '78701',
      });
      expect(episode.hashes().db_hash).toBe(
        '8c8bf5676d90556a2e83ec7ab450c09a1d96e75b94d10491d9f1967dcb1ff0fc',
      );
    });
  });
});

describe('payments and cancellation: success quirks', () => {
  it('modify_pending_order_payment to a gift card debits it; cancel then refunds EVERY history entry', () => {
    withEpisode((episode) => {
      const user = 'omar_kim_3528';
      const gift = 'gift_card_3749819';
      const card = 'credit_card_3577130';
      const changed = order(episode, 'modify_pending_order_payment', {
        order_id: '#W1080318',
        payment_method_id: gift,
      });
      expect(changed.status).toBe('pending');
      expect(changed.payment_history).toEqual([
        { transaction_type: 'payment', amount: 53.43, payment_method_id: card },
        { transaction_type: 'payment', amount: 53.43, payment_method_id: gift },
        { transaction_type: 'refund', amount: 53.43, payment_method_id: card },
      ]);
      expect(balance(episode, user, gift)).toBe(37.57); // round(91.0 - 53.43, 2)
      const cancelled = order(episode, 'cancel_pending_order', {
        order_id: '#W1080318',
        reason: 'ordered by mistake',
      });
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.cancel_reason).toBe('ordered by mistake');
      // one refund per entry, refunds included, each to the entry's method
      expect(cancelled.payment_history.slice(3)).toEqual([
        { transaction_type: 'refund', amount: 53.43, payment_method_id: card },
        { transaction_type: 'refund', amount: 53.43, payment_method_id: gift },
        { transaction_type: 'refund', amount: 53.43, payment_method_id: card },
      ]);
      expect(balance(episode, user, gift)).toBe(91);
      expect(episode.hashes().db_hash).toBe(
        '7b14a11bb2807ee3d57dbe02f7c1087a2244c6271435b545ff14760992c5ee55',
      );
    });
  });

  it('modify_pending_order_payment away from a gift card credits the old card', () => {
    withEpisode((episode) => {
      const o = order(episode, 'modify_pending_order_payment', {
        order_id: '#W6779827',
        payment_method_id: 'credit_card_9789590',
      });
      expect(o.payment_history.slice(1)).toEqual([
        { transaction_type: 'payment', amount: 4079.45, payment_method_id: 'credit_card_9789590' },
        { transaction_type: 'refund', amount: 4079.45, payment_method_id: 'gift_card_7219486' },
      ]);
      expect(balance(episode, 'ethan_lopez_6291', 'gift_card_7219486')).toBe(4128.45); // round(49.0 + 4079.45, 2)
      expect(episode.hashes().db_hash).toBe(
        '15a38d4dfc0b97ad9576a563fe3c4030d8131e26bfb000d6fdb794de0eafca67',
      );
    });
  });

  it('cancel credits a gift card at once', () => {
    withEpisode((episode) => {
      const o = order(episode, 'cancel_pending_order', { order_id: '#W6779827', reason: 'no longer needed' });
      expect(o.status).toBe('cancelled');
      expect(o.payment_history.slice(1)).toEqual([
        { transaction_type: 'refund', amount: 4079.45, payment_method_id: 'gift_card_7219486' },
      ]);
      expect(balance(episode, 'ethan_lopez_6291', 'gift_card_7219486')).toBe(4128.45);
      expect(episode.hashes().db_hash).toBe(
        '4ab45656fdcb180b8c4d61a27e380925120c9a285abad4238816acae4b709145',
      );
    });
  });
});

describe('exchange and return: success quirks', () => {
  it('exchange stores the rounded difference, sorts both lists, and moves no money', () => {
    withEpisode((episode) => {
      const args = {
        order_id: DELIVERED,
        item_ids: [D_BED, D_KBD],
        new_item_ids: ['7917269097', '3616838507'],
        payment_method_id: D_GIFT,
      };
      const o = order(episode, 'exchange_delivered_order_items', args);
      expect(o.status).toBe('exchange requested');
      expect(o.exchange_items).toEqual([D_KBD, D_BED]);
      expect(o.exchange_new_items).toEqual(['3616838507', '7917269097']);
      expect(o.exchange_payment_method_id).toBe(D_GIFT);
      expect(o.exchange_price_difference).toBe(-36.12); // round(-36.119999999999976, 2); negative is fine
      expect(o.payment_history).toHaveLength(1);
      expect(o.items.map((i) => i.item_id)).toEqual([D_KBD, '9970989750', '5996159312', D_BED]);
      expect(balance(episode, D_USER, D_GIFT)).toBe(10);
      expect(episode.hashes().db_hash).toBe(
        '0974c1386c26f71bbf9f71e3d318b874f023c38aab1146ad0498871741aef06f',
      );
    });
  });

  it('exchange accepts any payment method of the user (no original-method rule)', () => {
    withEpisode((episode) => {
      const args = {
        order_id: DELIVERED,
        item_ids: [D_KBD],
        new_item_ids: ['7706410293'],
        payment_method_id: D_CARD2,
      };
      const content = ok(episode, 'exchange_delivered_order_items', args);
      expect(content).toContain(
        '"exchange_payment_method_id": "credit_card_6547060", "exchange_price_difference": 19.21,',
      );
      expect(episode.hashes().db_hash).toBe(
        '5c71d55007d7e5d369e75b2d97e51bea58a991fa8dc0d94e08707e28400020f2',
      );
    });
  });

  it('exchange with empty lists stores the INT 0 (round(0, 2) of the int start value)', () => {
    withEpisode((episode) => {
      const args = { order_id: DELIVERED, item_ids: [], new_item_ids: [], payment_method_id: D_CARD };
      const content = ok(episode, 'exchange_delivered_order_items', args);
      expect(content).toContain(
        '"exchange_items": [], "exchange_new_items": [], "exchange_payment_method_id": "credit_card_8041020", ' +
          '"exchange_price_difference": 0, ',
      );
      expect(episode.hashes().db_hash).toBe(
        '183af07fef1491a4164d487ceec5050b0b78044c20cccf8a781da1359aeebb06',
      );
    });
  });

  it('exchange of an item for itself is allowed and stores the float 0.0', () => {
    withEpisode((episode) => {
      const args = {
        order_id: DELIVERED,
        item_ids: [D_BED],
        new_item_ids: [D_BED],
        payment_method_id: D_CARD,
      };
      expect(ok(episode, 'exchange_delivered_order_items', args)).toContain(
        '"exchange_price_difference": 0.0, ',
      );
      expect(episode.hashes().db_hash).toBe(
        '611955585227e122e8bf6060b2fae53215fa4267f8f52b1bb8dd7072271ce805',
      );
    });
  });

  it('exchange can store -0.0 (a tiny negative sum rounded)', () => {
    withEpisode((episode) => {
      // (4404981319 - 5946177616) + (1719127154 - 1596993217) = -2.842170943040401e-14
      const args = {
        order_id: '#W2809253',
        item_ids: ['5946177616', '1596993217'],
        new_item_ids: ['4404981319', '1719127154'],
        payment_method_id: 'paypal_6053880',
      };
      const content = ok(episode, 'exchange_delivered_order_items', args);
      expect(content).toContain('"exchange_price_difference": -0.0, ');
      expect(content).toContain('"exchange_items": ["1596993217", "5946177616"]');
      expect(episode.hashes().db_hash).toBe(
        '2d1fc5de1d1facc4f5290d7dc2793a54793516ff938ff4c4a56b7aa5c8110230',
      );
    });
  });

  it('return to any gift card of the user sorts the ids and moves no money', () => {
    withEpisode((episode) => {
      const args = { order_id: DELIVERED, item_ids: [D_BED, D_KBD, '9970989750'], payment_method_id: D_GIFT };
      const o = order(episode, 'return_delivered_order_items', args);
      expect(o.status).toBe('return requested');
      expect(o.return_items).toEqual([D_KBD, D_BED, '9970989750']);
      expect(o.return_payment_method_id).toBe(D_GIFT);
      expect(o.payment_history).toHaveLength(1);
      expect(balance(episode, D_USER, D_GIFT)).toBe(10);
      expect(episode.hashes().db_hash).toBe(
        '2b419d94f4707dc3b7782baf33611c3a458515a4746a7ae7602904bb54f4c90d',
      );
    });
  });

  it('return of both copies of a duplicated item keeps the duplicates', () => {
    withEpisode((episode) => {
      const args = {
        order_id: DELIVERED_DUP,
        item_ids: ['7292993796', '7292993796'],
        payment_method_id: 'gift_card_7245904',
      };
      expect(order(episode, 'return_delivered_order_items', args).return_items).toEqual([
        '7292993796',
        '7292993796',
      ]);
      expect(episode.hashes().db_hash).toBe(
        'db6a527a5fc550894373f96b983b4e69d8ca7437c57c44df9973bf34681cf915',
      );
    });
  });
});

describe('modify_user_address: success', () => {
  it('replaces the default address', () => {
    withEpisode((episode) => {
      const user = JSON.parse(ok(episode, 'modify_user_address', { user_id: P_USER, ...ADDRESS })) as {
        address: Record<string, string>;
      };
      expect(Object.entries(user.address)).toEqual([
        ['address1', '1 Main St'],
        ['address2', ''],
        ['city', 'Austin'],
        ['country', 'USA'],
        ['state', 'TX'],
        ['zip', '78701'],
      ]);
      expect(episode.hashes().db_hash).toBe(
        'b923e78b16c5dd25bb4dc695866a38c9fa1f43f957c97cec6b7235034e8f104d',
      );
    });
  });
});
