import { randomBytes } from 'node:crypto';
import type { IndexedTask } from '../../run/episode-runner.js';
import type { EpisodeSession } from '../../sim/episode-session.js';
import { RequestError } from './wire.js';

/** One live episode of the service. */
export interface LiveEpisode {
  readonly id: string;
  readonly task: IndexedTask;
  readonly session: EpisodeSession;
  /** The user simulator's name (`scripted`, `openai:<model>`). */
  readonly userName: string;
  readonly seed: number;
  /** `performance.now()` at creation. */
  readonly startedAt: number;
  /** `Date.now()` of the last request that touched it. */
  lastActive: number;
  /** True while a step waits for the user simulator: another step or a delete is refused (409). */
  busy: boolean;
  /** Set once the episode is over and graded (the reward endpoint answers it from then on). */
  final?: { readonly reward: number | null; readonly report: Readonly<Record<string, unknown>> };
  /** Tool-call ids handed out for calls sent without one (MCP calls, id-less steps). */
  calls: number;
}

/**
 * The live episodes of the service: at most `maxEpisodes` at once (a new one past that is refused with 429);
 * an episode untouched for `idleTimeoutMs` is closed and forgotten (its database connection returns to the
 * pool) by a sweep that runs every few seconds, and on every lookup. Ids are 96 random bits, so a client cannot
 * guess another's episode.
 */
export class EpisodeRegistry {
  readonly #episodes = new Map<string, LiveEpisode>();
  readonly #maxEpisodes: number;
  readonly #idleTimeoutMs: number;
  readonly #timer: NodeJS.Timeout;
  #expired = 0;

  constructor(options: { maxEpisodes: number; idleTimeoutMs: number }) {
    this.#maxEpisodes = options.maxEpisodes;
    this.#idleTimeoutMs = options.idleTimeoutMs;
    this.#timer = setInterval(() => this.sweep(), Math.max(50, Math.min(5000, options.idleTimeoutMs / 4)));
    this.#timer.unref();
  }

  /** Live episodes now. */
  get size(): number {
    return this.#episodes.size;
  }

  /** Episodes closed for being idle so far. */
  get expired(): number {
    return this.#expired;
  }

  /** A fresh episode id (`ep_` and 24 hex digits). */
  newId(): string {
    return `ep_${randomBytes(12).toString('hex')}`;
  }

  /** Throws 429 when no further episode may start. */
  reserve(): void {
    if (this.#episodes.size >= this.#maxEpisodes) this.sweep();
    if (this.#episodes.size >= this.#maxEpisodes) {
      throw new RequestError(
        429,
        `${this.#episodes.size} episodes are live, the most this service keeps (--max-episodes ${this.#maxEpisodes}); delete finished ones or retry later`,
      );
    }
  }

  add(episode: LiveEpisode): void {
    this.reserve();
    this.#episodes.set(episode.id, episode);
  }

  /** The episode, marked active. @throws {RequestError} 404 for an unknown or expired id. */
  get(id: string): LiveEpisode {
    const episode = this.#episodes.get(id);
    if (episode === undefined || this.#isIdle(episode)) {
      if (episode !== undefined) this.#expire(episode);
      throw new RequestError(404, `no live episode '${id}' (unknown, deleted, or expired after being idle)`);
    }
    episode.lastActive = Date.now();
    return episode;
  }

  /** Closes and forgets an episode. @throws {RequestError} 404 for an unknown id, 409 while a step runs. */
  delete(id: string): LiveEpisode {
    const episode = this.get(id);
    if (episode.busy) throw new RequestError(409, `episode ${id} has a step under way; delete it after`);
    this.#episodes.delete(id);
    episode.session.close();
    return episode;
  }

  /** Closes episodes idle for longer than the timeout. */
  sweep(): void {
    for (const episode of this.#episodes.values()) if (this.#isIdle(episode)) this.#expire(episode);
  }

  /** Closes every episode and stops the sweep. */
  close(): void {
    clearInterval(this.#timer);
    for (const episode of this.#episodes.values()) episode.session.close();
    this.#episodes.clear();
  }

  #isIdle(episode: LiveEpisode): boolean {
    return !episode.busy && Date.now() - episode.lastActive > this.#idleTimeoutMs;
  }

  #expire(episode: LiveEpisode): void {
    this.#episodes.delete(episode.id);
    episode.session.close();
    this.#expired++;
  }
}
