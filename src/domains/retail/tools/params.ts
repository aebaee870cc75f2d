import type { ToolParam } from '../../../env/tool.js';

/** Parameter definitions shared by several retail tools (schemas as τ², descriptions in cove's words). */

const STRING = { type: 'string' } as const;
const STRING_LIST = { type: 'array', items: { type: 'string' } } as const;

export const orderIdParam: ToolParam = {
  name: 'order_id',
  schema: STRING,
  description: "Order id, including the leading '#', for example '#W0000000'.",
};

export const userIdParam: ToolParam = {
  name: 'user_id',
  schema: STRING,
  description: "The customer's user id, for example 'jane_doe_1234'.",
};

export const paymentMethodIdParam: ToolParam = {
  name: 'payment_method_id',
  schema: STRING,
  description:
    "Id of one of the customer's saved payment methods, for example 'credit_card_0000000' or 'gift_card_0000000'.",
};

export function itemIdsParam(description: string): ToolParam {
  return { name: 'item_ids', schema: STRING_LIST, description };
}

export function newItemIdsParam(description: string): ToolParam {
  return { name: 'new_item_ids', schema: STRING_LIST, description };
}

export function stringParam(name: string, description: string): ToolParam {
  return { name, schema: STRING, description };
}

/** The six address parameters in τ²'s signature order (not the model's field order). */
export const addressParams: readonly ToolParam[] = [
  stringParam('address1', "First address line, for example '12 Oak Street'."),
  stringParam('address2', "Second address line, for example 'Apt 4', or '' when there is none."),
  stringParam('city', "City, for example 'Austin'."),
  stringParam('state', "State code, for example 'TX'."),
  stringParam('country', "Country, for example 'USA'."),
  stringParam('zip', "Postal code, for example '78701'."),
];
