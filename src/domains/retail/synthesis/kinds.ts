import { isCommunicated } from '../../../tasks/communicate.js';
import type {
  Constraint,
  ConstraintKind,
  GoldAction,
  PredicateContext,
  PredicateResult,
} from '../../../tasks/constraint.js';
import { type AddressView, type OrderView, sameAddress, ViewReader } from './views.js';

/**
 * The nine retail constraint kinds: one per write tool, plus `information` and `refusal` (docs/design.md §5).
 * Predicates look at the final state through the read tools, as an auditor would; under `parity` the
 * items-modification predicate does not check options and prices (τ²'s multi-item bug sets them to the last
 * variant's), under `fixed` it does.
 */

type Args = Readonly<Record<string, unknown>>;
const str = (args: Args, key: string): string => args[key] as string;
const strs = (args: Args, key: string): string[] => args[key] as string[];
const sorted = (ids: readonly string[]): string[] => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const eqList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);
const verdict = (satisfied: boolean, evidence: string): PredicateResult => ({ satisfied, evidence });

function finalOrder(context: PredicateContext, orderId: string): OrderView | undefined {
  return new ViewReader(context.final).order(orderId);
}

const ADDRESS_ARGS = ['address1', 'address2', 'city', 'state', 'country', 'zip'] as const;
function addressArgs(address: AddressView): Record<string, string> {
  return Object.fromEntries(ADDRESS_ARGS.map((k) => [k, address[k]]));
}

function writeKind(
  name: string,
  gold: (args: Args) => Record<string, unknown>,
  predicate: (c: Constraint, context: PredicateContext) => PredicateResult,
): ConstraintKind {
  return {
    name,
    category: 'write',
    writeTools: [name],
    goldActions: (c): GoldAction[] => [{ name, arguments: gold(c.args) }],
    predicate,
  };
}

const cancel = writeKind(
  'cancel_pending_order',
  (a) => ({ order_id: str(a, 'order_id'), reason: str(a, 'reason') }),
  (c, context) => {
    const o = finalOrder(context, str(c.args, 'order_id'));
    const ok =
      o?.status === 'cancelled' && (o as { cancel_reason?: string }).cancel_reason === str(c.args, 'reason');
    return verdict(ok, `order ${str(c.args, 'order_id')} status=${o?.status ?? 'missing'}`);
  },
);

const modifyOrderAddress = writeKind(
  'modify_pending_order_address',
  (a) => ({ order_id: str(a, 'order_id'), ...addressArgs(a.address as AddressView) }),
  (c, context) => {
    const o = finalOrder(context, str(c.args, 'order_id'));
    const ok = o !== undefined && sameAddress(o.address, c.args.address as AddressView);
    return verdict(ok, `order ${str(c.args, 'order_id')} address ${ok ? 'matches' : 'differs'}`);
  },
);

const modifyPayment = writeKind(
  'modify_pending_order_payment',
  (a) => ({ order_id: str(a, 'order_id'), payment_method_id: str(a, 'payment_method_id') }),
  (c, context) => {
    const o = finalOrder(context, str(c.args, 'order_id'));
    const first = o?.payment_history[0];
    const later = o?.payment_history.slice(1) ?? [];
    const ok =
      first !== undefined &&
      later.some(
        (p) =>
          p.transaction_type === 'payment' &&
          p.payment_method_id === str(c.args, 'payment_method_id') &&
          p.amount === first.amount,
      ) &&
      later.some(
        (p) =>
          p.transaction_type === 'refund' &&
          p.payment_method_id === first.payment_method_id &&
          p.amount === first.amount,
      );
    return verdict(
      ok,
      `order ${str(c.args, 'order_id')} paid with ${ok ? 'the new method' : 'something else'}`,
    );
  },
);

function itemsAfterSwap(
  initial: readonly string[],
  oldIds: readonly string[],
  newIds: readonly string[],
): string[] {
  const items = [...initial];
  oldIds.forEach((oldId, i) => {
    const at = items.indexOf(oldId);
    if (at >= 0) items[at] = newIds[i] as string;
  });
  return items;
}

/** Arguments of the two item-swapping tools. */
function swapArgs(a: Args): Record<string, unknown> {
  return {
    order_id: str(a, 'order_id'),
    item_ids: strs(a, 'item_ids'),
    new_item_ids: strs(a, 'new_item_ids'),
    payment_method_id: str(a, 'payment_method_id'),
  };
}

const modifyItems = writeKind('modify_pending_order_items', swapArgs, (c, context) => {
  const orderId = str(c.args, 'order_id');
  const o = finalOrder(context, orderId);
  const probe = context.final.base.fork();
  const before = new ViewReader(probe).order(orderId);
  probe.close();
  if (o === undefined || before === undefined) return verdict(false, `order ${orderId} missing`);
  const expected = itemsAfterSwap(
    before.items.map((i) => i.item_id),
    strs(c.args, 'item_ids'),
    strs(c.args, 'new_item_ids'),
  );
  const ids = o.items.map((i) => i.item_id);
  let ok =
    o.status === 'pending (item modified)' &&
    eqList(sorted(ids), sorted(expected)) &&
    o.payment_history
      .slice(before.payment_history.length)
      .some((p) => p.payment_method_id === str(c.args, 'payment_method_id'));
  if (ok && context.semantics === 'fixed') {
    const reader = new ViewReader(context.final);
    ok = o.items.every((it) => {
      const v = reader.product(it.product_id)?.variants[it.item_id];
      return (
        v !== undefined && v.price === it.price && JSON.stringify(v.options) === JSON.stringify(it.options)
      );
    });
  }
  return verdict(ok, `order ${orderId} items ${ok ? 'swapped' : `are [${ids.join(', ')}]`}`);
});

