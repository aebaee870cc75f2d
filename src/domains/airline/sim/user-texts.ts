import type { Rng } from '../../../core/rng.js';
import { expand, say } from '../../../sim/scripted/grammar.js';
import { flightOnTrip } from '../synthesis/flight-on-trip.js';
import type {
  AirlineRequest,
  BookRequest,
  LegChange,
  PassengerEdit,
  PassengerRef,
  PaymentShare,
  ReservationRef,
  SegmentRef,
} from '../synthesis/requests.js';
import { CABIN_WORDS, REASON_TEXT } from './mentions.js';

/**
 * How the airline scripted customer words its requests (docs/airline.md, "Scripted roles"): a statement in full
 * (every detail, each reference by its phrase), a partial one (only the intent, the agent asks for the rest), and
 * the answers to the agent's questions about one detail. Paraphrase-grammar templates in cove's own words; a
 * reservation is named by its reference's phrase (or its id at fuzz levels 0 and 1).
 */

export function reservationText(ref: ReservationRef): string {
  return ref.strategy === 'id' ? `reservation ${ref.reservation_id}` : ref.phrase;
}

function legText(rng: Rng, l: LegChange): string {
  const templates =
    l.leg === 'outbound'
      ? ['for the outbound, {p}', 'going out, {p}']
      : ['for the return, {p}', 'coming back, {p}'];
  return expand(rng, rng.pick(templates), { p: l.to.phrase });
}

export function legsText(rng: Rng, legs: readonly LegChange[]): string {
  return legs.map((l) => legText(rng, l)).join(' and ');
}

function shareText(s: PaymentShare): string {
  if (s.amount === 'all') return `the whole balance of ${s.payment.phrase}`;
  if (s.amount === 'rest') return `the rest on ${s.payment.phrase}`;
  return `$${s.amount} on ${s.payment.phrase}`;
}

export function paymentsText(shares: readonly PaymentShare[]): string {
  if (shares.length === 1) return `${shares[0]?.payment.phrase}`;
  return shares.map(shareText).join(' and ');
}

