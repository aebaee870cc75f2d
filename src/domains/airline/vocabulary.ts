/**
 * The airline domain's fixed values (τ²'s `domains/airline/data_model.py` literals), apart from the zod data model
 * so that the tools can use them without loading zod (a replay from the cache of bases never validates a db.json).
 */

export const CABINS = ['business', 'economy', 'basic_economy'] as const;
export type Cabin = (typeof CABINS)[number];
export const FLIGHT_TYPES = ['round_trip', 'one_way'] as const;
export const INSURANCE = ['yes', 'no'] as const;
export const MEMBERSHIPS = ['gold', 'silver', 'regular'] as const;