const modifyUserAddress = writeKind(
  'modify_user_address',
  (a) => ({ user_id: str(a, 'user_id'), ...addressArgs(a.address as AddressView) }),
  (c, context) => {
    const u = new ViewReader(context.final).user(str(c.args, 'user_id'));
    const ok = u !== undefined && sameAddress(u.address, c.args.address as AddressView);
    return verdict(ok, `user address ${ok ? 'matches' : 'differs'}`);
  },
);

const returnItems = writeKind(
  'return_delivered_order_items',
  (a) => ({
    order_id: str(a, 'order_id'),
    item_ids: strs(a, 'item_ids'),
    payment_method_id: str(a, 'payment_method_id'),
  }),
  (c, context) => {
    const o = finalOrder(context, str(c.args, 'order_id')) as
      | (OrderView & { return_items?: string[]; return_payment_method_id?: string })
      | undefined;
    const ok =
      o?.status === 'return requested' &&
      eqList(o.return_items ?? [], sorted(strs(c.args, 'item_ids'))) &&
      o.return_payment_method_id === str(c.args, 'payment_method_id');
    return verdict(ok, `order ${str(c.args, 'order_id')} status=${o?.status ?? 'missing'}`);
  },
);

const exchangeItems = writeKind('exchange_delivered_order_items', swapArgs, (c, context) => {
  const o = finalOrder(context, str(c.args, 'order_id')) as
    | (OrderView & {
        exchange_items?: string[];
        exchange_new_items?: string[];
        exchange_payment_method_id?: string;
      })
    | undefined;
  const ok =
    o?.status === 'exchange requested' &&
    eqList(o.exchange_items ?? [], sorted(strs(c.args, 'item_ids'))) &&
    eqList(o.exchange_new_items ?? [], sorted(strs(c.args, 'new_item_ids'))) &&
    o.exchange_payment_method_id === str(c.args, 'payment_method_id');
  return verdict(ok, `order ${str(c.args, 'order_id')} status=${o?.status ?? 'missing'}`);
});

const information: ConstraintKind = {
  name: 'information',
  category: 'information',
  writeTools: [],
  goldActions: () => [],
  predicate: (c, context) => {
    const text = str(c.args, 'value_text');
    const ok = isCommunicated(text, context.agentTexts);
    return verdict(ok, `value ${text} ${ok ? 'was' : 'was not'} told to the user`);
  },
};

const refusal: ConstraintKind = {
  name: 'refusal',
  category: 'refusal',
  writeTools: [],
  // the policy: authenticate by email or name + zip, then read the order before saying it cannot be changed
  grounding: {
    identify: [
      { tool: 'find_user_id_by_email', user: 'result' },
      { tool: 'find_user_id_by_name_zip', user: 'result' },
    ],
    lookup: [{ tool: 'get_order_details', argument: 'order_id', constraintArg: 'order_id' }],
    entity: { collection: 'orders', constraintArg: 'order_id' },
  },
  goldActions: () => [],
  predicate: (c, context) => {
    if (c.args.action === 'second_item_change') return secondChangeRefused(c, context);
    const key = str(c.args, 'order_id');
    const ref = { collection: 'orders', key };
    const unchanged = context.final.chunk(ref) === context.final.base.digest.chunk('tau2', 'orders', key);
    return verdict(unchanged, `order ${key} ${unchanged ? 'unchanged' : 'was changed'}`);
  },
};

/**
 * A refused second item change: the item the customer asked to change again is still in the order as often as
 * at the start (the first change, another constraint of the task, may have changed the order otherwise). The
 * tool refuses a second change of a "pending (item modified)" order, so what this catches is both changes made in
 * one call.
 */
function secondChangeRefused(c: Constraint, context: PredicateContext): PredicateResult {
  const orderId = str(c.args, 'order_id');
  const itemId = strs(c.args, 'item_ids')[0] as string;
  const probe = context.final.base.fork();
  const before = new ViewReader(probe).order(orderId);
  probe.close();
  const after = finalOrder(context, orderId);
  const count = (o: OrderView | undefined) => o?.items.filter((it) => it.item_id === itemId).length ?? -1;
  const ok = after !== undefined && count(after) === count(before) && count(before) > 0;
  return verdict(
    ok,
    `order ${orderId} holds item ${itemId} ${count(after)}× (at the start ${count(before)}×): ${ok ? 'not changed again' : 'changed'}`,
  );
}

/** Every retail constraint kind, by name. */
export const RETAIL_CONSTRAINT_KINDS: readonly ConstraintKind[] = [
  cancel,
  modifyOrderAddress,
  modifyPayment,
  modifyItems,
  modifyUserAddress,
  returnItems,
  exchangeItems,
  information,
  refusal,
];
