import { toPyValue } from '../../../core/py-value.js';
import type { EnvironmentBase } from '../../../env/environment-base.js';
import type { Semantics } from '../../../env/tool.js';
import type { Constraint } from '../../../tasks/constraint.js';
import { airlineState } from './draw.js';
import { AIRLINE_CONSTRAINT_KINDS } from './kinds.js';
import type { AirlineFuzz } from './requests.js';
import { resolveRequest } from './resolve.js';

function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/**
 * Re-checks a generated airline task's fuzzy references: the user id must find the user, and every request must
 * resolve to its constraint's exact arguments in the state just before it is handled (gold actions of the earlier
 * constraints applied), where the agent resolves it. Returns one line per violation.
 */
export function recheckAirlineReferences(
  base: EnvironmentBase,
  constraints: readonly Constraint[],
  fuzzValue: Readonly<Record<string, unknown>>,
  semantics: Semantics,
): string[] {
  const fuzz = fuzzValue as unknown as AirlineFuzz;
  const episode = base.fork({ semantics });
  const problems: string[] = [];
  try {
    if (airlineState(episode, fuzz.user.user_id) === undefined) return ['user reference finds no user'];
    for (const [i, c] of constraints.entries()) {
      const request = fuzz.requests[i];
      const state = airlineState(episode, fuzz.user.user_id);
      if (request === undefined || state === undefined) {
        problems.push(`${c.id}: no request`);
        continue;
      }
      const r = resolveRequest(request, state);
      if ('error' in r) problems.push(`${c.id}: ${r.error}`);
      else
        for (const [key, value] of Object.entries(r.args)) {
          if (canonical(value) !== canonical(c.args[key]))
            problems.push(`${c.id}: ${key} resolves to ${canonical(value)}, not ${canonical(c.args[key])}`);
        }
      const kind = AIRLINE_CONSTRAINT_KINDS.find((k) => k.name === c.kind);
      for (const action of kind?.goldActions(c) ?? []) episode.call(action.name, toPyValue(action.arguments));
    }
  } finally {
    episode.close();
  }
  return problems;
}
