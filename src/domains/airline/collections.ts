import type { StateCollection } from '../../env/environment.js';
import { flightDump, reservationDump, userDump } from './dump.js';

/** Airline state collections in τ²'s `FlightDB` field order. */
export const AIRLINE_COLLECTIONS: readonly StateCollection[] = [
  {
    name: 'flights',
    table: 'flights',
    key: 'flight_number',
    children: [{ table: 'flight_dates', key: 'flight_number' }],
    dump: (sql, key, style) => flightDump(sql, key, style),
  },
  {
    name: 'users',
    table: 'users',
    key: 'user_id',
    children: [
      { table: 'payment_methods', key: 'user_id' },
      { table: 'saved_passengers', key: 'user_id' },
      { table: 'user_reservations', key: 'user_id' },
    ],
    dump: (sql, key, style) => userDump(sql, key, style),
  },
  {
    name: 'reservations',
    table: 'reservations',
    key: 'reservation_id',
    children: [
      { table: 'reservation_flights', key: 'reservation_id' },
      { table: 'reservation_passengers', key: 'reservation_id' },
      { table: 'reservation_payments', key: 'reservation_id' },
    ],
    dump: (sql, key, style) => reservationDump(sql, key, style),
  },
];
