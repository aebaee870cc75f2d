import type { Rng } from '../../../core/rng.js';
import { parseSharedJson } from '../../../core/shared-json.js';
import type { AssistantMessage } from '../../../sim/messages.js';
import { asksForHuman, isAffirmative, isPushBack } from '../../../sim/scripted/replies.js';
import { ScriptedAgent } from '../../../sim/scripted/scripted-agent.js';
import type { AirlineFuzz, AirlineRefusal, AirlineRequest } from '../synthesis/requests.js';
import { NOW, refundAmount } from '../synthesis/rules.js';
import type { FlightView, Itinerary, ReservationView, UserView } from '../synthesis/views.js';
import {
  anythingElse,
  askUserId,
  howCanIHelp,
  identityFailed,
  TRANSFER_TEXT,
  userNotFound,
} from './agent-texts.js';
import { intentOf, requestStated } from './mentions.js';
import {
  cabinChangeCost,
  changedFlights,
  isMissing,
  type Missing,
  type ReadState,
  reservationOf,
  statusOf,
  type WriteCall,
  writeCall,
} from './oracle-calls.js';
import { reservationsMatching, searchKey, segmentOf } from './oracle-resolve.js';
import { detailQuestion, reservationQuestion } from './oracle-slots.js';
import { confirmationText, infoText, refusalAgain, refusalText, reportText } from './oracle-texts.js';

type Lookup =
  | { readonly kind: 'user'; readonly id: string }
  | { readonly kind: 'reservation'; readonly id: string }
  | { readonly kind: 'search'; readonly key: string; readonly stops: 0 | 1; readonly date: string }
  | { readonly kind: 'status'; readonly key: string }
  | { readonly kind: 'transfer' }
  | { readonly kind: 'write'; readonly call: WriteCall };

/** User ids as τ²'s airline writes them (`mia_li_3668`). */
const USER_ID = /\b[a-z]+_[a-z]+_\d+\b/g;
/** Payment method ids have the same shape (`credit_card_4421486`); they are never user ids. */
const PAYMENT_ID = /^(credit_card|gift_card|certificate)_/;
const TODAY = NOW.slice(0, 10);

/**
 * The oracle agent of the airline domain (docs/design.md §5, docs/airline.md "Scripted roles"). It receives the
 * task's requests fuzzified (the descriptions the customer has, no ids) and reads nothing but the conversation:
 * it asks for the user id and reads the profile, acts on a request only once the customer has brought it up,
 * asks for each detail not given yet, finds the reservation by reading the customer's reservations, searches
 * flights and checks flight statuses (one tool call per turn), lists every detail of a write and waits for an
 * explicit yes, refuses what the policy forbids (holding the refusal on push-back, transferring when asked),
 * transfers a cancellation with a flown flight with τ²'s hold message, and sends compensation only when the
 * customer asked for it. Every id it writes comes from a tool result.
 */
export class AirlineOracleAgent extends ScriptedAgent<Lookup> {
  readonly #fuzz: AirlineFuzz;
  readonly #rng: Rng;
  #user: UserView | undefined;
  readonly #reservations = new Map<string, ReservationView>();
  readonly #searches = new Map<string, Itinerary[]>();
  readonly #statuses = new Map<string, string>();
  readonly #tried = new Set<string>();
  #userFailed: string | undefined;
  #identityAsks = 0;
  readonly #missing = new Set<string>();
  #request = 0;
  #phase: 'listen' | 'work' | 'confirm' | 'execute' = 'listen';
  #proposal: WriteCall | undefined;
  #declines = 0;
  #written = false;
  #writeTries = 0;
  #refused: AirlineRefusal['action'] | undefined;
  /** A write since the profile was read: balances, certificates and the reservation list may have changed. */
  #profileStale = false;
  #transferred = false;
  /** The customer a conversation prefix identified ({@link knowUser}), until the oracle reads their details. */
  #knownUser: string | undefined;

