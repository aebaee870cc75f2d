import { z } from 'zod';
import { model, pyDictOf, pyFloat } from '../../core/schema-helpers.js';
import { CABINS, FLIGHT_TYPES, INSURANCE, MEMBERSHIPS } from './vocabulary.js';

/**
 * τ² airline data model (`src/tau2/domains/airline/data_model.py`; `tau2-spec.md` §4.1) as zod schemas over
 * Python values, used to validate a `db.json` before import. Python `int` fields accept ints and integral floats
 * (pydantic's lax mode turns `2.0` into `2`); `float` fields accept both and store a float.
 */

export { CABINS, type Cabin, FLIGHT_TYPES, INSURANCE, MEMBERSHIPS } from './vocabulary.js';

/** A Python `int` field: ints, and floats without a fractional part (as pydantic's lax mode). */
export const pyInt = z.union([
  z.bigint(),
  z
    .number()
    .int()
    .transform((v) => BigInt(v)),
]);

export const cabinCounts = pyDictOf(pyInt).refine(
  (m) => [...m.keys()].every((k) => (CABINS as readonly string[]).includes(k)),
  {
    message: `keys must be ${CABINS.join(', ')}`,
  },
);

/** The per-date status of a flight (a union keyed by `status`), with the two time fields each kind has. */
const dateStatusSchema = model(
  z.discriminatedUnion('status', [
    z.object({ status: z.literal('available'), available_seats: cabinCounts, prices: cabinCounts }),
    z.object({
      status: z.literal('landed'),
      actual_departure_time_est: z.string(),
      actual_arrival_time_est: z.string(),
    }),
    z.object({ status: z.literal('cancelled') }),
    z.object({
      status: z.literal('delayed'),
      estimated_departure_time_est: z.string(),
      estimated_arrival_time_est: z.string(),
    }),
    z.object({
      status: z.literal('flying'),
      actual_departure_time_est: z.string(),
      estimated_arrival_time_est: z.string(),
    }),
    z.object({
      status: z.literal('on time'),
      estimated_departure_time_est: z.string(),
      estimated_arrival_time_est: z.string(),
    }),
  ]),
);
export type DateStatus = z.output<typeof dateStatusSchema>;

export const flightSchema = model(
  z.object({
    flight_number: z.string(),
    origin: z.string(),
    destination: z.string(),
    scheduled_departure_time_est: z.string(),
    scheduled_arrival_time_est: z.string(),
    dates: pyDictOf(dateStatusSchema),
  }),
);

export const passengerSchema = model(
  z.object({ first_name: z.string(), last_name: z.string(), dob: z.string() }),
);

const paymentMethodSchema = model(
  z.discriminatedUnion('source', [
    z.object({ source: z.literal('credit_card'), id: z.string(), brand: z.string(), last_four: z.string() }),
    z.object({ source: z.literal('gift_card'), id: z.string(), amount: pyFloat }),
    z.object({ source: z.literal('certificate'), id: z.string(), amount: pyFloat }),
  ]),
);

export const userSchema = model(
  z.object({
    user_id: z.string(),
    name: model(z.object({ first_name: z.string(), last_name: z.string() })),
    address: model(
      z.object({
        address1: z.string(),
        address2: z.string().nullable().optional(),
        city: z.string(),
        country: z.string(),
        state: z.string(),
        zip: z.string(),
      }),
    ),
    email: z.string(),
    dob: z.string(),
    payment_methods: pyDictOf(paymentMethodSchema),
    saved_passengers: z.array(passengerSchema),
    membership: z.enum(MEMBERSHIPS),
    reservations: z.array(z.string()),
  }),
);

export const reservationSchema = model(
  z.object({
    reservation_id: z.string(),
    user_id: z.string(),
    origin: z.string(),
    destination: z.string(),
    flight_type: z.enum(FLIGHT_TYPES),
    cabin: z.enum(CABINS),
    flights: z.array(
      model(
        z.object({
          flight_number: z.string(),
          origin: z.string(),
          destination: z.string(),
          date: z.string(),
          price: pyInt,
        }),
      ),
    ),
    passengers: z.array(passengerSchema),
    payment_history: z.array(model(z.object({ payment_id: z.string(), amount: pyInt }))),
    created_at: z.string(),
    total_baggages: pyInt,
    nonfree_baggages: pyInt,
    insurance: z.enum(INSURANCE),
    status: z.literal('cancelled').nullable().optional(),
  }),
);

/** The whole airline DB (`FlightDB`, `extra="forbid"` at the top level). */
export const airlineDbSchema = model(
  z.strictObject({
    flights: pyDictOf(flightSchema),
    users: pyDictOf(userSchema),
    reservations: pyDictOf(reservationSchema),
  }),
);
export type AirlineDb = z.output<typeof airlineDbSchema>;
