import type { Rng } from '../../../core/rng.js';
import type { Situation } from '../../../sim/scripted/behaviour.js';
import { lastQuestion } from '../../../sim/scripted/grammar.js';
import { ScriptedUser } from '../../../sim/scripted/scripted-user.js';
import type { Behaviour, BehaviourEntry } from '../../../tasks/behaviour.js';
import {
  addressRefText,
  countedList,
  itemText,
  listText,
  mentionText,
  orderText,
  paymentText,
  variantText,
} from '../synthesis/phrases.js';
import type { ItemMention, PaymentRef } from '../synthesis/references.js';
import type { RetailFuzz, RetailRequest } from '../synthesis/requests.js';
import { proposalMatches } from './mentions.js';
import * as R from './user-replies.js';
import * as T from './user-texts.js';

export { proposalMatches } from './mentions.js';

/** A behaviour with nothing special: a friendly user who states every request in full. */
const PLAIN: Behaviour = { persona: 'friendly', knowledge: [], events: [] };

const PROPOSAL = /(go ahead|proceed|confirm|want me to|shall i)/;
const REPORT =
  /(done|has been|have been|is now|will now|all set|requested|updated|cancelled|switched|great news)/;
const REFUSAL = /(sorry|unfortunately|cannot|can't|unable|not possible|afraid)/;
const NOT_FOUND = /(could not|couldn't) find|does not match|doesn't match/;
const GAVE_UP = /(will not make that change|could not complete|could not identify)/;
const MORE = /(anything else|something else|what else|how can i help|what can i do for you|help you with)/;

/**
 * The scripted customer of the retail domain (docs/design.md §5, docs/conversations.md): plays the task's requests
 * one at a time and enacts the task's behaviour. It opens with a request (in full, with only its intent, or with
 * a vague or soon-changed detail), gives its identity when asked (a wrong detail first when its knowledge says
 * so), answers only the detail the agent asks for, says yes to a proposal that matches its final intent and
 * changes its mind at a proposal built on a detail it means to change, pushes back on a refusal or asks for a
 * human, asks a side question, and ends with `###STOP###` only after the agent reports the last request done —
 * never in the same turn as a confirmation (tau2-bench pitfall D22). Every line goes through the persona's style.
 *
 * Limits: it recognises the agent's intent from keywords, so with an LLM agent it is a best-effort partner for
 * smoke tests, not a faithful customer.
 */
export class RetailScriptedUser extends ScriptedUser {
  readonly #fuzz: RetailFuzz;
  #identified = false;
  /** The agent identified this customer earlier in the conversation (a prefix): no identity unasked. */
  #known = false;
  #wrongGiven = false;
  /** Whether the order id with a wrong digit was given, and whether it was corrected. */
  #wrongOrderGiven = false;
  #wrongOrderFixed = false;
  #confirmed = false;
  readonly #stated = new Set<number>();
  readonly #nudged = new Set<number>();
  readonly #partial = new Set<number>();
  /** `<request>:<field>` of vague mentions already made, and of decoys already named / withdrawn. */
  readonly #vagueGiven = new Set<string>();
  #decoyNamed = false;
  #decoyWithdrawn = false;
  #pushed = false;
  #askedHuman = false;
  #sidePending = false;
  #sideDone = false;
  /** Whether the last request handled was refused (the closing remark then thanks without calling it sorted). */
  #refused = false;

  constructor(fuzz: RetailFuzz, rng: Rng, behaviour?: Behaviour) {
    super(rng, behaviour ?? PLAIN);
    this.#fuzz = fuzz;
  }

  knownToAgent(): void {
    this.#known = true;
    this.#identified = true;
  }

  #decoy(request = this.request): BehaviourEntry | undefined {
    return this.entry('change_of_mind', request) ?? this.entry('reject_proposal', request);
  }

  #stop(): string {
    const requests = this.#fuzz.requests;
    return R.stop(this.rng, T.topicOf(requests[Math.min(this.request, requests.length) - 1]), this.#refused);
  }

  #current(): RetailRequest | undefined {
    return this.#fuzz.requests[this.request];
  }

  /** The wording of request `i` for a statement: vague mentions and decoys replace exact references. */
  #wording(i: number): T.Wording {
    const r = this.#fuzz.requests[i] as RetailRequest;
    const w: { order?: string; payment?: string; reason?: string; items?: string; address?: string } = {};
    if (this.entry('ambiguous_reference', i, 'address') !== undefined) {
      w.address = T.VAGUE_ADDRESS;
      this.#vagueGiven.add(`${i}:address`);
    }
    const vagueOrder = this.entry('ambiguous_reference', i, 'order');
    if (vagueOrder !== undefined) {
      w.order =
        this.rng.pick(['my order with ', 'the order with ']) +
        mentionText(vagueOrder.mention as ItemMention, this.rng);
      this.#vagueGiven.add(`${i}:order`);
    }
    const wrongOrder = this.#wrongOrder(i);
    if (wrongOrder !== undefined) w.order = wrongOrder;
    const vaguePay = this.entry('ambiguous_reference', i, 'payment');
    if (vaguePay !== undefined) {
      w.payment = paymentText(vaguePay.vague as PaymentRef);
      this.#vagueGiven.add(`${i}:payment`);
    }
    const vagueItem = this.entry('ambiguous_reference', i, 'item');
    if (vagueItem !== undefined && 'items' in r && r.items !== undefined) {
      const name = `the ${String(vagueItem.product_name).toLowerCase()}`;
      w.items = r.items
        .map((x) => ('replacement' in x ? `${name} for ${variantText(x.replacement, this.rng)}` : name))
        .join(' and ');
      this.#vagueGiven.add(`${i}:item`);
    }
    const decoy = this.#decoy(i);
    if (decoy !== undefined && i === this.request) {
      if (decoy.field === 'payment') w.payment = paymentText(decoy.first as PaymentRef, this.rng);
      else w.reason = String(decoy.first);
      this.#decoyNamed = true;
    }
    return w;
  }

  /** How request `i` is first brought up. */
  #statement(i: number): string {
    this.#stated.add(i);
    const r = this.#fuzz.requests[i] as RetailRequest;
    if (this.entry('partial_info', i) !== undefined && r.kind !== 'refusal') {
      this.#partial.add(i);
      return T.partialStatement(this.rng, r);
    }
    return T.statement(this.rng, r, this.#wording(i));
  }

  /** Moves to the next request: a side question, its statement, a nudge, or the stop message (`situation`: what
   * `prefix` reacts to — a done action or a refusal). */
  #advance(prefix: string, situation: Situation): string {
    const finished = this.request;
    this.request++;
    this.#refused = situation === 'refusal';
    this.#confirmed = false;
    this.#decoyNamed = false;
    this.#decoyWithdrawn = false;
    this.#pushed = false;
    const side = this.entry('side_question', finished);
    if (side !== undefined && !this.#sideDone) {
      this.#sideDone = true;
      this.#sidePending = true;
      this.log.note('side_question');
      return this.styled(`${prefix} ${R.sideQuestion(this.rng, String(side.topic))}`, false, situation);
    }
    return this.#continue((next) => `${prefix} ${this.#joined(next)}`, situation);
  }

  /** `next` after a connector ("Also, i'd like …" keeps "I" upper-case). */
  #joined(next: string): string {
    const c = R.connector(this.rng);
    if (c === '' || /[.:]$/.test(c)) return `${c} ${next}`.trim();
    return `${c} ${this.#lower(next)}`;
  }

  /** The next request (wrapped), a nudge when it was already stated, or the stop message. */
  #continue(wrap: (next: string) => string, situation: Situation): string {
    const next = this.#current();
    if (next === undefined) return this.#stop();
    if (this.#stated.has(this.request)) {
      if (!this.#nudged.has(this.request)) {
        this.#nudged.add(this.request);
        return this.styled(R.nudge(this.rng, T.topicOf(next)), false, situation);
      }
      return this.styled(T.statement(this.rng, next), false, situation);
    }
    return this.styled(wrap(this.#statement(this.request)), false, situation);
  }

  /** `order <wrong id>` the first time request `i`'s order is named, when the knowledge says so. */
  #wrongOrder(i: number): string | undefined {
    const wrong = this.entry('wrong_order_id', i);
    if (wrong === undefined || this.#wrongOrderGiven) return undefined;
    this.#wrongOrderGiven = true;
    return `order ${String(wrong.value)}`;
  }

  #identity(): string {
    const wrong = this.entry('wrong_detail');
    const u = this.#fuzz.user;
    if (wrong !== undefined && !this.#wrongGiven) {
      this.#wrongGiven = true;
      this.log.note('wrong_detail');
      return R.identityText(
        this.rng,
        u,
        wrong.field === 'email' ? { email: String(wrong.value) } : { zip: String(wrong.value) },
      );
    }
    this.#identified = true;
    return R.identityText(this.rng, u);
  }

  protected reply(agent: string): string {
    const request = this.#current();
    if (this.turns > 10 + 12 * this.#fuzz.requests.length) return this.#stop();
    const text = agent.toLowerCase();
    if (text.includes('transferred to a human')) return R.transferred();
    if (request === undefined && !this.#sidePending) return this.#stop();
    if (this.turns === 1) return this.#open();
    const asksIdentity = /(e-?mail|zip)/.test(lastQuestion(agent));
    if (
      (!this.#identified && /(e-?mail|zip|identity|verify|authenticat|account)/.test(text)) ||
      asksIdentity
    ) {
      if (this.#wrongGiven && NOT_FOUND.test(text))
        return this.styled(R.correctIdentity(this.rng, this.#identity()));
      const forgot = this.behaviour.knowledge.some((k) => k.kind === 'no_email');
      return this.styled(R.identify(this.rng, this.#identity(), forgot && /e-?mail/.test(text)));
    }
    const wrongOrder = this.#wrongOrderGiven && !this.#wrongOrderFixed && request !== undefined;
    if (wrongOrder && 'order' in request && NOT_FOUND.test(text) && /order/.test(text)) {
      this.#wrongOrderFixed = true;
      this.log.note('wrong_order_id');
      return this.styled(R.correctOrder(this.rng, orderText(this.rng, request.order)));
    }
    if (this.#sidePending) {
      this.#sidePending = false;
      return this.#continue((next) => R.afterSide(this.rng, next), 'answer');
    }
    if (request === undefined) return this.#stop();
    if (text.includes('tell me again')) this.#confirmed = false;
    if (GAVE_UP.test(text)) return this.#advance(R.acceptRefusal(this.rng), 'refusal');
    const isWrite = request.kind !== 'information' && request.kind !== 'refusal';
    if (isWrite && !this.#confirmed && PROPOSAL.test(text)) return this.#onProposal(request, text);
    if (isWrite && this.#confirmed && REPORT.test(text)) return this.#advance(R.thanks(this.rng), 'done');
    if (request.kind === 'refusal' && REFUSAL.test(text)) {
      if (this.entry('push_back') !== undefined && !this.#pushed) {
        this.#pushed = true;
        this.log.note('push_back');
        return this.styled(R.pushBack(this.rng, T.topicOf(request)), false, 'refusal');
      }
      if (this.entry('transfer') !== undefined && !this.#askedHuman) {
        this.#askedHuman = true;
        this.log.note('transfer');
        return this.styled(R.askHuman(this.rng), false, 'refusal');
      }
      return this.#advance(R.acceptRefusal(this.rng), 'refusal');
    }
    if (request.kind === 'information' && /\$\d/.test(text)) return this.#advance(R.thanks(this.rng), 'done');
    const q = lastQuestion(agent);
    const answer = q === '' ? undefined : this.#answer(request, q);
    if (answer !== undefined) return this.styled(answer);
    if (MORE.test(text)) return this.#continue((next) => next, 'answer');
    return this.styled(R.decline(this.rng, T.statement(this.rng, request)), true);
  }

  #open(): string {
    let core = this.#statement(0);
    if (this.entry('two_requests', 0) !== undefined && this.#fuzz.requests.length > 1) {
      this.log.note('two_requests');
      core = `${core} ${this.rng.pick(['Also,', 'And', 'Oh, and', 'Plus,'])} ${this.#lower(this.#statement(1))}`;
    }
    const early = this.rng.chance(0.3) && !this.#known;
    return this.styled(T.opening(this.rng, core, early ? this.#identity() : undefined), false, 'open');
  }

  #lower(text: string): string {
    return /^I\b/.test(text) ? text : `${text[0]?.toLowerCase()}${text.slice(1)}`;
  }

  #onProposal(request: RetailRequest, text: string): string {
    const decoy = this.#decoy();
    if (decoy !== undefined && this.#decoyNamed && !this.#decoyWithdrawn) {
      this.#decoyWithdrawn = true;
      this.log.note(decoy.kind);
      const final =
        decoy.field === 'payment' && 'payment' in request
          ? paymentText(request.payment, this.rng)
          : request.kind === 'cancel_pending_order'
            ? request.reason
            : '';
      return this.styled(
        R.changeMind(
          this.rng,
          decoy.kind === 'reject_proposal',
          final,
          decoy.field === 'payment' ? 'payment' : 'reason',
        ),
        true,
      );
    }
    if (proposalMatches(request, text)) {
      this.#confirmed = true;
      return this.styled(R.yes(this.rng, T.subjectOf(this.rng, request)), false, 'confirm');
    }
    return this.styled(R.decline(this.rng, T.statement(this.rng, request)), true);
  }

  /** The answer to a question about one detail of the request, or undefined when the question is about none. */
  #answer(r: RetailRequest, q: string): string | undefined {
    const i = this.request;
    const rng = this.rng;
    const give = (field: string): boolean => {
      // true: give the vague form now (first time asked); false: the exact one
      const vague = this.entry('ambiguous_reference', i, field);
      if (vague === undefined) return false;
      if (!this.#vagueGiven.has(`${i}:${field}`)) {
        this.#vagueGiven.add(`${i}:${field}`);
        return true;
      }
      this.log.note('ambiguous_reference');
      return false;
    };
    const detail = (s: string): string => {
      if (this.#partial.has(i)) this.log.note('partial_info');
      return s;
    };
    if (/(reason|no longer needed|by mistake)/.test(q) && r.kind === 'cancel_pending_order') {
      const decoy = this.#decoy();
      if (decoy?.field === 'reason' && !this.#decoyWithdrawn) {
        this.#decoyNamed = true;
        return detail(R.answerReason(rng, String(decoy.first)));
      }
      return detail(R.answerReason(rng, r.reason));
    }
    if (
      /(replace|instead|new option)/.test(q) &&
      'items' in r &&
      r.kind !== 'return_delivered_order_items' &&
      r.kind !== 'refusal'
    )
      return detail(
        R.answerReplacement(rng, listText(r.items.map((s) => variantText(s.replacement, this.rng)))),
      );
    if (/(item|product)/.test(q) && 'items' in r && r.items !== undefined) {
      if (give('item')) {
        const vague = this.entry('ambiguous_reference', i, 'item');
        return detail(R.answerItems(rng, `the ${String(vague?.product_name).toLowerCase()}`));
      }
      const items =
        r.kind === 'return_delivered_order_items' || r.kind === 'refusal'
          ? countedList(
              r.items ?? [],
              (x) => itemText(x, this.rng),
              (x) => itemText(x),
            )
          : listText(
              r.items.map((s) => `${itemText(s.item, this.rng)} for ${variantText(s.replacement, this.rng)}`),
            );
      return detail(R.answerItems(rng, items));
    }
    if (/(payment|pay\b|card|refund)/.test(q) && 'payment' in r) {
      if (give('payment')) {
        const vague = this.entry('ambiguous_reference', i, 'payment');
        return detail(R.answerPayment(rng, vague?.vague as PaymentRef));
      }
      const decoy = this.#decoy();
      if (decoy?.field === 'payment' && !this.#decoyWithdrawn) {
        this.#decoyNamed = true;
        return detail(R.answerPayment(rng, decoy.first as PaymentRef));
      }
      return detail(R.answerPayment(rng, r.payment));
    }
    if (/(address|ship)/.test(q) && 'address' in r)
      return detail(R.answerAddress(rng, give('address') ? T.VAGUE_ADDRESS : addressRefText(r.address)));
    if (/order/.test(q) && 'order' in r) {
      if (give('order')) {
        const vague = this.entry('ambiguous_reference', i, 'order');
        return detail(R.answerOrder(rng, `my order with ${mentionText(vague?.mention as ItemMention)}`));
      }
      return detail(R.answerOrder(rng, this.#wrongOrder(i) ?? orderText(rng, r.order)));
    }
    return undefined;
  }
}
