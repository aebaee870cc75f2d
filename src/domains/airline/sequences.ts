/**
 * The fixed ids and clock of τ²'s airline toolkit (`tau2-spec.md` §4.2): a booking takes the first unused id of
 * {@link RESERVATION_IDS} (else `Too many reservations`), a certificate the first unused id of
 * {@link CERTIFICATE_IDS} in the user's payment methods (else `Too many certificates`), and every booking is
 * created at {@link AIRLINE_NOW}. τ² assumes at most three of each per task; cove keeps that limit for parity.
 */
export const RESERVATION_IDS: readonly string[] = ['HATHAT', 'HATHAU', 'HATHAV'];
export const CERTIFICATE_IDS: readonly string[] = [
  'certificate_3221322',
  'certificate_3221323',
  'certificate_3221324',
];
/** The simulated "now" of the airline domain (EST, no zone), as τ² writes it into `created_at`. */
export const AIRLINE_NOW = '2024-05-15T15:00:00';
