import type { Rng } from '../../core/rng.js';

/** Faults `cove mock-llm` can inject, each with the role it applies to. */
export const FAULTS = {
  '429': 'any',
  '500': 'any',
  timeout: 'any',
  slow: 'any',
  invalid_json: 'agent',
  unknown_tool: 'agent',
  object_args: 'agent',
  missing_id: 'agent',
  empty_content_with_tools: 'agent',
  leak: 'user',
} as const;

export type Fault = keyof typeof FAULTS;

export function isFault(name: string): name is Fault {
  return Object.hasOwn(FAULTS, name);
}

/**
 * Picks the fault of one request: with probability `rate`, one of the enabled faults that applies to the role
 * (agent content faults only when the reply has a tool call).
 */
export function pickFault(
  rng: Rng,
  rate: number,
  enabled: readonly Fault[],
  role: string,
  hasToolCall: boolean,
): Fault | undefined {
  if (rate <= 0 || !rng.chance(rate)) return undefined;
  const applicable = enabled.filter((f) => {
    const target = FAULTS[f];
    if (target === 'any') return true;
    if (target !== role) return false;
    return role !== 'agent' || hasToolCall;
  });
  return applicable.length === 0 ? undefined : rng.pick(applicable);
}
