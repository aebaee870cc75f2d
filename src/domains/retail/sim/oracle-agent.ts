import { pyJsonDumps } from '../../../core/py-json.js';
import { toPyValue } from '../../../core/py-value.js';
import type { Rng } from '../../../core/rng.js';
import { parseSharedJson } from '../../../core/shared-json.js';
import type { ChatMessage } from '../../../sim/messages.js';
import type { Agent, AgentTurn } from '../../../sim/roles.js';
import type { UserState } from '../synthesis/fuzzify.js';
import { matchItemIds, matchOrders } from '../synthesis/references.js';
import type { RetailFuzz, RetailRequest } from '../synthesis/requests.js';
import { resolveRequest } from '../synthesis/resolve.js';
import type { OrderView, ProductView, UserView } from '../synthesis/views.js';
import { anythingElse, askIdentity } from './agent-texts.js';
import {
  confirmationText,
  infoText,
  refusalText,
  reportText,
  type WriteCall,
  writeCall,
} from './oracle-steps.js';

type Lookup =
  | { readonly kind: 'find' }
  | { readonly kind: 'user' }
  | { readonly kind: 'order'; readonly key: string }
  | { readonly kind: 'product'; readonly key: string }
  | { readonly kind: 'write'; readonly call: WriteCall };

const NO = /\b(no|nope|don't|do not|not what|wrong|stop)\b/i;
const YES = /\b(yes|yeah|yep|sure|correct|go ahead|please do|confirm(ed)?|ok|okay)\b/i;

/** Whether a customer reply accepts a proposal. */
export function isAffirmative(text: string): boolean {
  return !NO.test(text) && YES.test(text);
}

/**
 * The oracle agent of the retail domain (docs/design.md §5): it receives the task's requests fuzzified (the same
 * descriptions the user has, no ids) and resolves every reference through read tools, one tool call per turn;
 * it authenticates first, confirms every write and waits for a yes, tells information values, and refuses what
 * the policy forbids. It reads nothing but the conversation's messages.
 */
export class RetailOracleAgent implements Agent {
  readonly #fuzz: RetailFuzz;
  readonly #rng: Rng;
  #seen = 0;
  #calls = 0;
  #pending: { id: string; lookup: Lookup } | undefined;
  #userId: string | undefined;
  #user: UserView | undefined;
  readonly #orders = new Map<string, OrderView>();
  readonly #products = new Map<string, ProductView>();
  readonly #userTexts: string[] = [];
  #request = 0;
  #phase: 'resolve' | 'confirm' | 'execute' | 'wait' = 'resolve';
  #proposal: WriteCall | undefined;
  #identityAsks = 0;
  #declines = 0;
  #written = false;
  #writeTries = 0;
  #userRefreshed = false;
  /** A write happened since the profile was last read (balances may have changed). */
  #profileStale = false;

  constructor(fuzz: RetailFuzz, rng: Rng) {
    this.#fuzz = fuzz;
    this.#rng = rng;
  }

  async respond(messages: readonly ChatMessage[]): Promise<AgentTurn> {
    let userSpoke = false;
    for (const m of messages.slice(this.#seen)) {
      if (m.role === 'user') {
        this.#userTexts.push(m.content);
        userSpoke = true;
      } else if (m.role === 'tool' && m.tool_call_id === this.#pending?.id)
        this.#ingest(this.#pending.lookup, m.content);
    }
    this.#seen = messages.length;
    return { message: this.#decide(userSpoke) };
  }

  #ingest(lookup: Lookup, content: string): void {
    this.#pending = undefined;
    if (content.startsWith('Error:')) return;
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

  #call(lookup: Lookup, name: string, args: Record<string, unknown>): AgentTurn['message'] {
    const id = `call_${++this.#calls}`;
    this.#pending = { id, lookup };
    return {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id,
          type: 'function',
          function: { name, arguments: pyJsonDumps(toPyValue(args), { ensureAscii: false }) },
        },
      ],
    };
  }

  #say(text: string): AgentTurn['message'] {
    return { role: 'assistant', content: text };
  }

  #identityGiven(): boolean {
    const u = this.#fuzz.user;
    const said = this.#userTexts.join('\n').toLowerCase();
    return u.strategy === 'email'
      ? said.includes(u.email.toLowerCase())
      : said.includes(u.zip) && said.includes(u.last_name.toLowerCase());
  }

  #state(): UserState | undefined {
    const user = this.#user;
    if (user === undefined) return undefined;
    return {
      user,
      orders: user.orders.flatMap((id) => {
        const o = this.#orders.get(id);
        return o === undefined ? [] : [o];
      }),
      product: (id) => this.#products.get(id),
    };
  }

  #decide(userSpoke: boolean): AgentTurn['message'] {
    const u = this.#fuzz.user;
    if (this.#userId === undefined) {
      if (!this.#identityGiven()) {
        this.#identityAsks++;
        return this.#say(
          this.#identityAsks > 3
            ? 'I am sorry, I cannot help without verifying your identity.'
            : askIdentity(this.#rng),
        );
      }
      return u.strategy === 'email'
        ? this.#call({ kind: 'find' }, 'find_user_id_by_email', { email: u.email })
        : this.#call({ kind: 'find' }, 'find_user_id_by_name_zip', {
            first_name: u.first_name,
            last_name: u.last_name,
            zip: u.zip,
          });
    }
    if (this.#user === undefined)
      return this.#call({ kind: 'user' }, 'get_user_details', { user_id: this.#userId });
    const request = this.#fuzz.requests[this.#request];
    if (request === undefined) return this.#say(anythingElse(this.#rng));
    if (this.#phase === 'wait') {
      if (!userSpoke) return this.#say(anythingElse(this.#rng));
      this.#phase = 'resolve';
    }
    if (this.#phase === 'confirm' && this.#proposal !== undefined) {
      const reply = this.#userTexts[this.#userTexts.length - 1] ?? '';
      if (isAffirmative(reply)) {
        this.#phase = 'execute';
        return this.#call(
          { kind: 'write', call: this.#proposal },
          this.#proposal.name,
          this.#proposal.arguments,
        );
      }
      this.#proposal = undefined;
      if (++this.#declines >= 2) return this.#next('Understood, I will not make that change.');
      this.#phase = 'wait';
      return this.#say(
        'I am sorry about that. Could you tell me again exactly what you would like me to do?',
      );
    }
    if (this.#phase === 'execute' && this.#proposal !== undefined && !this.#written) {
      // the write did not come back (a failed or garbled call): send it again, a few times at most
      if (this.#writeTries++ < 3)
        return this.#call(
          { kind: 'write', call: this.#proposal },
          this.#proposal.name,
          this.#proposal.arguments,
        );
      this.#proposal = undefined;
      return this.#next('I am sorry, I could not complete that change.');
    }
    if (this.#phase === 'execute' && this.#proposal !== undefined) {
      const done = this.#proposal;
      this.#proposal = undefined;
      return this.#next(reportText(this.#rng, done, this.#orders, this.#user));
    }
    return this.#resolve(request);
  }

  /** Finishes the current request with `text`, then waits for the customer's next message. */
  #next(text: string): AgentTurn['message'] {
    this.#request++;
    this.#declines = 0;
    this.#phase = 'wait';
    this.#userRefreshed = false;
    return this.#say(`${text} ${anythingElse(this.#rng)}`);
  }

  #resolve(request: RetailRequest): AgentTurn['message'] {
    const lookup = this.#nextLookup(request);
    if (lookup !== undefined) return lookup;
    const state = this.#state() as UserState;
    const resolution = resolveRequest(request, state);
    if ('error' in resolution) {
      return this.#next(`I am sorry, I could not identify what you described (${resolution.error}).`);
    }
    const args = resolution.args;
    if (request.kind === 'information') return this.#next(infoText(this.#rng, args, state));
    if (request.kind === 'refusal') return this.#next(refusalText(this.#rng, args, state));
    this.#proposal = writeCall(request.kind, args);
    this.#phase = 'confirm';
    return this.#say(confirmationText(this.#rng, this.#proposal, state));
  }

  /** The next read needed to resolve the request, as a tool call, or undefined when everything is known. */
  #nextLookup(request: RetailRequest): AgentTurn['message'] | undefined {
    const user = this.#user as UserView;
    const unread = user.orders.filter((id) => !this.#orders.has(id));
    const readOrder = (id: string) =>
      this.#call({ kind: 'order', key: id }, 'get_order_details', { order_id: id });
    if (
      request.kind === 'information' &&
      request.topic === 'gift_card_balance' &&
      !this.#userRefreshed &&
      this.#profileStale
    ) {
      this.#userRefreshed = true;
      return this.#call({ kind: 'user' }, 'get_user_details', { user_id: user.user_id });
    }
    const needsAllOrders =
      (request.kind === 'modify_pending_order_address' || request.kind === 'modify_user_address') &&
      request.address.strategy === 'order_city';
    if (needsAllOrders && unread.length > 0) return readOrder(unread[0] as string);
    if ('order' in request) {
      const ref = request.order;
      if (ref.strategy === 'id') {
        if (!this.#orders.has(ref.order_id)) return readOrder(ref.order_id);
      } else if (matchOrders(ref, (this.#state() as UserState).orders).length === 0 && unread.length > 0) {
        return readOrder(unread[0] as string);
      }
    }
    if (request.kind === 'modify_pending_order_items' || request.kind === 'exchange_delivered_order_items') {
      const order = matchOrders(request.order, (this.#state() as UserState).orders)[0];
      for (const swap of request.items) {
        const ids = order === undefined ? [] : matchItemIds(swap.item, order);
        const productId = order?.items.find((it) => it.item_id === ids[0])?.product_id;
        if (productId !== undefined && !this.#products.has(productId)) {
          return this.#call({ kind: 'product', key: productId }, 'get_product_details', {
            product_id: productId,
          });
        }
      }
    }
    return undefined;
  }
}
