import type { Rng } from '../../../core/rng.js';
import { say } from '../../../sim/scripted/grammar.js';
import type { AirlineRefusal, AirlineRequest } from '../synthesis/requests.js';
import { COMPENSATION_PER_PASSENGER, FREE_BAGS, refundAmount } from '../synthesis/rules.js';
import type { PassengerView, ReservationView, UserView } from '../synthesis/views.js';
import {
  ask,
  CABIN_TEXT,
  cityOf,
  dateText,
  dollars,
  flightLine,
  methodText,
  passengerLine,
  reservationName,
} from './agent-texts.js';
import type { WriteCall } from './oracle-calls.js';

/**
 * The airline oracle agent's proposals, reports, refusals and answers (docs/airline.md, "Scripted roles"): a
 * proposal lists every detail of the write (flights, cabin, passengers, bags, insurance, amounts and payment
 * methods) and ends with a question about going ahead; a refusal gives the policy's reason.
 */

/** "a", "a and b", "a, b and c". */
function names(list: readonly string[]): string {
  return list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

type Flights = readonly { flight_number: string; date: string }[];

function flightList(flights: Flights, res: ReservationView | undefined): string {
  return flights
    .map((f) => {
      const known = res?.flights.find((o) => o.flight_number === f.flight_number && o.date === f.date);
      return known === undefined ? `${f.flight_number} on ${dateText(f.date)}` : flightLine(known);
    })
    .join(', ');
}

function charge(rng: Rng, amount: number, method: string): string {
  if (amount === 0)
    return say(rng, [
      `There is no price difference; ${method} stays on record for it.`,
      `The price stays the same, so nothing is charged to ${method}.`,
    ]);
  return amount > 0
    ? say(rng, [
        `The difference of ${dollars(amount)} will be charged to ${method}.`,
        `You will pay ${dollars(amount)} with ${method}.`,
      ])
    : say(rng, [
        `The difference of ${dollars(amount)} will be refunded to ${method}.`,
        `You will get ${dollars(amount)} back on ${method}.`,
      ]);
}

/** The proposal of a write (`said`: the customer's texts, lower-cased). */
export function confirmationText(
  rng: Rng,
  call: WriteCall,
  request: AirlineRequest,
  res: ReservationView | undefined,
  user: UserView,
  said: string,
): string {
  const a = call.arguments;
  const method = (id: unknown) => {
    const m = user.payment_methods[id as string];
    return m === undefined ? 'the payment method' : methodText(said, m);
  };
  const it = res === undefined ? '' : reservationName(said, res);
  switch (call.name) {
    case 'book_reservation': {
      const pax = a.passengers as PassengerView[];
      const pays = (a.payment_methods as { payment_id: string; amount: number }[])
        .map((p) => `${dollars(p.amount)} on ${method(p.payment_id)}`)
        .join(' and ');
      const trip = a.flight_type === 'round_trip' ? 'a round trip' : 'a one-way trip';
      const bags = `${a.total_baggages === 0 ? 'no checked bags' : bagCount(a.total_baggages as number)}${
        (a.nonfree_baggages as number) > 0
          ? ` (${String(a.nonfree_baggages)} beyond the free allowance, $50 each)`
          : ''
      }`;
      const insurance =
        a.insurance === 'yes' ? 'travel insurance ($30 per passenger)' : 'no travel insurance';
      return say(rng, [
        `Here is the booking: ${trip} from ${cityOf(String(a.origin))} to ${cityOf(String(a.destination))} in ${CABIN_TEXT[String(a.cabin)]}, flight${(a.flights as Flights).length === 1 ? '' : 's'} ${flightList(a.flights as Flights, undefined)}, for ${names(pax.map(passengerLine))}; ${bags}; ${insurance}. The total is ${dollars(call.amount ?? 0)}, paid as ${pays}. ${ask(rng)}`,
        `[To confirm|Let me sum up]: I will book ${trip} in ${CABIN_TEXT[String(a.cabin)]} (${flightList(a.flights as Flights, undefined)}) for ${names(pax.map(passengerLine))}, with ${bags} and ${insurance}. That comes to ${dollars(call.amount ?? 0)}: ${pays}. ${ask(rng)}`,
      ]);
    }
    case 'update_reservation_flights': {
      const cabinChange = request.kind === 'change_cabin';
      const lead = cabinChange
        ? `I will change the cabin of ${it} from ${CABIN_TEXT[res?.cabin ?? '']} to ${CABIN_TEXT[String(a.cabin)]}, keeping the same flights.`
        : `I will change the flights of ${it} to ${flightList(a.flights as Flights, res)}.`;
      return `${lead} ${charge(rng, call.amount ?? 0, method(a.payment_id))} ${ask(rng)}`;
    }
    case 'update_reservation_baggages': {
      const added = (a.total_baggages as number) - (res?.total_baggages ?? 0);
      const cost =
        (call.amount ?? 0) > 0
          ? `${dollars(call.amount ?? 0)} for the bags beyond your free allowance will be charged to ${method(a.payment_id)}.`
          : `${added === 1 ? 'It is' : 'They are'} within your free allowance, so there is nothing to pay; ${method(a.payment_id)} stays on record.`;
      return `I will add ${added} checked bag${added === 1 ? '' : 's'} to ${it}, for ${String(a.total_baggages)} in total. ${cost} ${ask(rng)}`;
    }
    case 'update_reservation_passengers': {
      const now = (a.passengers as PassengerView[]).map(passengerLine).join(', ');
      return say(rng, [
        `I will update the passengers of ${it} to: ${now}. ${ask(rng)}`,
        `[So|To confirm], the passenger list of ${it} becomes ${now}. ${ask(rng)}`,
      ]);
    }
    case 'cancel_reservation': {
      const refund = res === undefined ? 0 : refundAmount(res);
      return say(rng, [
        `I can cancel ${it}. The ${dollars(refund)} you paid goes back to the original payment methods within 5 to 7 business days. ${ask(rng)}`,
        `[To confirm|Here is what I will do]: cancel ${it} and refund ${dollars(refund)} to the original payment methods (5 to 7 business days). ${ask(rng)}`,
      ]);
    }
    case 'send_certificate': {
      const issue = request.kind === 'compensation_certificate' ? request.issue : 'cancelled';
      const per = COMPENSATION_PER_PASSENGER[issue];
      const pax = res?.passengers.length ?? 1;
      return `I am sorry about the ${issue} flight. I can send you a travel certificate of ${pax === 1 ? `${dollars(per)} for the passenger` : `${dollars(per * pax)} (${dollars(per)} for each of the ${pax} passengers)`} on ${it}. ${ask(rng)}`;
    }
    default:
      return `I will run ${call.name}. ${ask(rng)}`;
  }
}

/** The report after a successful write. */
export function reportText(
  rng: Rng,
  call: WriteCall,
  res: ReservationView | undefined,
  said: string,
): string {
  const done = say(rng, ['Done:', 'All set:', 'That is done:', 'All done:']);
  const it = res === undefined ? 'the reservation' : reservationName(said, res);
  switch (call.name) {
    case 'book_reservation':
      return `${done} your reservation is booked${res === undefined ? '' : `; its number is ${res.reservation_id}`}.`;
    case 'update_reservation_flights':
      return `${done} ${it} has been updated.`;
    case 'update_reservation_baggages':
      return `${done} ${it} now has ${res?.total_baggages ?? ''} checked bag${res?.total_baggages === 1 ? '' : 's'}.`;
    case 'update_reservation_passengers':
      return `${done} the passengers of ${it} have been updated.`;
    case 'cancel_reservation':
      return `${done} ${it} is now cancelled; the refund is on its way.`;
    case 'send_certificate':
      return `${done} the certificate has been added to your profile.`;
    default:
      return `${done} the change has been made.`;
  }
}

const COVERED =
  'cancellations are possible when the booking was made in the last 24 hours, the airline cancelled a flight, the cabin is business, or the trip is insured and the reason is covered (health or weather)';

/** Why each refused action stays refused, as a clause (restated after push-back). */
const REASONS: Readonly<Record<AirlineRefusal['action'], string>> = {
  change_basic_economy_flights: 'the flights of a basic economy reservation cannot be changed',
  cancel_ineligible: COVERED,
  remove_bags: 'checked bags can be added to a reservation but not removed',
  add_insurance: 'travel insurance can only be bought when booking',
  change_passenger_count: 'the number of passengers on a reservation cannot change',
  compensation_ineligible:
    'compensation is only for silver or gold members, insured trips or business passengers',
};

/** `n` checked bags, the noun agreeing with the count ("1 checked bag", "2 checked bags"). */
function bagCount(n: number): string {
  return `${String(n)} checked bag${n === 1 ? '' : 's'}`;
}

/** A refusal with the policy's reason. */
export function refusalText(
  rng: Rng,
  r: AirlineRefusal,
  res: ReservationView,
  user: UserView,
  said: string,
): string {
  const sorry = say(rng, ["I'm sorry, but", 'Unfortunately,', 'I am afraid']);
  const it = reservationName(said, res);
  switch (r.action) {
    case 'change_basic_economy_flights':
      return `${sorry} ${it} is in basic economy, and the flights of a basic economy reservation cannot be changed.`;
    case 'cancel_ineligible': {
      const facts = `it was booked on ${dateText(res.created_at.slice(0, 10))}, it is in ${CABIN_TEXT[res.cabin]}, no flight of it was cancelled by the airline, and ${res.insurance === 'yes' ? 'its insurance does not cover that reason' : 'it has no travel insurance'}`;
      return `${sorry} I cannot cancel ${it}: ${facts}. ${COVERED[0]?.toUpperCase()}${COVERED.slice(1)}.`;
    }
    case 'remove_bags':
      return `${sorry} checked bags can be added to a reservation but not removed, so ${it} keeps its ${bagCount(res.total_baggages)}.`;
    case 'add_insurance':
      return `${sorry} travel insurance can only be bought when booking, so I cannot add it to ${it}.`;
    case 'change_passenger_count':
      return `${sorry} the number of passengers on a reservation cannot change. I can update the details of the ${res.passengers.length} passenger${res.passengers.length === 1 ? '' : 's'} on ${it}, but not add or remove anyone.`;
    case 'compensation_ineligible':
      return `${sorry} I cannot offer compensation here: ${REASONS.compensation_ineligible}, and you are a ${user.membership} member with ${res.cabin === 'economy' ? 'an economy' : `a ${CABIN_TEXT[res.cabin]}`} ticket without travel insurance.`;
  }
}

export function refusalAgain(rng: Rng, action: AirlineRefusal['action']): string {
  return say(
    rng,
    [
      "I understand[ how frustrating this is|], but I'm afraid I cannot make an exception: {why}.",
      "I'm sorry, I really can't make an exception here; {why}.",
    ],
    { why: REASONS[action] },
  );
}

/** The free bag allowance of the customer's reservation, as a clause. */
export function allowanceText(user: UserView, res: ReservationView): string {
  const per = FREE_BAGS[user.membership][res.cabin];
  return `${per} free checked bag${per === 1 ? '' : 's'} per passenger`;
}

/** The answer to an information request. */
export function infoText(
  rng: Rng,
  r: Extract<AirlineRequest, { kind: 'information' }>,
  res: ReservationView,
  said: string,
  value: { status?: string; flight?: { flight_number: string; date: string }; amount?: number },
): string {
  const it = reservationName(said, res);
  if (r.topic === 'flight_status') {
    const f = value.flight;
    return say(rng, [
      `Flight ${f?.flight_number} on ${dateText(f?.date ?? '')} is ${value.status}.`,
      `[I checked: |]the status of flight ${f?.flight_number} on ${dateText(f?.date ?? '')} is "${value.status}".`,
    ]);
  }
  if (r.topic === 'refund_amount')
    return say(rng, [
      `If ${it} is cancelled, the refund would be ${dollars(value.amount ?? 0)} to the original payment methods.`,
      `Cancelling ${it} would refund ${dollars(value.amount ?? 0)}.`,
    ]);
  const amount = value.amount ?? 0;
  if (amount === 0) return `That change to ${it} would cost nothing extra: the difference is $0.`;
  return amount > 0
    ? `That change to ${it} would cost ${dollars(amount)} more in total.`
    : `That change to ${it} would give you ${dollars(amount)} back in total.`;
}
