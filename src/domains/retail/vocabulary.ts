/**
 * The retail domain's fixed values (τ²'s `domains/retail/data_model.py` literals), apart from the zod data model so
 * that the tools can use them without loading zod (a replay from the cache of bases never validates a db.json).
 */

export const ORDER_STATUSES = [
  'processed',
  'pending',
  'pending (item modified)',
  'delivered',
  'cancelled',
  'exchange requested',
  'return requested',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CANCEL_REASONS = ['no longer needed', 'ordered by mistake'] as const;

export const ADDRESS_FIELDS = ['address1', 'address2', 'city', 'country', 'state', 'zip'] as const;
