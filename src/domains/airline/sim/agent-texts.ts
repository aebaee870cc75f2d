import type { Rng } from '../../../core/rng.js';
import { say } from '../../../sim/scripted/grammar.js';
import type { PassengerView, PaymentMethodView, ReservationView } from '../synthesis/views.js';
import { AIRPORTS } from '../tools/read-tools.js';

export {
  anythingElse,
  ask,
  dollars,
  howCanIHelp,
  TRANSFER_TEXT,
} from '../../../sim/scripted/agent-phrases.js';

/**
 * What the airline oracle agent says (docs/airline.md, "Scripted roles"): paraphrase-grammar templates in cove's
 * own words. Questions name the detail they ask for (user id, reservation, reason, payment method, cabin, bags,
 * flight, passenger, insurance) so the scripted customer can answer just that; a reservation is named by its
 * route and date, and its id only when the customer used it (`said`: everything the customer wrote, lower-cased).
 */

const CITY = new Map(AIRPORTS.map(([iata, city]) => [iata, city]));

export function cityOf(iata: string): string {
  return CITY.get(iata) ?? iata;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "2024-05-18" → "May 18". */
export function dateText(date: string): string {
  const month = MONTHS[Number(date.slice(5, 7)) - 1] ?? date.slice(5, 7);
  return `${month} ${Number(date.slice(8, 10))}`;
}

export const CABIN_TEXT: Readonly<Record<string, string>> = {
  basic_economy: 'basic economy',
  economy: 'economy',
  business: 'business',
};

/** A reservation as the agent names it: trip type, route and first date; the id only when the customer used it. */
export function reservationName(said: string, r: ReservationView): string {
  const trip = r.flight_type === 'round_trip' ? 'round trip' : 'one-way trip';
  const id = said.includes(r.reservation_id.toLowerCase()) ? ` (${r.reservation_id})` : '';
  return `your ${trip} from ${cityOf(r.origin)} to ${cityOf(r.destination)} on ${dateText(r.flights[0]?.date ?? '')}${id}`;
}

/** A flight as the agent lists it: number, route and date. */
export function flightLine(f: {
  flight_number: string;
  origin: string;
  destination: string;
  date: string;
}): string {
  return `${f.flight_number} from ${cityOf(f.origin)} to ${cityOf(f.destination)} on ${dateText(f.date)}`;
}

export function passengerLine(p: PassengerView): string {
  return `${p.first_name} ${p.last_name} (born ${p.dob})`;
}

export function methodText(said: string, m: PaymentMethodView): string {
  const id = said.includes(m.id.toLowerCase()) ? ` (${m.id})` : '';
  if (m.source === 'credit_card') {
    const brand = m.brand === undefined ? '' : `${m.brand[0]?.toUpperCase()}${m.brand.slice(1)} `;
    return `your ${brand}credit card ending in ${m.last_four ?? '????'}${id}`;
  }
  return m.source === 'gift_card' ? `your gift card${id}` : `your travel certificate${id}`;
}

export function askUserId(rng: Rng, first: boolean): string {
  return say(rng, [
    `${first ? '[I can help with that. |Happy to help. |Sure. |]' : ''}[First|Before we start], could you give me your user id?`,
    `${first ? '[Of course. |Certainly. |]' : ''}To look up your profile I need your user id. [What is it?|Could you share it?]`,
    `${first ? '[Sure, I can look into that. |]' : ''}May I have your user id, please?`,
  ]);
}

export function userNotFound(rng: Rng, id: string): string {
  return say(rng, [
    `I'm sorry, I [could not|couldn't] find a profile with the user id ${id}. Could you [check|double-check] your user id?`,
    `[Hmm, |]there is no profile with the user id ${id}. Could you [verify|check] the user id for me?`,
  ]);
}

export function identityFailed(): string {
  return 'I am sorry, but I cannot help without your user id.';
}

export function askReservation(rng: Rng): string {
  return say(rng, [
    'Which reservation is this about? [The reservation number works, or the route and date of the trip.|You can give me the route and date of the trip.|]',
    '[Sure. |Okay. |]Which reservation do you mean?',
    '[Could you|Can you] tell me which reservation [it is|this concerns]?',
  ]);
}

export function askWhichReservation(rng: Rng, names: readonly string[]): string {
  return say(rng, [
    `I [see|found] ${names.length} reservations that match: ${names.join('; ')}. Which reservation do you mean?`,
  ]);
}

export function askReason(rng: Rng): string {
  return say(rng, [
    'May I ask the reason for the cancellation? [For example a change of plans, a flight cancelled by the airline, or something else.|]',
    'What is the reason for cancelling: a change of plans, a flight cancelled by the airline, or another reason?',
  ]);
}

export function askPayment(rng: Rng, purpose: 'difference' | 'bags' | 'booking'): string {
  if (purpose === 'booking')
    return say(rng, [
      'How would you like to pay? [You can use the payment methods in your profile.|Which payment methods from your profile should I use?|]',
      'Which payment method[s|] should I use for the booking?',
    ]);
  return say(rng, [
    `Which payment method should I use for the ${purpose === 'bags' ? 'extra bags' : 'price difference'}? [It can be a credit card or a gift card from your profile.|]`,
    `[And |]which payment method [would you like to use|should I charge]${purpose === 'bags' ? ' for the bags' : ''}?`,
  ]);
}

export function askCabin(rng: Rng): string {
  return say(rng, [
    'Which cabin would you like: basic economy, economy or business?',
    '[And |]which cabin class [do you want|should it be]?',
  ]);
}

export function askBags(rng: Rng, booking: boolean): string {
  return booking
    ? say(rng, [
        'How many checked bags will you [bring|travel with] in total?',
        '[And |]how many bags would you like to check in?',
      ])
    : say(rng, [
        'How many checked bags would you like to add?',
        '[Sure. |]How many more bags [do you need|should I add]?',
      ]);
}

export function askInsurance(rng: Rng): string {
  return say(rng, [
    'Would you like travel insurance? It costs $30 per passenger and gives a full refund if you cancel for health or weather reasons.',
    'Do you want to add travel insurance for $30 per passenger? It covers cancellations for health or weather reasons.',
  ]);
}

export function askTrip(rng: Rng): string {
  return say(rng, [
    'Where would you like to fly from and to, and is it a one-way or a round trip?',
    '[Sure. |]What are the origin and destination of the trip, and one way or round trip?',
  ]);
}

export function askItinerary(rng: Rng, leg: 'outbound' | 'return'): string {
  return leg === 'outbound'
    ? say(rng, [
        'Which flight would you like[ to take|]? [The date and a time of day are enough.|]',
        'On which date and which flight would you like to [go|travel]?',
      ])
    : say(rng, [
        'And which flight would you like for the return?',
        'Which return flight [should I look for|would you like]?',
      ]);
}

export function askPassengers(rng: Rng, booking: boolean): string {
  return booking
    ? say(rng, [
        'Who will be travelling? I need each passenger’s name[ and date of birth|].',
        'Which passengers should I put on the booking?',
      ])
    : say(rng, [
        'Which passenger would you like to change, and to what?',
        '[Sure. |]Which passenger details should change?',
      ]);
}

export function askSegment(rng: Rng): string {
  return say(rng, ['Which flight do you mean?', '[Okay. |]Which flight is it?']);
}

export function askLegChange(rng: Rng): string {
  return say(rng, [
    'Which flight would you like instead? [The date and a time of day are enough.|]',
    '[Sure. |]What new flight would you like?',
  ]);
}
