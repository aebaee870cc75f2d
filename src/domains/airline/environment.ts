import type { EnvironmentSpec } from '../../env/environment.js';
import { calculateTool, transferToHumanAgentsTool } from '../shared/generic-tools.js';
import { AIRLINE_COLLECTIONS } from './collections.js';
import { AIRLINE_SCHEMA_SQL } from './schema.js';
import { bookReservation } from './tools/book.js';
import {
  getFlightStatus,
  getReservationDetails,
  getUserDetails,
  listAllAirports,
  searchDirectFlight,
  searchOnestopFlight,
} from './tools/read-tools.js';
import {
  cancelReservation,
  sendCertificate,
  updateReservationBaggages,
  updateReservationFlights,
  updateReservationPassengers,
} from './tools/update-tools.js';

/** The airline environment: schema, state collections and the 14 tools in τ²'s order (`agent_tool_order`). */
export const AIRLINE_ENVIRONMENT: EnvironmentSpec = {
  name: 'airline',
  schemaSql: AIRLINE_SCHEMA_SQL,
  toolkitName: 'AirlineTools',
  collections: AIRLINE_COLLECTIONS,
  tools: [
    bookReservation,
    calculateTool,
    cancelReservation,
    getReservationDetails,
    getUserDetails,
    listAllAirports,
    searchDirectFlight,
    searchOnestopFlight,
    sendCertificate,
    transferToHumanAgentsTool,
    updateReservationBaggages,
    updateReservationFlights,
    updateReservationPassengers,
    getFlightStatus,
  ],
};

/** The airline domain's version, stamped into outputs and part of the key of its cached bases. */
export const AIRLINE_VERSION = 'airline-1';

/** Hashes of τ²'s pristine airline db.json (`tau2-spec.md` §11). */
export const TAU2_AIRLINE_INITIAL_HASHES = {
  db_hash: '124e39a664b56402bcd09cb8a6a9cece6acb8462337c969799d5658e3250f263',
  canonical_sha256: '056eb2438fc690dea2253467aff40f0adc21852fef2713ce7b931aed706debef',
} as const;
