import type { PyValue } from '../core/py-value.js';
import type { EnvironmentBase } from './environment-base.js';
import type { Episode, EpisodeOptions, ExecutedCall } from './episode.js';

/** A tool call to replay: a name and its raw arguments. */
export interface ReplayCall {
  readonly name: string;
  readonly arguments: PyValue;
}

/** What replaying a list of calls produced. The episode is left open for inspection; close it when done. */
export interface ReplayResult {
  readonly episode: Episode;
  readonly calls: readonly ExecutedCall[];
}

/**
 * Replays calls in order on a fresh episode, the way τ² builds its gold state: every call is executed and a
 * failing call simply has the effect τ² leaves (usually none); nothing stops the replay.
 */
export function replayCalls(
  base: EnvironmentBase,
  calls: readonly ReplayCall[],
  options: EpisodeOptions = {},
): ReplayResult {
  const episode = base.fork(options);
  const executed = calls.map((c) => episode.call(c.name, c.arguments));
  return { episode, calls: executed };
}
