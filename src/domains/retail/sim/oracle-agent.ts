import type { Rng } from '../../../core/rng.js';
import { parseSharedJson } from '../../../core/shared-json.js';
import type { AssistantMessage } from '../../../sim/messages.js';
import {
  asksForHuman,
  isAffirmative,
  isPushBack,
  lastEmail,
  lastZip,
} from '../../../sim/scripted/replies.js';
import { ScriptedAgent } from '../../../sim/scripted/scripted-agent.js';
import type { Behaviour } from '../../../tasks/behaviour.js';
import type { UserState } from '../synthesis/fuzzify.js';
import { matchOrders } from '../synthesis/references.js';
import type { RetailFuzz, RetailRequest } from '../synthesis/requests.js';
import { resolveRequest } from '../synthesis/resolve.js';
import type { OrderView, ProductView, UserView } from '../synthesis/views.js';
import {
  anythingElse,
  askIdentity,
  howCanIHelp,
  identityFailed,
  identityNotFound,
  orderNotFound,
  replacementNote,
  sideAnswer,
  TRANSFER_TEXT,
} from './agent-texts.js';
import { intentOf, orderMentioned, requestStated } from './mentions.js';
import {
  foreignOrder,
  productToRead,
  refusalScope,
  sameAsOtherOrder,
  slotStep,
  unknownOrderId,
} from './oracle-slots.js';
import {
  confirmationText,
  infoText,
  refusalAgain,
  refusalText,
  reportText,
  totalExpression,
  userLookup,
  type WriteCall,
  writeCall,
} from './oracle-steps.js';

type Lookup =
  | { readonly kind: 'find' }
  | { readonly kind: 'user' }
  | { readonly kind: 'order'; readonly key: string }
  | { readonly kind: 'product'; readonly key: string }
  | { readonly kind: 'calc' | 'types' | 'item' | 'transfer' }
  | { readonly kind: 'write'; readonly call: WriteCall };

const SIDE_PRODUCTS = /(kinds|types) of products/;
const SIDE_REFUND = /how long.*refund|refund.*(take|come through|arrive|show up)/;

export { isAffirmative } from '../../../sim/scripted/replies.js';

/**
 * The oracle agent of the retail domain (docs/design.md §5, docs/conversations.md). It receives the task's
 * requests fuzzified (the same descriptions the user has, no ids) and reads nothing but the conversation's
 * messages: it authenticates with the identity the customer wrote (and asks again when the lookup fails), acts on
 * a request only once the customer has brought it up, asks for each detail the customer has not given yet and
 * "which one" when a description matches several orders, cards or items, resolves every reference through read
 * tools (one tool call per turn), adds amounts with `calculate`, proposes every write and waits for a yes —
 * re-proposing when the customer changes a detail — tells information values, refuses what the policy forbids,
 * holds the refusal on push-back and transfers to a human when asked after it.
 */
export class RetailOracleAgent extends ScriptedAgent<Lookup> {
  readonly #fuzz: RetailFuzz;
  readonly #rng: Rng;
  readonly #behaviour: Behaviour | undefined;
  #userId: string | undefined;
  #user: UserView | undefined;
  readonly #orders = new Map<string, OrderView>();
  readonly #products = new Map<string, ProductView>();
  #request = 0;
  #phase: 'listen' | 'work' | 'confirm' | 'execute' = 'listen';
  #proposal: WriteCall | undefined;
  #declines = 0;
  #written = false;
  #writeTries = 0;
  #userRefreshed = false;
  #profileStale = false;
  readonly #tried = new Set<string>();
  /** Order ids the customer wrote that `get_order_details` did not find. */
  readonly #missingOrders = new Set<string>();
  /** Whether the order number the customer corrects to is to be read (again) after a failed lookup. */
  #recheck = false;
  #findFailed = false;
  #findField: 'email' | 'zip' = 'email';
  #identityAsks = 0;
  #total: number | undefined;
  #calculated = false;
  #itemChecked = false;
  #types: string[] | undefined;
  #sideAnswered = -1;
  #refused = false;
  /** The action of the last refusal (its reason is restated on push-back). */
  #refusedAction = '';
  #transferred = false;
  #read: UserState | undefined;
  #known = false; // a prefix identified the customer (knowUser), until the oracle's own lookup

