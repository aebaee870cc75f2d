import type { PyDict } from '../core/py-value.js';
import type { ConstraintKind, IdentifyRead } from './constraint.js';

/**
 * The customer a conversation has identified, read from its tool calls through the identify reads the domain's
 * constraint kinds declare (`Grounding.identify`, e.g. a lookup by email whose result is the user id, or a
 * `get_user_details(user_id)` call). Used by `cove generate --from` to pin the task drawn for a conversation
 * prefix to the customer the prefix already identified, and by the verifier to read identifications.
 */

/** Every identify read the kinds declare, each once (a domain whose kinds declare none identifies nobody). */
export function identifyReads(kinds: readonly ConstraintKind[]): IdentifyRead[] {
  const seen = new Map<string, IdentifyRead>();
  for (const kind of kinds) {
    for (const read of kind.grounding?.identify ?? []) {
      const key = `${read.tool}\u0000${read.user === 'result' ? '' : read.user.argument}`;
      if (!seen.has(key)) seen.set(key, read);
    }
  }
  return [...seen.values()];
}

/** A successful tool call as {@link userOfCall} reads it. */
export interface IdentifyingCall {
  readonly name: string;
  /** The parsed arguments; `undefined` when they were not a JSON object. */
  readonly args: PyDict | undefined;
  /** The result text. */
  readonly result: string;
}

/**
 * The user id `call` identifies by `read`: the trimmed result text for a `result` read, the string argument for an
 * argument read; `undefined` when the call is not that read (another tool, the argument missing or not a string,
 * an empty result).
 */
export function userOfCall(read: IdentifyRead, call: IdentifyingCall): string | undefined {
  if (read.tool !== call.name) return undefined;
  if (read.user === 'result') {
    const id = call.result.trim();
    return id === '' ? undefined : id;
  }
  const value = call.args?.get(read.user.argument);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The customer identified last by `calls` (successful calls, in order) through any of `reads`, with the index of
 * the call that identified them; `undefined` when none identifies a user. When a conversation identified two
 * customers, the later one is the one it was about when it stopped.
 */
export function lastIdentifiedUser(
  reads: readonly IdentifyRead[],
  calls: readonly IdentifyingCall[],
): { readonly userId: string; readonly call: number } | undefined {
  for (let i = calls.length - 1; i >= 0; i--) {
    const call = calls[i] as IdentifyingCall;
    for (const read of reads) {
      const userId = userOfCall(read, call);
      if (userId !== undefined) return { userId, call: i };
    }
  }
  return undefined;
}
