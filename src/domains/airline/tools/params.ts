import type { ToolParam } from '../../../env/tool.js';

/** Parameters shared by several airline tools (schemas as τ²'s, descriptions in cove's words). */

const STRING = { type: 'string' } as const;

export function stringParam(name: string, description: string): ToolParam {
  return { name, schema: STRING, description };
}

export function intParam(name: string, description: string): ToolParam {
  return { name, schema: { type: 'integer' }, description };
}

export function enumParam(name: string, values: readonly string[], description: string): ToolParam {
  return { name, schema: { type: 'string', enum: [...values] }, description };
}

export function objectListParam(
  name: string,
  properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  description: string,
): ToolParam {
  return {
    name,
    schema: { type: 'array', items: { type: 'object', properties, required: Object.keys(properties) } },
    description,
  };
}

export const userIdParam = stringParam('user_id', "The customer's user id, for example 'sara_doe_496'.");
export const reservationIdParam = stringParam(
  'reservation_id',
  "A six-character reservation id, for example 'ZFA04Y'.",
);
export const paymentIdParam = stringParam(
  'payment_id',
  "Id of a payment method saved in the customer's profile, for example 'credit_card_7815826' or 'gift_card_7815826'.",
);
export const originParam = stringParam(
  'origin',
  "Three-letter IATA code of the departure airport, for example 'JFK'.",
);
export const destinationParam = stringParam(
  'destination',
  "Three-letter IATA code of the arrival airport, for example 'LAX'.",
);
export const dateParam = stringParam('date', "A date as 'YYYY-MM-DD', for example '2024-05-20'.");
export const flightsParam = objectListParam(
  'flights',
  { flight_number: STRING, date: STRING },
  "Every flight segment of the trip, each as {flight_number, date}, for example {'flight_number': 'HAT001', 'date': '2024-05-20'}.",
);
export const passengersParam = objectListParam(
  'passengers',
  { first_name: STRING, last_name: STRING, dob: STRING },
  "Every passenger, each as {first_name, last_name, dob} with the date of birth as 'YYYY-MM-DD'.",
);
