import { CANONICAL_JSON } from '../core/hash.js';
import { pyJsonDumps } from '../core/py-json.js';
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