export function passengersText(r: BookRequest): string {
  const names = r.passengers.map((p) => p.phrase);
  return names.length === 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export function tripText(rng: Rng, r: BookRequest): string {
  const kind = r.flight_type === 'round_trip' ? 'round trip' : 'one-way trip';
  return expand(rng, rng.pick([`a ${kind} from {o} to {d}`, `a ${kind}, {o} to {d}`]), {
    o: r.origin.city,
    d: r.destination.city,
  });
}

export function bagsText(n: number): string {
  return n === 0 ? 'no checked bags' : `${n} checked bag${n === 1 ? '' : 's'}`;
}

/** How request `r` is stated in full. */
export function statement(rng: Rng, r: AirlineRequest): string {
  switch (r.kind) {
    case 'book_reservation': {
      const back = r.return === undefined ? '' : `, and back with ${r.return.phrase}`;
      return say(
        rng,
        [
          "I'd like to book {t}: {out}{back}, in {c}, for {p}.",
          '[I want|I need] to book {t} in {c} for {p}: {out}{back}.',
        ],
        {
          t: tripText(rng, r),
          out: r.outbound.phrase,
          back,
          c: CABIN_WORDS[r.cabin],
          p: passengersText(r),
        },
      );
    }
    case 'change_flights':
      return say(
        rng,
        ["I'd like to change the flights of {r}: {l}.", 'I need to change my flights on {r} - {l}.'],
        {
          r: reservationText(r.reservation),
          l: legsText(rng, r.legs),
        },
      );
    case 'change_cabin':
      return say(
        rng,
        ["I'd like to change the cabin of {r} to {c}.", 'Can I move {r} to {c}? I want to change the cabin.'],
        {
          r: reservationText(r.reservation),
          c: CABIN_WORDS[r.cabin],
        },
      );
    case 'add_bags':
      return say(rng, ["I'd like to add {n} to {r}.", 'Can I add {n} to {r}?'], {
        n: bagsText(r.add),
        r: reservationText(r.reservation),
      });
    case 'change_passengers':
      return say(
        rng,
        ['I need to update a passenger on {r}: {e}.', 'Can you change the passenger details of {r}? {E}.'],
        {
          r: reservationText(r.reservation),
          e: editsText(r),
          E: capital(editsText(r)),
        },
      );
    case 'cancel_reservation':
    case 'transfer':
      return say(rng, ['I want to cancel {r} because {why}.', 'Please cancel {r}; {why}.'], {
        r: reservationText(r.reservation),
        why: REASON_TEXT[r.reason],
      });
    case 'compensation_certificate':
      return compensationAsk(rng, r.flight, r.reservation, r.issue);
    case 'information':
      if (r.topic === 'flight_status')
        return say(rng, ["What's the status of {f}?", 'Could you check the status of {f}?'], {
          f: flightOnTrip(r.flight, r.reservation, reservationText(r.reservation)),
        });
      if (r.topic === 'refund_amount')
        return say(
          rng,
          [
            'If I cancelled {r}, how much would I get back?',
            'How much of a refund would I get for {r} if I cancelled it?',
          ],
          {
            r: reservationText(r.reservation),
          },
        );
      return say(
        rng,
        ['How much would it cost to {w} on {r}?', 'What would be the price difference if I {w2} on {r}?'],
        {
          r: reservationText(r.reservation),
          w:
            r.cabin !== undefined
              ? `move to ${CABIN_WORDS[r.cabin]}`
              : `change flights, ${legsText(rng, r.legs ?? [])}`,
          w2:
            r.cabin !== undefined
              ? `moved to ${CABIN_WORDS[r.cabin]}`
              : `changed flights, ${legsText(rng, r.legs ?? [])}`,
        },
      );
    case 'refusal':
      switch (r.action) {
        case 'change_basic_economy_flights':
          return say(rng, ["I'd like to change the flights of {r}: {l}."], {
            r: reservationText(r.reservation),
            l: legsText(rng, r.legs),
          });
        case 'cancel_ineligible':
          return say(rng, ['I want to cancel {r} because {why}.', 'Please cancel {r}; {why}.'], {
            r: reservationText(r.reservation),
            why: REASON_TEXT[r.reason],
          });
        case 'remove_bags':
          return say(
            rng,
            r.total_baggages === 0
              ? [
                  "I'd like to remove the checked bags from {r}: I will travel with {n}.",
                  'Can I take the bags off {r}? I want {n} on it.',
                ]
              : [
                  "I'd like to reduce the bags on {r} to {n}.",
                  'Can I take some bags off {r}? I only need {n}.',
                ],
            {
              r: reservationText(r.reservation),
              n: bagsText(r.total_baggages),
            },
          );
        case 'add_insurance':
          return say(
            rng,
            ["I'd like to add travel insurance to {r}.", 'Can I still buy insurance for {r}?'],
            {
              r: reservationText(r.reservation),
            },
          );
        case 'change_passenger_count': {
          const add = r.add.map((p) => p.phrase).join(' and ');
          const remove = r.remove.map((p) => p.phrase).join(' and ');
          const what = [add === '' ? '' : `add ${add}`, remove === '' ? '' : `remove ${remove}`]
            .filter((x) => x !== '')
            .join(' and ');
          return say(
            rng,
            ["I'd like to {w} as a passenger on {r}.", 'Can you {w} on {r}? The passengers have changed.'],
            {
              w: what,
              r: reservationText(r.reservation),
            },
          );
        }
        case 'compensation_ineligible':
          return compensationAsk(rng, r.flight, r.reservation, r.issue);
      }
  }
}

function compensationAsk(rng: Rng, flight: SegmentRef, res: ReservationRef, issue: string): string {
  const f = flightOnTrip(flight, res, reservationText(res));
  return say(
    rng,
    [
      '{F} was {i}. Can I get some compensation for that?',
      '[I am not happy:|Ugh,] {f} was {i}. Is there any compensation?',
    ],
    { F: capital(f), f, i: issue },
  );
}

/** A passenger of a reservation as the subject of a change ("the entry for myself", "Mia Li"). */
export function whoText(p: PassengerRef): string {
  return p.strategy === 'relation' ? `the entry for ${p.phrase}` : p.phrase;
}

/** One passenger change as the customer states it (a corrected date of birth says so). */
export function editText(e: PassengerEdit): string {
  return `${whoText(e.passenger)} should be ${e.to.phrase}${e.dob_only === true ? ' (only the date of birth was wrong)' : ''}`;
}

function editsText(r: Extract<AirlineRequest, { kind: 'change_passengers' }>): string {
  return r.edits.map(editText).join(', and ');
}

function capital(text: string): string {
  return `${text[0]?.toUpperCase()}${text.slice(1)}`;
}

/** How request `r` starts when the customer gives only its intent. */
export function partialStatement(rng: Rng, r: AirlineRequest): string {
  switch (r.kind) {
    case 'book_reservation':
      return say(rng, ['I want to book a flight.', "I'd like to book a new trip."]);
    case 'change_flights':
      return say(rng, ['I need to change my flights.', "I'd like to change the flights of a reservation."]);
    case 'change_cabin':
      return say(rng, ["I'd like to change the cabin of one of my reservations."]);
    case 'add_bags':
      return say(rng, ['I need to add checked bags to a reservation.']);
    case 'change_passengers':
      return say(rng, ['I need to fix the passenger details of a reservation.']);
    case 'cancel_reservation':
    case 'transfer':
      return say(rng, ['I want to cancel a reservation.', 'I need to cancel a trip.']);
    default:
      return statement(rng, r);
  }
}

/** What a yes to a proposal of request `r` is about ("go ahead with the cancellation"). */
export function subjectOf(rng: Rng, r: AirlineRequest): string {
  const res = 'reservation' in r ? ` of ${reservationText(r.reservation)}` : '';
  switch (r.kind) {
    case 'book_reservation':
      return rng.pick(['the booking', 'the reservation', 'booking it']);
    case 'change_flights':
      return rng.pick(['the flight change', `the new flights${res}`]);
    case 'change_cabin':
      return rng.pick(['the cabin change', `the cabin change${res}`]);
    case 'add_bags':
      return rng.pick(['the bags', 'adding the bags']);
    case 'change_passengers':
      return rng.pick(['the passenger change', 'updating the passenger']);
    case 'cancel_reservation':
      return rng.pick(['the cancellation', `the cancellation${res}`]);
    case 'compensation_certificate':
      return rng.pick(['the certificate', 'the compensation']);
    default:
      return 'it';
  }
}

/** A short topic of request `r` for a nudge or the last message. */
export function topicOf(r: AirlineRequest | undefined): string {
  if (r === undefined) return 'my trip';
  if (r.kind === 'book_reservation') return 'the new booking';
  return 'reservation' in r ? reservationText(r.reservation) : 'my trip';
}
