import type { EntityRef } from './change-tracking.js';
import type { EnvironmentBase } from './environment-base.js';
import type { Episode } from './episode.js';
import { type ReplayCall, replayCalls } from './replay.js';
import type { Semantics } from './tool.js';

/** The end state of a list of gold calls, kept as the τ²-style text of every entity they changed. */
export interface GoldState {
  readonly changed: ReadonlyMap<string, { readonly ref: EntityRef; readonly chunk: string | null }>;
}

/** Gold states kept per base; more are dropped oldest first. */
const MAX_MEMO = 50_000;
const memos = new WeakMap<EnvironmentBase, Map<string, GoldState>>();

function memoOf(base: EnvironmentBase): Map<string, GoldState> {
  let memo = memos.get(base);
  if (memo === undefined) {
    memo = new Map();
    memos.set(base, memo);
  }
  return memo;
}

/**
 * The memo key of a call list: its calls (names and arguments, as JSON) and the semantics. Arguments may be plain
 * JSON or Python values (`PyValue`: dicts as `Map`, ints as `bigint`), which plain `JSON.stringify` would write as
 * `{}` or refuse — so two tasks with the same tool names and different arguments would share a gold state.
 */
export function goldKey(
  calls: readonly { name: string; arguments: unknown }[],
  semantics: Semantics,
): string {
  return JSON.stringify([semantics, calls.map((c) => [c.name, c.arguments])], (_key, value: unknown) => {
    if (value instanceof Map) return { '<dict>': [...value] };
    if (typeof value === 'bigint') return { '<int>': value.toString() };
    return value;
  });
}

/** Captures an episode's changed entities as a gold state and remembers it under `key`. */
export function rememberGoldState(base: EnvironmentBase, key: string, episode: Episode): GoldState {
  const changed = new Map<string, { ref: EntityRef; chunk: string | null }>();
  for (const ref of episode.changedEntities())
    changed.set(`${ref.collection}\u0000${ref.key}`, { ref, chunk: episode.chunk(ref) });
  const state = { changed };
  const memo = memoOf(base);
  if (memo.size >= MAX_MEMO) memo.delete(memo.keys().next().value as string);
  memo.set(key, state);
  return state;
}

/**
 * The gold end state of `calls` on `base` (τ²'s gold replay: every call runs, failures leave what τ² leaves),
 * replayed once and remembered: task synthesis records it while proving solvability, verification reuses it.
 */
export function goldState(
  base: EnvironmentBase,
  key: string,
  calls: readonly ReplayCall[],
  semantics: Semantics,
): GoldState {
  const known = memoOf(base).get(key);
  if (known !== undefined) return known;
  const { episode } = replayCalls(base, calls, { semantics });
  try {
    return rememberGoldState(base, key, episode);
  } finally {
    episode.close();
  }
}

/**
 * Whether an episode's state equals a gold state, by row diffs against the shared base: only entities changed
 * on either side can differ, and those are compared as τ²-hash text (so `2` and `2.0` differ, as for τ²).
 */
export function matchesGold(final: Episode, gold: GoldState): boolean {
  for (const { ref, chunk } of gold.changed.values()) {
    if (final.chunk(ref) !== chunk) return false;
  }
  for (const ref of final.changedEntities()) {
    if (gold.changed.has(`${ref.collection}\u0000${ref.key}`)) continue;
    const digest = final.base.digest;
    const baseChunk = digest.has(ref.collection, ref.key)
      ? digest.chunk('tau2', ref.collection, ref.key)
      : null;
    if (final.chunk(ref) !== baseChunk) return false;
  }
  return true;
}
