import { sameRouteText } from '../synthesis/flight-on-trip.js';
import type {
  AirlineRequest,
  CancelReason,
  PassengerRef,
  PaymentRef,
  ReservationRef,
  SegmentRef,
} from '../synthesis/requests.js';
import type { Cabin } from '../vocabulary.js';

/**
 * How the airline scripted roles read each other's messages (docs/airline.md, "Scripted roles"): the oracle agent
 * checks which request the customer brought up and which of its details they have given so far; the customer
 * checks that a proposal names what it wants. Texts are lower-cased; descriptions are matched by the phrase the
 * customer says for them (never by an id the customer did not use).
 */

/** Whether the customer's text (lower-cased) names `phrase`. */
export function said(text: string, phrase: string): boolean {
  return text.includes(phrase.toLowerCase());
}

/**
 * Whether the text names the reservation `ref`; with `flight` (the request's flight on it), also by the wording
 * that says a shared route once ("my denver to atlanta flight on may 3", see flightOnTrip).
 */
export function reservationGiven(text: string, ref: ReservationRef, flight?: SegmentRef): boolean {
  if (ref.strategy === 'id' ? said(text, ref.reservation_id) : said(text, ref.phrase)) return true;
  const both = flight === undefined ? undefined : sameRouteText(flight, ref);
  return both !== undefined && said(text, both);
}

/** Whether the text names `flight` of `reservation`: by its phrase, or by the wording that says a shared route once. */
export function segmentGiven(text: string, flight: SegmentRef, reservation: ReservationRef): boolean {
  if (said(text, flight.phrase)) return true;
  const both = sameRouteText(flight, reservation);
  return both !== undefined && said(text, both);
}

/** The request's flight on its reservation, for requests about one flight. */
export function flightOf(r: AirlineRequest): SegmentRef | undefined {
  return 'flight' in r ? r.flight : undefined;
}

export const REASON_TEXT: Readonly<Record<CancelReason, string>> = {
  change_of_plan: 'my plans changed',
  airline_cancelled: 'the airline cancelled my flight',
  health: 'I have a health problem',
  weather: 'the weather forecast is terrible',
  other: 'something personal came up',
};

const REASON_MARK: Readonly<Record<CancelReason, RegExp>> = {
  change_of_plan: /plans changed|change of plans/,
  airline_cancelled: /airline cancelled/,
  health: /health/,
  weather: /weather/,
  other: /something personal/,
};

export function reasonGiven(text: string, reason: CancelReason): boolean {
  return REASON_MARK[reason].test(text);
}

export const CABIN_WORDS: Readonly<Record<Cabin, string>> = {
  basic_economy: 'basic economy',
  economy: 'economy',
  business: 'business',
};

export function cabinGiven(text: string, cabin: Cabin): boolean {
  if (cabin === 'economy') return /(^|[^c] )economy|^economy/.test(text.replace(/basic economy/g, ''));
  return text.includes(CABIN_WORDS[cabin]);
}

const BAGS = /\b(\d+|no|one|two|three|four|five|six) (more |extra |additional )?(checked )?bags?\b/;

export function bagsGiven(text: string): boolean {
  return BAGS.test(text);
}

export function paymentGiven(text: string, ref: PaymentRef): boolean {
  return ref.strategy === 'id' ? said(text, ref.payment_id) : said(text, ref.phrase);
}

export function passengerGiven(text: string, ref: PassengerRef): boolean {
  return said(text, ref.phrase);
}

/** The words by which a proposal names a payment method (lower-cased). */
export function paymentMarker(ref: PaymentRef): string {
  switch (ref.strategy) {
    case 'id':
      return ref.payment_id.toLowerCase();
    case 'brand':
      return ref.brand.toLowerCase();
    case 'last_four':
      return ref.last_four;
    case 'kind':
      return ref.source === 'credit_card'
        ? 'credit card'
        : ref.source === 'gift_card'
          ? 'gift card'
          : 'certificate';
    case 'richest_gift_card':
      return 'gift card';
  }
}

/** The word that shows a customer brought request `r` up (its intent), tested on their texts since it began. */
export function intentOf(r: AirlineRequest): RegExp {
  switch (r.kind) {
    case 'book_reservation':
      return /\bbook/;
    case 'change_flights':
      return /(change|switch|move).*flight/;
    case 'change_cabin':
      return /cabin/;
    case 'add_bags':
      return /bag/;
    case 'change_passengers':
      return /passenger/;
    case 'cancel_reservation':
    case 'transfer':
      return /cancel/;
    case 'compensation_certificate':
      return /compensat/;
    case 'information':
      return r.topic === 'flight_status'
        ? /status/
        : r.topic === 'refund_amount'
          ? /refund|get back/
          : /(cost|how much|price difference)/;
    case 'refusal':
      switch (r.action) {
        case 'change_basic_economy_flights':
          return /(change|switch|move).*flight/;
        case 'cancel_ineligible':
          return /cancel/;
        case 'remove_bags':
          return /bag/;
        case 'add_insurance':
          return /insurance/;
        case 'change_passenger_count':
          return /passenger|travell?er/;
        case 'compensation_ineligible':
          return /compensat/;
      }
  }
}

/** Whether request `r` was already brought up in `text` with the reservation it concerns. */
export function requestStated(r: AirlineRequest, text: string): boolean {
  if (!intentOf(r).test(text)) return false;
  return !('reservation' in r) || reservationGiven(text, r.reservation, flightOf(r));
}

/** The name a proposal lists for a passenger reference, when the reference carries one. */
function passengerName(ref: PassengerRef): string | undefined {
  return ref.strategy === 'relation' ? undefined : ref.first_name.toLowerCase();
}

/**
 * Whether a proposal (the agent's text, lower-cased) matches the customer's write request: the action, and the
 * details the customer can recognise (cabin, payment method, passenger names, bags).
 */
export function proposalMatches(r: AirlineRequest, text: string): boolean {
  switch (r.kind) {
    case 'book_reservation':
      return (
        /\bbook/.test(text) &&
        text.includes(CABIN_WORDS[r.cabin]) &&
        r.passengers.every((p) => {
          const name = passengerName(p);
          return name === undefined || text.includes(name);
        }) &&
        r.payments.every((p) => text.includes(paymentMarker(p.payment))) &&
        text.includes(r.total_baggages === 0 ? 'no checked bags' : `${r.total_baggages} checked bag`) &&
        (r.insurance ? /\btravel insurance \(/.test(text) : /no travel insurance/.test(text))
      );
    case 'change_flights':
      return /change the flights/.test(text) && text.includes(paymentMarker(r.payment));
    case 'change_cabin':
      return (
        /cabin/.test(text) &&
        text.includes(`to ${CABIN_WORDS[r.cabin]}`) &&
        text.includes(paymentMarker(r.payment))
      );
    case 'add_bags':
      return text.includes(`add ${r.add} checked bag`) && text.includes(paymentMarker(r.payment));
    case 'change_passengers':
      return (
        /passenger/.test(text) &&
        r.edits.every((e) => {
          const name = passengerName(e.to);
          return name === undefined || text.includes(name);
        })
      );
    case 'cancel_reservation':
      return /\bcancel/.test(text);
    case 'compensation_certificate':
      return /certificate/.test(text);
    default:
      return false;
  }
}
