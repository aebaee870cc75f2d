import { toPyValue } from '../../../core/py-value.js';
import type { EnvironmentBase } from '../../../env/environment-base.js';
import type { Semantics } from '../../../env/tool.js';
import type { Constraint } from '../../../tasks/constraint.js';
import { userState } from './draw.js';
import { RETAIL_CONSTRAINT_KINDS } from './kinds.js';
import type { RetailFuzz } from './requests.js';
import { resolveRequest } from './resolve.js';

function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/**
 * Re-checks a generated task's fuzzy references: the user reference must find the user with τ²'s lookup, and
 * every request must resolve to its constraint's exact arguments both in the initial state and in the state
 * just before it is handled (gold actions of earlier constraints applied). Returns one line per violation.
 */
export function recheckRetailReferences(
  base: EnvironmentBase,
  constraints: readonly Constraint[],
  fuzzValue: Readonly<Record<string, unknown>>,
  semantics: Semantics,
): string[] {
  const fuzz = fuzzValue as unknown as RetailFuzz;
  const episode = base.fork({ semantics });
  const problems: string[] = [];
  try {
    const user = fuzz.user;
    const found =
      user.strategy === 'email'
        ? episode.call('find_user_id_by_email', toPyValue({ email: user.email }))
        : episode.call(
            'find_user_id_by_name_zip',
            toPyValue({ first_name: user.first_name, last_name: user.last_name, zip: user.zip }),
          );
    const userId = found.error ? undefined : found.content;
    if (userId === undefined) return ['user reference finds no user'];
    const initial = userState(episode, userId);
    if (initial === undefined) return ['user not readable'];
    for (const [i, c] of constraints.entries()) {
      const request = fuzz.requests[i];
      if (request === undefined) {
        problems.push(`${c.id}: no request`);
        continue;
      }
      const current = userState(episode, userId);
      for (const [label, state] of [
        ['initial', initial],
        ['current', current],
      ] as const) {
        if (state === undefined) continue;
        const r = resolveRequest(request, state);
        if ('error' in r) {
          problems.push(`${c.id} (${label} state): ${r.error}`);
          continue;
        }
        for (const [key, value] of Object.entries(r.args)) {
          if (canonical(value) !== canonical(c.args[key]))
            problems.push(`${c.id} (${label} state): ${key} resolves to ${canonical(value)}`);
        }
      }
      const kind = RETAIL_CONSTRAINT_KINDS.find((k) => k.name === c.kind);
      for (const action of kind?.goldActions(c) ?? []) episode.call(action.name, toPyValue(action.arguments));
    }
  } finally {
    episode.close();
  }
  return problems;
}