  constructor(fuzz: AirlineFuzz, rng: Rng) {
    super();
    this.#fuzz = fuzz;
    this.#rng = rng;
  }

  /** The customer a conversation prefix identified: not asked for their user id; their details are read again. */
  override knowUser(userId: string): void {
    this.#knownUser = userId;
  }

  protected ingest(lookup: Lookup, content: string): void {
    const failed = content.startsWith('Error');
    switch (lookup.kind) {
      case 'user':
        if (failed) this.#userFailed = lookup.id;
        else {
          this.#user = parseSharedJson(content) as UserView;
          this.#profileStale = false;
        }
        break;
      case 'reservation':
        if (failed) this.#missing.add(lookup.id);
        else this.#reservations.set(lookup.id, parseSharedJson(content) as ReservationView);
        break;
      case 'search':
        this.#searches.set(lookup.key, failed ? [] : itineraries(content, lookup.stops, lookup.date));
        break;
      case 'status':
        this.#statuses.set(lookup.key, failed ? 'unknown' : content);
        break;
      case 'transfer':
        this.#transferred = true;
        break;
      case 'write':
        if (failed) break;
        this.#written = true;
        this.#profileStale = true;
        if (content.startsWith('{')) {
          const v = parseSharedJson(content) as ReservationView;
          this.#reservations.set(v.reservation_id, v);
        }
        break;
    }
  }