  constructor(fuzz: RetailFuzz, rng: Rng, behaviour?: Behaviour) {
    super();
    this.#fuzz = fuzz;
    this.#rng = rng;
    this.#behaviour = behaviour;
  }

  /** A prefix identified the customer: no asking; a lookup by the task's reference (the policy's identification). */
  override knowUser(): void {
    this.#known = true;
  }

  protected ingest(lookup: Lookup, content: string): void {
    this.#read = undefined;
    if (content.startsWith('Error')) {
      if (lookup.kind === 'find') this.#findFailed = true;
      if (lookup.kind === 'order') {
        this.#missingOrders.add(lookup.key);
        this.#recheck = true;
      }
      return;
    }
    switch (lookup.kind) {
      case 'find':
        this.#userId = content;
        break;
      case 'user':
        this.#user = parseSharedJson(content) as UserView;
        this.#profileStale = false;
        break;
      case 'order':
        this.#orders.set(lookup.key, parseSharedJson(content) as OrderView);
        break;
      case 'product':
        this.#products.set(lookup.key, parseSharedJson(content) as ProductView);
        break;
      case 'calc':
        this.#total = Number(content);
        break;
      case 'types':
        this.#types = Object.keys(parseSharedJson(content) as Record<string, string>);
        break;
      case 'transfer':
        this.#transferred = true;
        break;
      case 'item':
        break;
      case 'write': {
        this.#written = true;
        this.#profileStale = true;
        const value = parseSharedJson(content) as OrderView | UserView;
        if ('order_id' in value) this.#orders.set(value.order_id, value);
        else this.#user = value;
        break;
      }
    }
  }

