import type { EnvironmentSpec } from '../../env/environment.js';
import { calculateTool, transferToHumanAgentsTool } from '../shared/generic-tools.js';
import { RETAIL_COLLECTIONS } from './collections.js';
import { RETAIL_SCHEMA_SQL } from './schema.js';
import {
  exchangeDeliveredOrderItems,
  modifyPendingOrderItems,
  returnDeliveredOrderItems,
} from './tools/item-writes.js';
import {
  cancelPendingOrder,
  modifyPendingOrderAddress,
  modifyPendingOrderPayment,
  modifyUserAddress,
} from './tools/order-writes.js';
import {
  findUserIdByEmail,
  findUserIdByNameZip,
  getItemDetails,
  getOrderDetails,
  getProductDetails,
  getUserDetails,
  listAllProductTypes,
} from './tools/read-tools.js';

/** The retail environment: schema, state collections and the 16 tools in τ²'s order (`agent_tool_order`). */
export const RETAIL_ENVIRONMENT: EnvironmentSpec = {
  name: 'retail',
  schemaSql: RETAIL_SCHEMA_SQL,
  toolkitName: 'RetailTools',
  collections: RETAIL_COLLECTIONS,
  tools: [
    calculateTool,
    cancelPendingOrder,
    exchangeDeliveredOrderItems,
    findUserIdByNameZip,
    findUserIdByEmail,
    getOrderDetails,
    getProductDetails,
    getItemDetails,
    getUserDetails,
    listAllProductTypes,
    modifyPendingOrderAddress,
    modifyPendingOrderItems,
    modifyPendingOrderPayment,
    modifyUserAddress,
    returnDeliveredOrderItems,
    transferToHumanAgentsTool,
  ],
};

/** The retail domain's version, stamped into outputs and part of the key of its cached bases. */
export const RETAIL_VERSION = 'retail-1';

/** Hashes of τ²'s pristine retail db.json (τ²'s pristine data files). */
export const TAU2_RETAIL_INITIAL_HASHES = {
  db_hash: 'b25c9cb211f5efcaee5dd646054a73c4a9f43f4f5acc32c10713cd9f9ac20e9c',
  canonical_sha256: 'ef477071f46c7f04add3da32c92bf7394392727dfdc862f76524f8c37f63e626',
} as const;
