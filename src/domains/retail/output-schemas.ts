import type { JsonSchema } from '../../core/json-schema-check.js';
import { zodToJsonSchema } from '../../core/zod-json-schema.js';
import { orderSchema, productSchema, userSchema, variantSchema } from './data-model.js';

const TEXT: JsonSchema = { type: 'string' };

/**
 * The output schema of every retail tool, from τ²'s data model (`data-model.ts`): the dump a tool returns (an
 * order, a user, a product, a variant) or plain text (a user id, a calculation, the transfer notice). What a model
 * playing the tools must answer (`--tool-outputs model`).
 */
export function retailOutputSchemas(): Readonly<Record<string, JsonSchema>> {
  const order = zodToJsonSchema(orderSchema);
  const user = zodToJsonSchema(userSchema);
  return {
    calculate: TEXT,
    cancel_pending_order: order,
    exchange_delivered_order_items: order,
    find_user_id_by_name_zip: TEXT,
    find_user_id_by_email: TEXT,
    get_order_details: order,
    get_product_details: zodToJsonSchema(productSchema),
    get_item_details: zodToJsonSchema(variantSchema),
    get_user_details: user,
    // product name → product id
    list_all_product_types: { type: 'object', additionalProperties: TEXT },
    modify_pending_order_address: order,
    modify_pending_order_items: order,
    modify_pending_order_payment: order,
    modify_user_address: user,
    return_delivered_order_items: order,
    transfer_to_human_agents: TEXT,
  };
}
