import type { EnvironmentBase } from '../env/environment-base.js';
import type { ExecutedCall } from '../env/episode.js';
import { replayCalls } from '../env/replay.js';
import type { RecordedCall } from './tau2-sim.js';

/**
 * The environment differences cove knows between τ² as it runs it (`parity`) and τ² with its documented tool bugs
 * repaired (`fixed`; README "Semantics and texts" and the airline table): the tools whose behaviour differs, and how.
 */
export const KNOWN_TOOL_DIFFERENCES: Readonly<Record<string, string>> = {
  modify_pending_order_items:
    'retail: τ² gives every modified item the price and options of the last new variant (tau2-bench #318)',
  cancel_reservation:
    'airline: τ² gives no seats back on cancellation and lets a reservation be cancelled twice (tau2-bench #153)',
  update_reservation_flights: 'airline: τ² does not move seat counts when segments change',
  search_onestop_flight:
    'airline: τ² looks for second legs on `2024-05-{day+1}` and compares times with the arrival string, `+1` included',
};

/** One side of a tool answer: its text and error flag. */
export interface ToolAnswer {
  readonly content: string;
  readonly error: boolean;
}

const same = (a: ToolAnswer | undefined, b: ToolAnswer | undefined) =>
  a !== undefined && b !== undefined && a.content === b.content && a.error === b.error;

const clip = (s: string, n = 80) => JSON.stringify(s.length > n ? `${s.slice(0, n)}…` : s);

/** Up to `max` paths (`orders[1].status`) where two JSON values differ, with both values. */
function jsonDifferences(ours: unknown, theirs: unknown, path = '', max = 3, out: string[] = []): string[] {
  if (out.length >= max) return out;
  const isObj = (v: unknown) => typeof v === 'object' && v !== null;
  if (Array.isArray(ours) && Array.isArray(theirs)) {
    if (ours.length !== theirs.length)
      out.push(`${path || '$'}: ${ours.length} items here, ${theirs.length} recorded`);
    for (let i = 0; i < Math.min(ours.length, theirs.length); i++)
      jsonDifferences(ours[i], theirs[i], `${path}[${i}]`, max, out);
    return out;
  }
  if (isObj(ours) && isObj(theirs) && !Array.isArray(ours) && !Array.isArray(theirs)) {
    const a = ours as Record<string, unknown>;
    const b = theirs as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const at = path === '' ? key : `${path}.${key}`;
      if (!(key in b)) out.push(`${at}: not in the recorded output`);
      else if (!(key in a)) out.push(`${at}: only in the recorded output`);
      else jsonDifferences(a[key], b[key], at, max, out);
      if (out.length >= max) break;
    }
    return out;
  }
  if (JSON.stringify(ours) !== JSON.stringify(theirs))
    out.push(`${path || '$'}: ${JSON.stringify(ours)} here, ${JSON.stringify(theirs)} recorded`);
  return out;
}

/** What differs between the replayed and the recorded answer, in a few words. */
function evidence(ours: ToolAnswer, theirs: ToolAnswer): string {
  if (ours.error !== theirs.error) {
    return ours.error
      ? `the environment refuses the call (${clip(ours.content)}) where the recorded answer is a success (${clip(theirs.content)})`
      : `the environment accepts the call (${clip(ours.content)}) where the recorded answer is an error (${clip(theirs.content)})`;
  }
  try {
    const diffs = jsonDifferences(JSON.parse(ours.content), JSON.parse(theirs.content));
    if (diffs.length > 0) return `fields differ: ${diffs.join('; ')}`;
  } catch {
    // not JSON on one side: compare as text
  }
  let at = 0;
  while (at < ours.content.length && ours.content[at] === theirs.content[at]) at++;
  return `the texts part at character ${at}: ${clip(ours.content.slice(at), 40)} here, ${clip(theirs.content.slice(at), 40)} recorded`;
}

/**
 * Explains the first divergence of a replayed simulation by evidence rather than by guess: the calls up to the
 * divergent one are replayed again with τ²'s documented tool bugs repaired (`fixed` semantics, the one known way
 * the environment has differed between τ² and its forks or fixes — the τ² data directory holds one DB per domain
 * for every task set, so task-set versions share it); if that replay gives every recorded answer up to and
 * including the divergent one, the difference is named with the tools concerned. Otherwise the answer is "an
 * edited environment or a tampered trajectory", with what differs (the fields, or the error flag) and whether an
 * earlier call of the simulation had changed the DB (if none had, the data read differs from this db.json, or the
 * recorded message was edited).
 * @param parity the calls as replayed under `parity` (the same order as `recorded`).
 * @param i index of the first divergent call.
 * @param gitCommit the τ² commit that wrote the file (named in the reason).
 */
export function explainDivergence(
  base: EnvironmentBase,
  recorded: readonly RecordedCall[],
  parity: readonly ExecutedCall[],
  i: number,
  gitCommit: string,
): string {
  const theirs = recorded[i] as RecordedCall;
  const ours = parity[i] as ExecutedCall;
  const { episode, calls: fixed } = replayCalls(base, recorded.slice(0, i + 1), { semantics: 'fixed' });
  episode.close();
  const writer = gitCommit === '' ? 'the file' : `the file (τ² ${gitCommit.slice(0, 12)})`;
  const fixedExplains = recorded.slice(0, i + 1).every((r, k) => same(fixed[k], r));
  if (fixedExplains) {
    const touched = [...new Set(recorded.slice(0, i + 1).map((r) => r.name))].filter(
      (name) => KNOWN_TOOL_DIFFERENCES[name] !== undefined,
    );
    const why = touched.map((name) => `${name} (${KNOWN_TOOL_DIFFERENCES[name]})`).join('; ');
    return `a known τ² environment difference: replayed with τ²'s documented tool bugs fixed (cove's \`fixed\` semantics), calls 0–${i} give exactly the recorded answers, so ${writer} was made by an environment with ${why === '' ? 'those bugs' : why} repaired, not τ²'s as cove runs it (\`parity\`)`;
  }
  const earlierWrites = parity.slice(0, i).filter((c) => !c.error && c.changed.length > 0).length;
  const state =
    earlierWrites === 0
      ? 'no earlier call of this simulation changed the DB, so the data read differs from this db.json or the recorded message was edited'
      : `${earlierWrites} earlier call(s) of this simulation changed the DB, and their answers matched`;
  const fixedToo = same(fixed[i], ours)
    ? 'the same with τ²’s documented bugs fixed'
    : 'not the recorded one with them fixed either';
  return `not a known τ² environment difference (the replayed answer is ${fixedToo}): an edited environment or a tampered trajectory — ${evidence(ours, theirs)}; ${state}`;
}
