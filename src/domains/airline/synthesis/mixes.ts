import type { TaskMix } from '../../../tasks/synthesis.js';

/**
 * Airline's preset task mixes (`--mix`). `tau2` is close to τ²-bench's 50 Airline tasks: mostly one or two
 * constraints; among the writes, flight changes, cancellations and bookings most often, then bags, cabin and
 * passenger changes; many refusals (cancellations the policy does not allow above all) and some compensation.
 * The weights are cove's reading of those tasks, not counts copied from them.
 */
export const AIRLINE_MIXES: Readonly<Record<string, TaskMix>> = {
  tau2: {
    description:
      'close to τ²-bench Airline: mostly 1–2 constraints, changes, cancellations, bookings and refusals',
    kWeights: [55, 30, 10, 5],
    kindWeights: {
      book_reservation: 8,
      change_flights: 8,
      change_cabin: 4,
      add_bags: 4,
      change_passengers: 3,
      cancel_reservation: 7,
      compensation_certificate: 4,
      refuse_basic_economy_change: 3,
      refuse_cancel: 6,
      refuse_remove_bags: 1,
      refuse_add_insurance: 1,
      refuse_passenger_count: 1,
      refuse_compensation: 3,
      transfer_flown_cancel: 2,
      flight_status: 1,
      price_difference: 2,
      refund_amount: 1,
    },
  },
};