  #read(): ReadState {
    return {
      user: this.#user as UserView,
      reservations: this.#reservations,
      searches: this.#searches,
      statuses: this.#statuses,
    };
  }

  /** The lookup of the user id the customer wrote last and that was not tried yet. */
  #identify(): AssistantMessage | undefined {
    const text = this.said();
    const own = this.#fuzz.user.user_id;
    const ids = [...text.matchAll(USER_ID)]
      .map((m) => (m[0] === own.toLowerCase() ? own : m[0]))
      .filter((x) => !PAYMENT_ID.test(x));
    const id = ids.reverse().find((x) => !this.#tried.has(x));
    if (id === undefined) return undefined;
    this.#tried.add(id);
    this.#userFailed = undefined;
    return this.call({ kind: 'user', id }, 'get_user_details', { user_id: id });
  }

  protected decide(userSpoke: boolean): AssistantMessage {
    if (this.#transferred) return this.say(TRANSFER_TEXT);
    if (this.#user === undefined && this.#knownUser !== undefined) {
      const id = this.#knownUser;
      this.#knownUser = undefined;
      this.#tried.add(id);
      return this.call({ kind: 'user', id }, 'get_user_details', { user_id: id });
    }
    if (this.#user === undefined) {
      const lookup = this.#identify();
      if (lookup !== undefined) return lookup;
      if (++this.#identityAsks > 4) return this.say(identityFailed());
      return this.say(
        this.#userFailed !== undefined
          ? userNotFound(this.#rng, this.#userFailed)
          : askUserId(this.#rng, this.#identityAsks === 1),
      );
    }
    const last = this.lastSaid();
    if (this.#refused !== undefined && userSpoke && this.#phase === 'listen') {
      if (asksForHuman(last))
        return this.#transfer(
          'The customer asks for an exception to a policy refusal and wants a human agent.',
        );
      if (isPushBack(last))
        return this.say(`${refusalAgain(this.#rng, this.#refused)} ${anythingElse(this.#rng)}`);
    }
    const request = this.#fuzz.requests[this.#request];
    if (request === undefined) return this.say(anythingElse(this.#rng));
    if (this.#phase === 'listen') {
      if (!intentOf(request).test(this.said(this.window))) return this.say(howCanIHelp(this.#rng));
      this.#phase = 'work';
      this.#refused = undefined;
    }
    if (this.#phase === 'confirm' && this.#proposal !== undefined) return this.#onReply(request);
    if (this.#phase === 'execute' && this.#proposal !== undefined) {
      if (!this.#written) {
        if (this.#writeTries++ < 3) return this.#write(this.#proposal);
        this.#proposal = undefined;
        return this.#next('I am sorry, I could not complete that change.');
      }
      const done = this.#proposal;
      this.#proposal = undefined;
      const res = this.#reservationAfter(done);
      return this.#next(reportText(this.#rng, done, res, this.said()));
    }
    return this.#resolve(request);
  }

  #reservationAfter(call: WriteCall): ReservationView | undefined {
    const id = call.arguments.reservation_id as string | undefined;
    if (id !== undefined) return this.#reservations.get(id);
    if (call.name !== 'book_reservation')
      return reservationOf(this.#fuzz.requests[this.#request] as AirlineRequest, this.#read());
    const known = new Set(this.#user?.reservations ?? []);
    return [...this.#reservations.values()].find((r) => !known.has(r.reservation_id));
  }

  #write(call: WriteCall): AssistantMessage {
    return this.call({ kind: 'write', call }, call.name, call.arguments);
  }

  #transfer(summary: string): AssistantMessage {
    return this.call({ kind: 'transfer' }, 'transfer_to_human_agents', { summary });
  }

  #onReply(request: AirlineRequest): AssistantMessage {
    const previous = this.#proposal as WriteCall;
    if (isAffirmative(this.lastSaid())) {
      this.#phase = 'execute';
      this.#writeTries = 0;
      this.#written = false;
      return this.#write(previous);
    }
    this.#phase = 'work';
    this.#proposal = undefined;
    const out = this.#resolve(request);
    const again = this.#proposal as WriteCall | undefined;
    if (again !== undefined && JSON.stringify(again.arguments) === JSON.stringify(previous.arguments)) {
      this.#proposal = undefined;
      this.#phase = 'work';
      if (++this.#declines >= 2) return this.#next('Understood, I will not make that change.');
      return this.say('I am sorry about that. Could you tell me again exactly what you would like me to do?');
    }
    return out;
  }

  /** Finishes the current request with `text`, then waits for the customer's next message. */
  #next(text: string): AssistantMessage {
    this.#request++;
    this.#declines = 0;
    this.#phase = 'listen';
    const upcoming = this.#fuzz.requests[this.#request];
    if (upcoming === undefined || !requestStated(upcoming, this.said(this.window)))
      this.window = this.userTexts.length;
    return this.say(`${text} ${anythingElse(this.#rng)}`);
  }

  /** The lookup that finds the request's reservation among the customer's, or a question when it cannot. */
  #findReservation(r: AirlineRequest): AssistantMessage | undefined {
    if (!('reservation' in r)) return undefined;
    const ref = r.reservation;
    const user = this.#user as UserView;
    if (ref.strategy === 'id') {
      if (this.#reservations.has(ref.reservation_id)) return undefined;
      if (this.#missing.has(ref.reservation_id))
        return this.#next(`I am sorry, I could not find reservation ${ref.reservation_id}.`);
      return this.#readReservation(ref.reservation_id);
    }
    const own = user.reservations.flatMap((id) => this.#reservations.get(id) ?? []);
    if (reservationsMatching(ref, own).length > 0) return undefined;
    const unread = user.reservations.find((id) => !this.#reservations.has(id) && !this.#missing.has(id));
    if (unread !== undefined) return this.#readReservation(unread);
    return this.#next('I am sorry, I could not find a reservation matching that description.');
  }

  #readReservation(id: string): AssistantMessage {
    return this.call({ kind: 'reservation', id }, 'get_reservation_details', { reservation_id: id });
  }

  #lookup(missing: Missing): AssistantMessage {
    if ('search' in missing) {
      const q = missing.search;
      return this.call(
        { kind: 'search', key: searchKey(q), stops: q.stops, date: q.date },
        q.stops === 0 ? 'search_direct_flight' : 'search_onestop_flight',
        { origin: q.origin, destination: q.destination, date: q.date },
      );
    }
    const f = missing.status;
    return this.call({ kind: 'status', key: `${f.flight_number}:${f.date}` }, 'get_flight_status', {
      flight_number: f.flight_number,
      date: f.date,
    });
  }

  /** The status lookup of the first flight on or before today whose status is not known yet. */
  #pastStatus(res: ReservationView): AssistantMessage | undefined {
    const f = res.flights.find((x) => x.date <= TODAY && !this.#statuses.has(`${x.flight_number}:${x.date}`));
    return f === undefined ? undefined : this.#lookup({ status: f });
  }

  #resolve(r: AirlineRequest): AssistantMessage {
    const text = this.said(this.window);
    const rng = this.#rng;
    if (this.#profileStale) {
      const user = this.#user as UserView;
      return this.call({ kind: 'user', id: user.user_id }, 'get_user_details', { user_id: user.user_id });
    }
    const question = reservationQuestion(rng, r, text);
    if (question !== undefined) return this.say(question);
    const find = this.#findReservation(r);
    if (find !== undefined) return find;
    const detail = detailQuestion(rng, r, text);
    if (detail !== undefined) return this.say(detail);
    const read = this.#read();
    const res = reservationOf(r, read);
    const everything = this.said();
    if (r.kind === 'refusal') {
      const rv = res as ReservationView;
      if (r.action === 'cancel_ineligible') {
        const past = this.#pastStatus(rv);
        if (past !== undefined) return past;
      }
      if (r.action === 'compensation_ineligible') {
        const seg = segmentOf(r.flight, rv);
        const status = seg === undefined ? 'unknown' : statusOf(seg, read);
        if (isMissing(status)) return this.#lookup(status);
      }
      const out = this.#next(refusalText(rng, r, rv, read.user, everything));
      this.#refused = r.action;
      return out;
    }
    if (r.kind === 'transfer') {
      const past = this.#pastStatus(res as ReservationView);
      if (past !== undefined) return past;
      return this.#transfer(
        'The customer wants to cancel a reservation of which a flight has already been flown; the policy does not let me cancel it.',
      );
    }
    if (r.kind === 'information') return this.#inform(r, res as ReservationView, read, everything);
    if (r.kind === 'cancel_reservation') {
      const past = this.#pastStatus(res as ReservationView);
      if (past !== undefined) return past;
    }
    const call = writeCall(r, res, read);
    if (isMissing(call)) return this.#lookup(call);
    this.#proposal = call;
    this.#phase = 'confirm';
    return this.say(confirmationText(rng, call, r, res, read.user, everything));
  }

  #inform(
    r: Extract<AirlineRequest, { kind: 'information' }>,
    res: ReservationView,
    read: ReadState,
    everything: string,
  ): AssistantMessage {
    if (r.topic === 'flight_status') {
      const seg = segmentOf(r.flight, res);
      if (seg === undefined)
        return this.#next('I am sorry, I could not find that flight on the reservation.');
      const status = statusOf(seg, read);
      if (isMissing(status)) return this.#lookup(status);
      return this.#next(infoText(this.#rng, r, res, everything, { status, flight: seg }));
    }
    if (r.topic === 'refund_amount')
      return this.#next(infoText(this.#rng, r, res, everything, { amount: refundAmount(res) }));
    let amount: number;
    if (r.legs !== undefined) {
      const changed = changedFlights(res, r.legs, read);
      if (isMissing(changed)) return this.#lookup(changed);
      amount = changed.amount;
    } else {
      const cost = cabinChangeCost(res, r.cabin ?? res.cabin, read);
      if (isMissing(cost)) return this.#lookup(cost);
      amount = cost;
    }
    return this.#next(infoText(this.#rng, r, res, everything, { amount }));
  }
}

/** A search's result as itineraries (a direct flight has the searched date; one-stop legs carry theirs). */
function itineraries(content: string, stops: 0 | 1, date: string): Itinerary[] {
  if (stops === 0)
    return (parseSharedJson(content) as FlightView[]).map((flight) => ({ legs: [{ flight, date }] }));
  return (parseSharedJson(content) as FlightView[][]).map((pair) => ({
    legs: pair.map((flight) => ({ flight, date: flight.date ?? date })),
  }));
}
