import type { PyDict, PyValue } from '../../../core/py-value.js';
import { pyDict } from '../../../core/py-value.js';
import type { SandboxAddress } from '../../shared/sandbox/addresses.js';
import type { SandboxProduct } from './products.js';

// Python dict builders, keys in τ²'s model field order (which is db.json's key order).

/** What {@link userValue} needs of a user. */
export interface UserRecord {
  readonly userId: string;
  readonly first: string;
  readonly last: string;
  readonly address: SandboxAddress;
  readonly email: string;
  readonly paymentMethods: PyDict;
  readonly orders: readonly string[];
}

/** One `payment_history` entry. */
export function transaction(type: 'payment' | 'refund', amount: number, methodId: string): PyDict {
  return pyDict([
    ['transaction_type', type],
    ['amount', amount],
    ['payment_method_id', methodId],
  ]);
}

export function addressValue(a: SandboxAddress): PyDict {
  return pyDict([
    ['address1', a.address1],
    ['address2', a.address2],
    ['city', a.city],
    ['country', a.country],
    ['state', a.state],
    ['zip', a.zip],
  ]);
}

export function productValue(p: SandboxProduct): PyDict {
  const variants = new Map<string, PyValue>();
  for (const v of p.variants) {
    variants.set(
      v.itemId,
      pyDict([
        ['item_id', v.itemId],
        ['options', new Map(v.options)],
        ['available', v.available],
        ['price', v.price],
      ]),
    );
  }
  return pyDict([
    ['name', p.name],
    ['product_id', p.productId],
    ['variants', variants],
  ]);
}

export function userValue(u: UserRecord): PyDict {
  return pyDict([
    ['user_id', u.userId],
    [
      'name',
      pyDict([
        ['first_name', u.first],
        ['last_name', u.last],
      ]),
    ],
    ['address', addressValue(u.address)],
    ['email', u.email],
    ['payment_methods', u.paymentMethods],
    ['orders', [...u.orders]],
  ]);
}
