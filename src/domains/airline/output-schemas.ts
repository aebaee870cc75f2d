import type { JsonSchema } from '../../core/json-schema-check.js';
import { zodToJsonSchema } from '../../core/zod-json-schema.js';
import { cabinCounts, flightSchema, reservationSchema, userSchema } from './data-model.js';

const TEXT: JsonSchema = { type: 'string' };

/**
 * A flight a search lists (τ²'s `DirectFlight`): the flight's fields from the data model without its per-date
 * table, plus its status (`available`), the date (null in a direct search) and the cabin seats and prices of
 * that date.
 */
function directFlight(): JsonSchema {
  const flight = zodToJsonSchema(flightSchema) as { properties: Record<string, JsonSchema> };
  const { dates: _dates, ...fields } = flight.properties;
  const counts = zodToJsonSchema(cabinCounts);
  const properties = {
    ...fields,
    status: { const: 'available' },
    date: { type: ['string', 'null'] },
    available_seats: counts,
    prices: counts,
  };
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/**
 * The output schema of every airline tool, from τ²'s data model (`data-model.ts`): a reservation or user dump,
 * flights found (one-stop results are pairs of flights), the airports, or plain text (a flight status, the
 * certificate notice, a calculation, the transfer notice). What a model playing the tools must answer
 * (`--tool-outputs model`).
 */
export function airlineOutputSchemas(): Readonly<Record<string, JsonSchema>> {
  const reservation = zodToJsonSchema(reservationSchema);
  const flight = directFlight();
  return {
    book_reservation: reservation,
    calculate: TEXT,
    cancel_reservation: reservation,
    get_reservation_details: reservation,
    get_user_details: zodToJsonSchema(userSchema),
    list_all_airports: {
      type: 'array',
      items: {
        type: 'object',
        properties: { iata: TEXT, city: TEXT },
        required: ['iata', 'city'],
        additionalProperties: false,
      },
    },
    search_direct_flight: { type: 'array', items: flight },
    search_onestop_flight: {
      type: 'array',
      items: { type: 'array', items: flight, minItems: 2, maxItems: 2 },
    },
    send_certificate: TEXT,
    transfer_to_human_agents: TEXT,
    update_reservation_baggages: reservation,
    update_reservation_flights: reservation,
    update_reservation_passengers: reservation,
    get_flight_status: TEXT,
  };
}
