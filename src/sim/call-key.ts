import { CANONICAL_JSON } from '../core/hash.js';
import { pyJsonDumps } from '../core/py-json.js';
import { JsonSyntaxError, parsePyJson } from '../core/py-json-parse.js';
import type { PyValue } from '../core/py-value.js';

/**
 * A tool call's identity by meaning: its name and its arguments in cove's canonical JSON (keys sorted at every
 * level, compact, an integral float written as an int, so `2` and `2.0` are the same number as Python's `==`
 * sees them). Spacing and key order in the raw argument text never make two calls different. Arguments that
 * did not parse are compared as raw text.
 */
export function canonicalCallKey(name: string, args: PyValue | string): string {
  return `${name}\u0000${typeof args === 'string' ? `raw:${args}` : pyJsonDumps(args, CANONICAL_JSON)}`;
}

/** SFT drops a trajectory with this many identical calls in a row, guard or no guard (issue 23). */
export const IDENTICAL_CALL_RUN_LIMIT = 5;

/** {@link canonicalCallKey} of a call as recorded (its raw argument text parsed as τ² would; unparsable text kept raw). */
export function recordedCallKey(name: string, argumentsText: string): string {
  try {
    const value = parsePyJson(argumentsText);
    return canonicalCallKey(name, value instanceof Map ? value : argumentsText);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return canonicalCallKey(name, argumentsText);
    throw e;
  }
}

/**
 * The longest run of consecutive tool calls that are identical by name and canonical arguments (0 without
 * calls), e.g. 3 for `a, a, b, a, a, a`, however the arguments were spaced or their keys ordered.
 */
export function longestIdenticalRun(calls: readonly { name: string; arguments: string }[]): number {
  let longest = 0;
  let run = 0;
  let last: string | undefined;
  for (const call of calls) {
    const key = recordedCallKey(call.name, call.arguments);
    run = key === last ? run + 1 : 1;
    last = key;
    longest = Math.max(longest, run);
  }
  return longest;
}
