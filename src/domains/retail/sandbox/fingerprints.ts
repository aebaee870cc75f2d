import { pyFloatRepr } from '../../../core/py-float.js';
import type { PyValue } from '../../../core/py-value.js';
import { parseWith } from '../../../core/schema-helpers.js';
import {
  fingerprintOf,
  fullNameKey,
  fingerprintModuleText as moduleText,
  sortedFingerprints,
} from '../../shared/sandbox/fingerprint.js';
import { retailDbSchema } from '../data-model.js';

export { fullNameKey };

/** The kinds of τ²'s identifying retail values that are fingerprinted (see `shared/sandbox/fingerprint.ts`). */
export type FingerprintKind =
  | 'user'
  | 'email'
  | 'name'
  | 'address1'
  | 'order'
  | 'item'
  | 'product'
  | 'price'
  | 'payment'
  | 'tracking';

/** The fingerprint of one value; names are lower-case `"first last"`, prices Python's `repr`. */
export function fingerprint(kind: FingerprintKind, value: string): string {
  return fingerprintOf(kind, value);
}

/**
 * Every identifying value of a τ² retail DB value as `[kind, value]` pairs (duplicates included): user ids,
 * emails, names, address1 lines (users and orders), order ids, item and product ids (catalog and order items),
 * prices (variants and order items), payment method ids and tracking ids.
 */
export function tau2IdentifyingValues(value: PyValue, file: string): [FingerprintKind, string][] {
  const db = parseWith(retailDbSchema, value, file);
  const out: [FingerprintKind, string][] = [];
  for (const [productId, product] of db.products) {
    out.push(['product', productId]);
    for (const [itemId, variant] of product.variants) {
      out.push(['item', itemId], ['price', pyFloatRepr(variant.price)]);
    }
  }
  for (const [userId, user] of db.users) {
    out.push(
      ['user', userId],
      ['email', user.email],
      ['name', fullNameKey(user.name.first_name, user.name.last_name)],
      ['address1', user.address.address1],
    );
    for (const id of user.payment_methods.keys()) out.push(['payment', id]);
  }
  for (const [orderId, order] of db.orders) {
    out.push(['order', orderId], ['address1', order.address.address1]);
    for (const item of order.items) {
      out.push(['item', item.item_id], ['product', item.product_id], ['price', pyFloatRepr(item.price)]);
    }
    for (const f of order.fulfillments) for (const t of f.tracking_id) out.push(['tracking', t]);
    for (const p of order.payment_history) out.push(['payment', p.payment_method_id]);
  }
  return out;
}

/** The sorted, distinct fingerprints of a τ² retail DB value. */
export function tau2Fingerprints(value: PyValue, file: string): string[] {
  return sortedFingerprints(tau2IdentifyingValues(value, file));
}

/** The text of `tau2-fingerprints.ts` for these fingerprints (biome-formatted, as committed). */
export function fingerprintModuleText(fingerprints: readonly string[]): string {
  return moduleText(
    'retail',
    [
      "Fingerprints of every identifying value in τ²'s retail db.json (see `fingerprints.ts`): the sandbox",
      'generator resamples any candidate whose fingerprint is listed, so no generated id, email, name, address,',
      "or price equals τ²'s. Space-separated, sorted.",
    ],
    fingerprints,
  );
}
