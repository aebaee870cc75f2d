import type { AddressRef, ItemRef, OrderRef, PaymentRef, UserRef, VariantRef } from './references.js';

/**
 * A constraint as the user simulator and the oracle agent receive it: the same goal with every id replaced by a
 * fuzzy reference (docs/design.md §5). Requests are stored in the task's `cove.fuzz.requests`, parallel to
 * `cove.constraints`.
 */
export type RetailRequest =
  | { readonly kind: 'cancel_pending_order'; readonly order: OrderRef; readonly reason: string }
  | { readonly kind: 'modify_pending_order_address'; readonly order: OrderRef; readonly address: AddressRef }
  | { readonly kind: 'modify_pending_order_payment'; readonly order: OrderRef; readonly payment: PaymentRef }
  | {
      readonly kind: 'modify_pending_order_items';
      readonly order: OrderRef;
      readonly items: readonly ItemSwap[];
      readonly payment: PaymentRef;
    }
  | { readonly kind: 'modify_user_address'; readonly address: AddressRef }
  | {
      readonly kind: 'return_delivered_order_items';
      readonly order: OrderRef;
      readonly items: readonly ItemRef[];
      readonly payment: PaymentRef;
    }
  | {
      readonly kind: 'exchange_delivered_order_items';
      readonly order: OrderRef;
      readonly items: readonly ItemSwap[];
      readonly payment: PaymentRef;
    }
  | { readonly kind: 'information'; readonly topic: 'order_total'; readonly order: OrderRef }
  | { readonly kind: 'information'; readonly topic: 'gift_card_balance'; readonly payment: PaymentRef }
  | {
      readonly kind: 'refusal';
      readonly action: RefusedAction;
      readonly order: OrderRef;
      readonly items?: readonly ItemRef[];
      readonly reason?: string;
      /** `exchange_other_product`: the other product the customer wants instead (a product name). */
      readonly wanted_product?: string;
      /** `refund_other_method`: the method the refund should go to, one the order was not paid with. */
      readonly refund_to?: PaymentRef;
      /** `second_item_change`: the further item change asked for after the order's items were changed once. */
      readonly swaps?: readonly ItemSwap[];
      /** `other_users_order`: what the customer asks about the order that is not theirs. */
      readonly about?: ForeignAsk;
    };

/** One old item and its replacement. */
export interface ItemSwap {
  readonly item: ItemRef;
  readonly replacement: VariantRef;
}

/**
 * Requests the policy forbids: for the order's status (`cancel`, `return`, `exchange`, `modify_address`), an
 * exchange into another product (`exchange_other_product`: exchanges stay within the same product), a refund to
 * a method the order was not paid with (`refund_other_method`: refunds go to the original method or a gift
 * card), a second item change of a pending order whose items were changed once in the same task
 * (`second_item_change`: items of an order change only once), and anything about an order of another user
 * (`other_users_order`: one customer per conversation; the order is named by its id, which the user knows).
 */
export type RefusedAction =
  | 'cancel'
  | 'return'
  | 'exchange'
  | 'modify_address'
  | 'exchange_other_product'
  | 'refund_other_method'
  | 'second_item_change'
  | 'other_users_order';

/** What a customer asks about an order of another user: its status, or to cancel it. */
export type ForeignAsk = 'status' | 'cancel';

/** The fuzzy part of a retail task (`cove.fuzz`). */
export interface RetailFuzz {
  /** 0: ids kept, 1: some fuzzified, 2: all fuzzified. */
  readonly level: 0 | 1 | 2;
  readonly user: UserRef;
  readonly requests: readonly RetailRequest[];
  /** Per request, every reference's strategy as `<reference>:<strategy>` (e.g. `order:items`). */
  readonly strategies: readonly (readonly string[])[];
  /** Ids the references replaced (they must appear in no task or user text). */
  readonly hidden_ids: readonly string[];
}
