import type { Rng } from '../../../core/rng.js';
import type { Behaviour } from '../../../tasks/behaviour.js';
import type { Tau2Instructions } from '../../../tasks/tau2-task.js';
import { flightOnTrip } from './flight-on-trip.js';
import type { ItineraryRef, PassengerRef, UserRef } from './references.js';
import type { AirlineRequest, CancelReason, LegChange, PassengerEdit, PaymentShare } from './requests.js';

/**
 * The τ² user scenario of a generated airline task (`reason_for_call`, `known_info`, `unknown_info`,
 * `task_instructions`), in cove's own words. References are rendered from their phrases, so it never mentions an
 * id that was fuzzified.
 */

/** First person ("my trip") to second person ("your trip"). */
function second(text: string): string {
  return text
    .replace(/\bmy\b/g, 'your')
    .replace(/\bmyself\b/g, 'yourself')
    .replace(/\bI\b/g, 'you')
    .replace(/\bme\b/g, 'you');
}

const REASONS: Record<CancelReason, string> = {
  change_of_plan: 'because your plans changed',
  airline_cancelled: 'because the airline cancelled a flight',
  health: 'for health reasons',
  weather: 'because of the weather',
  other: 'for a personal reason',
};

const cabinText = (c: string) => c.replace('_', ' ');
/** "A", "A and B", "A, B and C". */
function listText(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
const people = (ps: readonly PassengerRef[]) => listText(ps.map((p) => second(p.phrase)));

/** One passenger change: a corrected date of birth, or another person travelling instead. */
function editText(e: PassengerEdit): string {
  const who = e.passenger.strategy === 'relation' ? 'you' : second(e.passenger.phrase);
  if (e.dob_only === true && e.to.strategy === 'details')
    return e.passenger.strategy === 'relation'
      ? `you want to correct your date of birth to ${e.to.dob}`
      : `you want to correct the date of birth of ${e.to.first_name} ${e.to.last_name} to ${e.to.dob}`;
  return `you want ${second(e.to.phrase)} to travel instead of ${who}`;
}
const flights = (it: ItineraryRef) => second(it.phrase);
const legs = (ls: readonly LegChange[]) =>
  ls
    .map((l) => `the ${l.leg === 'outbound' ? 'outbound' : 'return'} flight to ${flights(l.to)}`)
    .join(' and ');

function shareText(s: PaymentShare): string {
  const how = s.amount === 'all' ? 'all of' : s.amount === 'rest' ? 'the rest on' : `$${s.amount} on`;
  return `${how} ${second(s.payment.phrase)}`;
}

/** The flight a request is about, with its reservation (second person; the route said once, see flightOnTrip). */
function flightOn(r: Extract<AirlineRequest, { flight: unknown }>): string {
  return second(flightOnTrip(r.flight, r.reservation, r.reservation.phrase));
}

function capital(text: string): string {
  return `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`;
}

/** One request as a sentence of the scenario (second person). */
export function requestSentence(r: AirlineRequest): string {
  if (r.kind === 'book_reservation') {
    const trip = r.flight_type === 'round_trip' ? 'a round trip' : 'a one-way trip';
    const back = r.return === undefined ? '' : `, coming back on ${flights(r.return)}`;
    const pay =
      r.payments.length === 1
        ? `Pay with ${second((r.payments[0] as PaymentShare).payment.phrase)}`
        : `Pay ${r.payments.map(shareText).join(', then ')}`;
    return (
      `You want to book ${trip} from ${r.origin.city} to ${r.destination.city} in ${cabinText(r.cabin)}: ${flights(r.outbound)}${back}, ` +
      `for ${people(r.passengers)}, with ${r.total_baggages === 0 ? 'no checked bags' : `${r.total_baggages} checked bag${r.total_baggages === 1 ? '' : 's'} in all`} and ${r.insurance ? '' : 'no '}travel insurance. ${pay}.`
    );
  }
  const res = second(r.reservation.phrase);
  switch (r.kind) {
    case 'change_flights':
      return `For ${res}, you want to change ${legs(r.legs)}, paying any difference with ${second(r.payment.phrase)}.`;
    case 'change_cabin':
      return `You want to move ${res} to ${cabinText(r.cabin)}, paying any difference with ${second(r.payment.phrase)}.`;
    case 'add_bags':
      return `You want to add ${r.add} checked bag${r.add === 1 ? '' : 's'} to ${res}, paying with ${second(r.payment.phrase)} if there is a charge.`;
    case 'change_passengers':
      return `On ${res}, ${r.edits.map(editText).join(' and ')}.`;
    case 'cancel_reservation':
      return `You want to cancel ${res} ${REASONS[r.reason]}.`;
    case 'compensation_certificate':
      return `${capital(flightOn(r))} was ${r.issue}; you want to know whether you can get some compensation for it.`;
    case 'transfer':
      return `You want to cancel ${res} ${REASONS[r.reason]}.`;
    case 'information':
      if (r.topic === 'flight_status') return `You want to know the status of ${flightOn(r)}.`;
      if (r.topic === 'refund_amount')
        return `You want to know how much you would get back if you cancelled ${res}.`;
      return `You want to know how much it would cost to move ${res} to ${cabinText(r.cabin ?? 'economy')} (you are only asking).`;
    case 'refusal':
      switch (r.action) {
        case 'change_basic_economy_flights':
          return `For ${res}, you want to change ${legs(r.legs)}.`;
        case 'cancel_ineligible':
          return `You want to cancel ${res} ${REASONS[r.reason]}.`;
        case 'remove_bags':
          return `You want to bring the checked bags on ${res} down to ${r.total_baggages}.`;
        case 'add_insurance':
          return `You want to add travel insurance to ${res}.`;
        case 'change_passenger_count':
          return r.add.length > 0
            ? `You want to add ${people(r.add)} as a passenger on ${res}.`
            : `You want to take ${people(r.remove)} off ${res}.`;
        case 'compensation_ineligible':
          return `${capital(flightOn(r))} was ${r.issue}; you want compensation for it.`;
      }
  }
}

/** The behaviour's knowledge entries and events as second-person instructions (docs/airline.md, "Behaviour"). */
export function behaviourSentences(behaviour: Behaviour, requests: readonly AirlineRequest[]): string[] {
  const n = (i: unknown) => (requests.length === 1 ? 'your request' : `request (${Number(i) + 1})`);
  const out: string[] = [];
  for (const k of behaviour.knowledge) {
    if (k.kind === 'wrong_detail')
      out.push(
        `The first time you give your user id you get one digit wrong (${String(k.value)}); when the agent cannot find your profile, correct it.`,
      );
    if (k.kind === 'partial_info')
      out.push(
        `For ${n(k.request)}, first say only what you want done; give the details (which reservation, which flights, cabin, passengers, bags or payment method) only when the agent asks for them.`,
      );
  }
  for (const e of behaviour.events) {
    if (e.kind === 'push_back')
      out.push(
        `If the agent says ${n(e.request)} is not possible, push back once and ask for an exception before accepting.`,
      );
    if (e.kind === 'transfer')
      out.push('If the agent still refuses after you push back, ask to be transferred to a human agent.');
    if (e.kind === 'two_requests') out.push('Mention your first two requests together in one message.');
  }
  return out;
}

/** The whole scenario of a task. */
export function scenarioInstructions(
  rng: Rng,
  user: UserRef,
  requests: readonly AirlineRequest[],
  behaviour?: Behaviour,
): Tau2Instructions {
  const sentences = requests.map(requestSentence);
  const reason =
    sentences.length === 1
      ? (sentences[0] as string)
      : `${rng.pick(['You have several things to sort out.', 'You are calling about a few things.'])} ${sentences
          .map((s, i) => `(${i + 1}) ${s}`)
          .join(' ')}`;
  const refused = requests.some((r) => r.kind === 'refusal' || r.kind === 'transfer');
  const instructions = [
    rng.pick(['Bring up one request at a time.', 'Deal with your requests one by one, in the order given.']),
    'Only give details when the agent asks for them, and describe things the way you know them.',
    'Say yes to a proposed change only if it matches what you want.',
    refused ? 'If the agent explains that something is not possible, accept that and move on.' : '',
    ...(behaviour === undefined ? [] : behaviourSentences(behaviour, requests)),
    'When everything is done, thank the agent and end the conversation.',
  ].filter((x) => x !== '');
  return {
    domain: 'airline',
    reason_for_call: reason,
    known_info: `Your user id is ${user.user_id}.`,
    unknown_info: 'You do not remember your reservation ids.',
    task_instructions: instructions.join(' '),
  };
}
