import type { Rng } from '../../../core/rng.js';
import type { Situation } from '../../../sim/scripted/behaviour.js';
import { lastQuestion } from '../../../sim/scripted/grammar.js';
import type { Remarks } from '../../../sim/scripted/persona-phrases.js';
import { ScriptedUser } from '../../../sim/scripted/scripted-user.js';
import {
  acceptRefusal,
  askHuman,
  connector,
  decline,
  thanks,
  transferred,
  yes,
} from '../../../sim/scripted/user-phrases.js';
import type { Behaviour } from '../../../tasks/behaviour.js';
import type { AirlineFuzz, AirlineRequest } from '../synthesis/requests.js';
import { CABIN_WORDS, proposalMatches, REASON_TEXT } from './mentions.js';
import { AIRLINE_CLOSERS } from './persona-remarks.js';
import * as R from './user-replies.js';
import * as T from './user-texts.js';

/** A behaviour with nothing special: a friendly user who states every request in full. */
const PLAIN: Behaviour = { persona: 'friendly', knowledge: [], events: [] };

const PROPOSAL = /(go ahead|proceed|confirm|want me to|shall i)/;
const REPORT = /(done|all set|has been|is now|now has|is booked)/;
const REFUSAL = /(sorry|unfortunately|cannot|can't|afraid)/;
const NOT_FOUND = /(could not|couldn't) find|no profile/;
const GAVE_UP =
  /(will not make that change|could not complete|could not find a reservation|could not find reservation|could not find that flight)/;
const MORE = /(anything else|something else|what else|how can i help|what can i do for you|help you with)/;
const STATUS = /\b(available|landed|cancelled|delayed|flying|on time)\b/;

/**
 * The scripted customer of the airline domain (docs/design.md §5, docs/airline.md "Scripted roles"): plays the
 * task's requests one at a time and enacts its behaviour. It opens with a request (in full, or with only its
 * intent), gives its user id when asked (a mistyped one first when its knowledge says so), answers only the
 * detail the agent asks for, says yes to a proposal that names what it wants, pushes back on a refusal or asks
 * for a human when its events say so, and ends with `###STOP###` after the last request — never in the same turn
 * as a yes. Every line goes through the persona's style.
 */
export class AirlineScriptedUser extends ScriptedUser {
  readonly #fuzz: AirlineFuzz;
  #wrongGiven = false;
  /** Whether the correct user id was given. */
  #identified = false;
  /** The agent identified this customer earlier in the conversation (a prefix): no user id unasked. */
  #known = false;
  #confirmed = false;
  readonly #stated = new Set<number>();
  readonly #partial = new Set<number>();
  readonly #nudged = new Set<number>();
  #pushed = false;
  #askedHuman = false;
  /** Whether the last request handled was refused (the closing remark then accepts it instead of calling it sorted). */
  #refused = false;

  constructor(fuzz: AirlineFuzz, rng: Rng, behaviour?: Behaviour) {
    super(rng, behaviour ?? PLAIN);
    this.#fuzz = fuzz;
  }

  protected override closers(): Remarks {
    return AIRLINE_CLOSERS;
  }

  #current(): AirlineRequest | undefined {
    return this.#fuzz.requests[this.request];
  }

  #stop(): string {
    const requests = this.#fuzz.requests;
    const last = requests[Math.min(this.request, requests.length) - 1];
    // out of turns on a request that can only be refused, or after every request with the last one refused
    const open = this.#current();
    const refused = open === undefined ? this.#refused || last?.kind === 'refusal' : open.kind === 'refusal';
    return R.stop(this.rng, T.topicOf(last), refused);
  }

  #statement(i: number): string {
    this.#stated.add(i);
    const r = this.#fuzz.requests[i] as AirlineRequest;
    if (this.entry('partial_info', i) !== undefined && r.kind !== 'refusal' && r.kind !== 'information') {
      this.#partial.add(i);
      return T.partialStatement(this.rng, r);
    }
    return T.statement(this.rng, r);
  }

  knownToAgent(): void {
    this.#known = true;
    this.#identified = true;
  }

  #identity(): string {
    const wrong = this.entry('wrong_detail');
    if (wrong !== undefined && !this.#wrongGiven && typeof wrong.value === 'string') {
      this.#wrongGiven = true;
      this.log.note('wrong_detail');
      return R.identityText(this.rng, wrong.value);
    }
    this.#identified = true;
    return R.identityText(this.rng, this.#fuzz.user.user_id);
  }

  #lower(text: string): string {
    return /^I\b/.test(text) ? text : `${text[0]?.toLowerCase()}${text.slice(1)}`;
  }

  #open(): string {
    let core = this.#statement(0);
    if (this.entry('two_requests', 0) !== undefined && this.#fuzz.requests.length > 1) {
      this.log.note('two_requests');
      core = `${core} ${this.rng.pick(['Also,', 'And', 'Oh, and', 'Plus,'])} ${this.#lower(this.#statement(1))}`;
    }
    const early = this.rng.chance(0.3) && !this.#known;
    return this.styled(R.opening(this.rng, core, early ? this.#identity() : undefined), false, 'open');
  }

  /** Moves to the next request after `prefix` (a reaction to a done action or a refusal). */
  #advance(prefix: string, situation: Situation): string {
    this.request++;
    this.#refused = situation === 'refusal';
    this.#confirmed = false;
    this.#pushed = false;
    return this.#continue(
      (next) => {
        const c = connector(this.rng);
        const joined = c === '' || /[.:]$/.test(c) ? `${c} ${next}`.trim() : `${c} ${this.#lower(next)}`;
        return `${prefix} ${joined}`;
      },
      situation,
      prefix,
    );
  }

  #continue(wrap: (next: string) => string, situation: Situation, prefix = ''): string {
    const next = this.#current();
    if (next === undefined)
      return situation === 'refusal' && prefix !== ''
        ? this.styled(`${prefix} ${R.stopAfterRefusal(this.rng)}`, true)
        : this.#stop();
    if (this.#stated.has(this.request)) {
      if (!this.#nudged.has(this.request)) {
        this.#nudged.add(this.request);
        return this.styled(
          `${thanks(this.rng)} And ${this.#lower(T.statement(this.rng, next))}`,
          false,
          situation,
        );
      }
      return this.styled(T.statement(this.rng, next), false, situation);
    }
    return this.styled(wrap(this.#statement(this.request)), false, situation);
  }

  protected reply(agent: string): string {
    const request = this.#current();
    if (this.turns > 10 + 14 * this.#fuzz.requests.length) return this.#stop();
    const text = agent.toLowerCase();
    if (text.includes('transferred to a human')) return transferred();
    if (request === undefined) return this.#stop();
    if (this.turns === 1) return this.#open();
    const q = lastQuestion(agent);
    if ((!this.#identified && /user id/.test(text)) || /user id/.test(q)) {
      if (this.#wrongGiven && NOT_FOUND.test(text))
        return this.styled(R.correctIdentity(this.rng, this.#identity()));
      return this.styled(R.identify(this.rng, this.#identity()));
    }
    if (/get_user_details|profile/.test(text)) this.#identified = true;
    if (GAVE_UP.test(text)) return this.#advance(acceptRefusal(this.rng), 'refusal');
    const isWrite =
      request.kind !== 'information' && request.kind !== 'refusal' && request.kind !== 'transfer';
    if (isWrite && !this.#confirmed && PROPOSAL.test(text)) {
      if (proposalMatches(request, text)) {
        this.#confirmed = true;
        return this.styled(yes(this.rng, T.subjectOf(this.rng, request)), false, 'confirm');
      }
      return this.styled(decline(this.rng, T.statement(this.rng, request)), true);
    }
    if (isWrite && this.#confirmed && REPORT.test(text)) return this.#advance(thanks(this.rng), 'done');
    if (request.kind === 'refusal' && REFUSAL.test(text)) {
      if (this.entry('push_back') !== undefined && !this.#pushed) {
        this.#pushed = true;
        this.log.note('push_back');
        return this.styled(R.pushBack(this.rng, T.topicOf(request)), false, 'refusal');
      }
      if (this.entry('transfer') !== undefined && !this.#askedHuman) {
        this.#askedHuman = true;
        this.log.note('transfer');
        return this.styled(askHuman(this.rng), false, 'refusal');
      }
      return this.#advance(acceptRefusal(this.rng), 'refusal');
    }
    if (request.kind === 'information') {
      const told =
        request.topic === 'flight_status' ? STATUS.test(text) && MORE.test(text) : /\$\d/.test(text);
      if (told) return this.#advance(thanks(this.rng), 'done');
    }
    const answer = q === '' ? undefined : this.#answer(request, q);
    if (answer !== undefined) {
      if (this.#partial.has(this.request)) this.log.note('partial_info');
      return this.styled(R.answer(this.rng, answer));
    }
    if (MORE.test(text)) return this.#continue((next) => next, 'answer');
    return this.styled(decline(this.rng, T.statement(this.rng, request)), true);
  }

  /** The detail a question asks for, as the customer says it, or undefined when it asks for none it knows. */
  #answer(r: AirlineRequest, q: string): string | undefined {
    const rng = this.rng;
    const book = r.kind === 'book_reservation' ? r : undefined;
    if (/insurance/.test(q) && book !== undefined)
      return book.insurance ? 'yes, I would like the travel insurance' : 'no insurance, thanks';
    if (/reason/.test(q) && 'reason' in r) return `because ${REASON_TEXT[r.reason]}`;
    if (/payment|pay\b|charge/.test(q)) {
      if (book !== undefined) return T.paymentsText(book.payments);
      if ('payment' in r) return r.payment.phrase;
    }
    if (/cabin/.test(q) && 'cabin' in r && r.cabin !== undefined) return CABIN_WORDS[r.cabin];
    if (/bags?\b/.test(q)) {
      if (book !== undefined) return T.bagsText(book.total_baggages);
      if (r.kind === 'add_bags') return T.bagsText(r.add);
    }
    if (/passenger|travell?ing/.test(q)) {
      if (book !== undefined) return T.passengersText(book);
      if (r.kind === 'change_passengers') return r.edits.map(T.editText).join(', and ');
    }
    if (/from and to|origin and destination/.test(q) && book !== undefined) return T.tripText(rng, book);
    if (/return/.test(q) && book?.return !== undefined) return book.return.phrase;
    if (/flight/.test(q)) {
      if (book !== undefined) return book.outbound.phrase;
      if ('legs' in r && r.legs !== undefined) return T.legsText(rng, r.legs);
      if ('flight' in r) return r.flight.phrase;
    }
    if (/reservation/.test(q) && 'reservation' in r) return T.reservationText(r.reservation);
    return undefined;
  }
}
