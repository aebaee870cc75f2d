import type { EntityRef } from './change-tracking.js';
import type { Episode } from './episode.js';

/** One entity whose value differs between two episodes forked from the same base. */
export interface EntityDiff extends EntityRef {
  /** τ²-hash serialisation on each side (`null`: absent). */
  readonly left: string | null;
  readonly right: string | null;
}

/**
 * Compares two episodes of the same base by row diffs: only entities changed in either episode can differ,
 * so only those are serialised and compared (τ²-hash style, so `2` and `2.0` differ as they do for τ²).
 * Equivalent to comparing τ²'s whole-DB hashes, at a fraction of the cost.
 */
export function diffEpisodes(left: Episode, right: Episode): EntityDiff[] {
  if (left.base !== right.base) throw new Error('diffEpisodes needs two episodes of the same base');
  const refs = new Map<string, EntityRef>();
  for (const ref of [...left.changedEntities(), ...right.changedEntities()]) {
    refs.set(`${ref.collection}\u0000${ref.key}`, ref);
  }
  const diffs: EntityDiff[] = [];
  for (const ref of refs.values()) {
    const l = left.chunk(ref);
    const r = right.chunk(ref);
    if (l !== r) diffs.push({ ...ref, left: l, right: r });
  }
  return diffs;
}

/** True when both episodes hold the same state (see {@link diffEpisodes}). */
export function sameState(left: Episode, right: Episode): boolean {
  return diffEpisodes(left, right).length === 0;
}
