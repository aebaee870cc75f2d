import { CHANGES_TABLE } from './change-tracking.js';
import { EnvironmentBase } from './environment-base.js';
import type { Episode, EpisodeOptions } from './episode.js';

/**
 * A new base holding `base`'s state after `apply` ran on an episode forked from it (e.g. the tool calls of a
 * conversation prefix, `cove generate --from`). The episode's connection becomes the new base: its writes are
 * committed and the change log cleared, so the new base's episodes diff against the state after `apply`.
 * `base` is left as it was. The caller closes the new base.
 */
export function deriveBase(
  base: EnvironmentBase,
  apply: (episode: Episode) => void,
  options: EpisodeOptions = {},
): EnvironmentBase {
  const episode = base.fork(options);
  const sql = episode.sql;
  try {
    apply(episode);
    sql.exec('COMMIT');
    sql.run(`DELETE FROM ${CHANGES_TABLE}`);
    sql.takeWrites();
    sql.entityCache = undefined;
  } catch (e) {
    episode.close();
    throw e;
  }
  return new EnvironmentBase(base.spec, sql);
}
