import type { Rng } from '../../../core/rng.js';
import {
  BEHAVIOUR_SHARES,
  type Behaviour,
  type BehaviourEntry,
  mistypeDigit,
  PERSONAS,
  partialTendency,
  refusalEvents,
} from '../../../tasks/behaviour.js';
import type { AirlineRequest } from './requests.js';

/**
 * The airline customer's behaviour (docs/airline.md, "Behaviour"; the shared shape and event names in
 * docs/conversations.md), drawn from the task's seed after its requests, with Retail's shares
 * (`BEHAVIOUR_SHARES`, `partialTendency`):
 *
 * - `wrong_detail` (knowledge, share 0.2 of tasks): the user id given first with one digit off, checked to be
 *   no user of the DB (`get_user_details` answers "Error: User not found"; the customer then corrects it);
 * - `partial_info` (knowledge, per request, the persona's tendency: 0.3–0.7, 0.4 over the personas): a write,
 *   cancellation or transfer request opened with its intent only; refusals, information and compensation requests
 *   are always stated in full (the scripted customer has no intent-only opening for them);
 * - `push_back` (event, 0.6 of refused requests) and `transfer` (0.35 of the push-backs on the last request);
 * - `two_requests` (event, 0.4 of the tasks with two or more requests whose second is stated in full).
 *
 * Retail's ambiguous references, changes of mind, side questions and mistyped order ids have no airline
 * counterpart in the scripted roles yet and are not drawn.
 */

/** Request kinds the customer can open with only the intent ("I need to change my flights."). */
const PARTIAL_KINDS: ReadonlySet<AirlineRequest['kind']> = new Set([
  'book_reservation',
  'change_flights',
  'change_cabin',
  'add_bags',
  'change_passengers',
  'cancel_reservation',
  'transfer',
]);

/** What the draw needs besides the seed: the user id, the requests, and whether an id belongs to a user. */
export interface AirlineBehaviourInputs {
  readonly userId: string;
  readonly requests: readonly AirlineRequest[];
  readonly isUser: (userId: string) => boolean;
}

/** Draws the behaviour of one airline task. */
export function drawAirlineBehaviour(rng: Rng, inputs: AirlineBehaviourInputs): Behaviour {
  const persona = rng.pick(PERSONAS);
  const knowledge: BehaviourEntry[] = [];
  const events: BehaviourEntry[] = [];
  const { requests } = inputs;
  if (rng.chance(BEHAVIOUR_SHARES.wrongDetail)) {
    const wrong = mistypeDigit(rng, inputs.userId);
    if (wrong !== inputs.userId && !inputs.isUser(wrong))
      knowledge.push({ kind: 'wrong_detail', field: 'user_id', value: wrong });
  }
  const partial = partialTendency(persona);
  requests.forEach((r, i) => {
    if (PARTIAL_KINDS.has(r.kind) && rng.chance(partial))
      knowledge.push({ kind: 'partial_info', request: i });
    if (r.kind === 'refusal') events.push(...refusalEvents(rng, i, i === requests.length - 1));
  });
  // the second request is then stated in full in the opening, so it has no intent-only opening of its own
  const plainSecond = !knowledge.some((e) => e.request === 1 && e.kind === 'partial_info');
  if (requests.length >= 2 && plainSecond && rng.chance(BEHAVIOUR_SHARES.twoRequests))
    events.push({ kind: 'two_requests', request: 0 });
  return { persona, knowledge, events };
}