  /** What the agent has read, as a state to resolve in (rebuilt after each tool result). */
  #state(): UserState | undefined {
    const user = this.#user;
    if (user === undefined) return undefined;
    this.#read ??= {
      user,
      orders: user.orders.flatMap((id) => {
        const o = this.#orders.get(id);
        return o === undefined ? [] : [o];
      }),
      product: (id) => this.#products.get(id),
    };
    return this.#read;
  }

  /** The lookup for the identity the customer gave last, when it has not been tried yet (or the known user's). */
  #identify(): AssistantMessage | undefined {
    const find = this.#known ? userLookup(this.#fuzz.user) : undefined;
    this.#known = false;
    if (find !== undefined) return this.call({ kind: 'find' }, find.name, find.args);
    const said = this.said();
    const u = this.#fuzz.user;
    const email = lastEmail(said);
    if (u.strategy === 'email' && email !== undefined) {
      if (this.#tried.has(email)) return undefined;
      this.#tried.add(email);
      this.#findField = 'email';
      this.#findFailed = false;
      const exact = email === u.email.toLowerCase() ? u.email : email;
      return this.call({ kind: 'find' }, 'find_user_id_by_email', { email: exact });
    }
    const zip = lastZip(said);
    if (u.strategy === 'name_zip' && zip !== undefined && said.includes(u.last_name.toLowerCase())) {
      if (this.#tried.has(zip)) return undefined;
      this.#tried.add(zip);
      this.#findField = 'zip';
      this.#findFailed = false;
      return this.call({ kind: 'find' }, 'find_user_id_by_name_zip', {
        first_name: u.first_name,
        last_name: u.last_name,
        zip,
      });
    }
    return undefined;
  }

  protected decide(userSpoke: boolean): AssistantMessage {
    if (this.#transferred) return this.say(TRANSFER_TEXT);
    if (this.#userId === undefined) {
      const lookup = this.#identify();
      if (lookup !== undefined) return lookup;
      if (++this.#identityAsks > 4) return this.say(identityFailed());
      return this.say(
        this.#findFailed
          ? identityNotFound(this.#rng, this.#findField)
          : askIdentity(this.#rng, this.#identityAsks === 1),
      );
    }
    if (this.#user === undefined)
      return this.call({ kind: 'user' }, 'get_user_details', { user_id: this.#userId });
    const lastText = this.lastSaid();
    const fresh = userSpoke && this.#sideAnswered < this.userTexts.length;
    if (fresh && this.#phase !== 'confirm' && SIDE_PRODUCTS.test(lastText)) {
      if (this.#types === undefined) return this.call({ kind: 'types' }, 'list_all_product_types', {});
      this.#sideAnswered = this.userTexts.length;
      return this.say(`${sideAnswer(this.#rng, 'products', this.#types)} ${anythingElse(this.#rng)}`);
    }
    if (
      !userSpoke &&
      this.#types !== undefined &&
      this.#sideAnswered < this.userTexts.length &&
      SIDE_PRODUCTS.test(lastText)
    ) {
      this.#sideAnswered = this.userTexts.length;
      return this.say(`${sideAnswer(this.#rng, 'products', this.#types)} ${anythingElse(this.#rng)}`);
    }
    if (fresh && this.#phase !== 'confirm' && SIDE_REFUND.test(lastText)) {
      this.#sideAnswered = this.userTexts.length;
      return this.say(`${sideAnswer(this.#rng, 'refund_time')} ${anythingElse(this.#rng)}`);
    }
    if (this.#refused && userSpoke && this.#phase === 'listen') {
      if (asksForHuman(lastText))
        return this.call({ kind: 'transfer' }, 'transfer_to_human_agents', {
          summary:
            'The customer asks for an exception to the policy after a request the policy does not allow was declined, and wants to speak to a human agent.',
        });
      if (isPushBack(lastText))
        return this.say(`${refusalAgain(this.#rng, this.#refusedAction)} ${anythingElse(this.#rng)}`);
    }
    const request = this.#fuzz.requests[this.#request];
    if (request === undefined) return this.say(anythingElse(this.#rng));
    if (this.#phase === 'listen') {
      if (!intentOf(request).test(this.said(this.window))) return this.say(howCanIHelp(this.#rng));
      this.#phase = 'work';
      this.#refused = false;
    }
    if (this.#phase === 'confirm' && this.#proposal !== undefined) return this.#onReply();
    if (this.#phase === 'execute' && this.#proposal !== undefined) {
      if (!this.#written) {
        // the write did not come back (a failed or garbled call): send it again, a few times at most
        if (this.#writeTries++ < 3) return this.#write(this.#proposal);
        this.#proposal = undefined;
        return this.#next('I am sorry, I could not complete that change.');
      }
      const done = this.#proposal;
      this.#proposal = undefined;
      return this.#next(reportText(this.#rng, done, this.#orders, this.#user, this.said()));
    }
    return this.#resolve(request);
  }

  #write(call: WriteCall): AssistantMessage {
    return this.call({ kind: 'write', call }, call.name, call.arguments);
  }

  /** The customer answered a proposal: go ahead, re-propose a changed detail, or ask what to change. */
  #onReply(): AssistantMessage {
    const reply = this.lastSaid();
    const previous = this.#proposal as WriteCall;
    if (isAffirmative(reply)) {
      this.#phase = 'execute';
      this.#writeTries = 0;
      this.#written = false;
      return this.#write(previous);
    }
    this.#phase = 'work';
    this.#proposal = undefined;
    const request = this.#fuzz.requests[this.#request] as RetailRequest;
    const out = this.#resolve(request);
    if (
      this.#proposal !== undefined &&
      JSON.stringify((this.#proposal as WriteCall).arguments) === JSON.stringify(previous.arguments)
    ) {
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
    this.#userRefreshed = false;
    this.#total = undefined;
    this.#calculated = false;
    this.#itemChecked = false;
    const upcoming = this.#fuzz.requests[this.#request];
    if (upcoming === undefined || !requestStated(upcoming, this.said(this.window)))
      this.window = this.userTexts.length;
    return this.say(`${text} ${anythingElse(this.#rng)}`);
  }

  #resolve(request: RetailRequest): AssistantMessage {
    const lookup = this.#nextLookup(request);
    if (lookup !== undefined) return lookup;
    const state = this.#state() as UserState;
    const user = this.#user as UserView;
    const allRead = user.orders.every((id) => this.#orders.has(id));
    const said = this.said(this.window);
    const step = slotStep(this.#rng, request, this.#request, said, state, allRead, this.#behaviour);
    if ('ask' in step) return this.say(step.ask);
    if ('readAllOrders' in step)
      return this.#readOrder(user.orders.find((id) => !this.#orders.has(id)) as string);
    const effective = step.request;
    const product = productToRead(effective, state);
    if (product !== undefined)
      return this.call({ kind: 'product', key: product }, 'get_product_details', { product_id: product });
    const resolution = resolveRequest(refusalScope(effective), state);
    const foreign = foreignOrder(effective, this.#orders, this.#userId);
    if ('error' in resolution || foreign === null) {
      const why = 'error' in resolution ? resolution.error : 'the order is the customer’s own';
      return this.#next(`I am sorry, I could not identify what you described (${why}).`);
    }
    const args = resolution.args;
    const everything = this.said();
    if (request.kind === 'information') return this.#next(infoText(this.#rng, args, state, everything));
    if (request.kind === 'refusal') {
      const text = refusalText(this.#rng, args, state, everything, foreign);
      const out = this.#next(text);
      this.#refused = true;
      this.#refusedAction = String(args.action);
      return out;
    }
    const call = writeCall(request.kind, args);
    const extra = this.#extraCheck(call, state);
    if (extra !== undefined) return extra;
    this.#proposal = call;
    this.#phase = 'confirm';
    const notes =
      'items' in effective &&
      effective.kind !== 'return_delivered_order_items' &&
      effective.kind !== 'refusal'
        ? effective.items.map((s) => replacementNote(s.replacement))
        : [];
    return this.say(confirmationText(this.#rng, call, state, everything, this.#total, notes));
  }

  /** `calculate` for a total over several items, and now and then `get_item_details` on a new item. */
  #extraCheck(call: WriteCall, state: UserState): AssistantMessage | undefined {
    const a = call.arguments;
    const order = state.orders.find((o) => o.order_id === a.order_id);
    const oldIds = (a.item_ids as string[] | undefined) ?? [];
    if (order === undefined || oldIds.length < 2) {
      if (call.name.endsWith('_items') && a.new_item_ids !== undefined && !this.#itemChecked) {
        this.#itemChecked = true;
        if (this.#rng.chance(0.3))
          return this.call({ kind: 'item' }, 'get_item_details', {
            item_id: (a.new_item_ids as string[])[0],
          });
      }
      return undefined;
    }
    if (this.#calculated) return undefined;
    this.#calculated = true;
    const expression = totalExpression(call, order, state);
    return this.call({ kind: 'calc' }, 'calculate', { expression });
  }

  #readOrder(id: string): AssistantMessage {
    return this.call({ kind: 'order', key: id }, 'get_order_details', { order_id: id });
  }

  /** The next order read needed before the customer's details can be checked, or undefined. */
  #nextLookup(request: RetailRequest): AssistantMessage | undefined {
    const user = this.#user as UserView;
    const unread = user.orders.filter((id) => !this.#orders.has(id));
    if (
      request.kind === 'information' &&
      request.topic === 'gift_card_balance' &&
      !this.#userRefreshed &&
      this.#profileStale
    ) {
      this.#userRefreshed = true;
      return this.call({ kind: 'user' }, 'get_user_details', { user_id: user.user_id });
    }
    const needsAllOrders =
      ((request.kind === 'modify_pending_order_address' || request.kind === 'modify_user_address') &&
        request.address.strategy === 'order_city') ||
      // "the same one as in my other order": look through the customer's other orders once they say so
      (sameAsOtherOrder(request) && this.said(this.window).includes('other order'));
    if (needsAllOrders && unread.length > 0) return this.#readOrder(unread[0] as string);
    if ('order' in request) {
      const ref = request.order;
      const said = this.said(this.window);
      if (ref.strategy === 'id') {
        if (said.includes(ref.order_id.toLowerCase())) {
          if (!this.#orders.has(ref.order_id) || this.#recheck) {
            this.#recheck = false;
            return this.#readOrder(ref.order_id);
          }
        } else {
          // an order number the customer wrote that is none of theirs: look it up; when it is not found, say
          // so and ask them to check it (τ²'s get_order_details answers "Error: Order not found")
          const unknown = unknownOrderId(said, this.#user as UserView, this.#fuzz.requests);
          if (unknown !== undefined)
            return this.#missingOrders.has(unknown)
              ? this.say(orderNotFound(this.#rng, unknown))
              : this.#readOrder(unknown);
        }
      } else if (
        orderMentioned(said, ref) &&
        matchOrders(ref, (this.#state() as UserState).orders).length === 0 &&
        unread.length > 0
      ) {
        return this.#readOrder(unread[0] as string);
      }
    }
    return undefined;
  }
}
