import type { Rng } from '../../../core/rng.js';
import type { AirlineRequest } from '../synthesis/requests.js';
import {
  askBags,
  askCabin,
  askInsurance,
  askItinerary,
  askLegChange,
  askPassengers,
  askPayment,
  askReason,
  askReservation,
  askSegment,
  askTrip,
} from './agent-texts.js';
import {
  bagsGiven,
  cabinGiven,
  flightOf,
  passengerGiven,
  paymentGiven,
  reasonGiven,
  reservationGiven,
  said,
  segmentGiven,
} from './mentions.js';

/**
 * Which detail of a request the airline oracle agent still has to ask for (docs/airline.md, "Scripted roles"):
 * the customer's words since the request came up (`text`, lower-cased) must name each detail before the agent
 * acts on it. The reservation comes first (the agent reads it before asking for the rest); then, in a booking,
 * the trip, flights, cabin, passengers, bags, insurance and payment, as the policy orders them.
 */

/** The question for the reservation, when the customer has not named it yet. */
export function reservationQuestion(rng: Rng, r: AirlineRequest, text: string): string | undefined {
  if (!('reservation' in r) || reservationGiven(text, r.reservation, flightOf(r))) return undefined;
  return askReservation(rng);
}

/** The question for the next detail after the reservation, or undefined when every detail was given. */
export function detailQuestion(rng: Rng, r: AirlineRequest, text: string): string | undefined {
  switch (r.kind) {
    case 'book_reservation': {
      const trip =
        said(text, r.origin.city) &&
        said(text, r.destination.city) &&
        (r.flight_type === 'round_trip' ? /round[- ]trip/ : /one[- ]way/).test(text);
      if (!trip) return askTrip(rng);
      if (!said(text, r.outbound.phrase)) return askItinerary(rng, 'outbound');
      if (r.return !== undefined && !said(text, r.return.phrase)) return askItinerary(rng, 'return');
      if (!cabinGiven(text, r.cabin)) return askCabin(rng);
      if (!r.passengers.every((p) => passengerGiven(text, p))) return askPassengers(rng, true);
      if (!bagsGiven(text)) return askBags(rng, true);
      if (!/insurance/.test(text)) return askInsurance(rng);
      if (!r.payments.every((p) => paymentGiven(text, p.payment))) return askPayment(rng, 'booking');
      return undefined;
    }
    case 'change_flights':
      if (!r.legs.every((l) => said(text, l.to.phrase))) return askLegChange(rng);
      return paymentGiven(text, r.payment) ? undefined : askPayment(rng, 'difference');
    case 'change_cabin':
      if (!cabinGiven(text, r.cabin)) return askCabin(rng);
      return paymentGiven(text, r.payment) ? undefined : askPayment(rng, 'difference');
    case 'add_bags':
      if (!bagsGiven(text)) return askBags(rng, false);
      return paymentGiven(text, r.payment) ? undefined : askPayment(rng, 'bags');
    case 'change_passengers':
      return r.edits.every((e) => passengerGiven(text, e.passenger) && passengerGiven(text, e.to))
        ? undefined
        : askPassengers(rng, false);
    case 'cancel_reservation':
      return reasonGiven(text, r.reason) ? undefined : askReason(rng);
    case 'compensation_certificate':
      return segmentGiven(text, r.flight, r.reservation) ? undefined : askSegment(rng);
    case 'transfer':
      return undefined;
    case 'information':
      if (r.topic === 'flight_status')
        return segmentGiven(text, r.flight, r.reservation) ? undefined : askSegment(rng);
      if (r.topic === 'price_difference') {
        if (r.cabin !== undefined && !cabinGiven(text, r.cabin)) return askCabin(rng);
        if (r.legs !== undefined && !r.legs.every((l) => said(text, l.to.phrase))) return askLegChange(rng);
      }
      return undefined;
    case 'refusal':
      if (r.action === 'cancel_ineligible') return reasonGiven(text, r.reason) ? undefined : askReason(rng);
      if (r.action === 'compensation_ineligible')
        return segmentGiven(text, r.flight, r.reservation) ? undefined : askSegment(rng);
      return undefined;
  }
}
