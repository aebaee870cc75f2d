import type { Episode } from '../env/episode.js';
import {
  type EpisodeLimits,
  type EpisodeOutcome,
  EpisodeSession,
  type SessionOptions,
} from './episode-session.js';
import type { ChatMessage } from './messages.js';
import { AbortedError, type Agent, type UserSimulator } from './roles.js';

export {
  type EpisodeLimits,
  type EpisodeOutcome,
  type ExecutedToolCall,
  invalidArgumentsError,
  type TerminationReason,
} from './episode-session.js';

/**
 * Runs one episode in-process: a thin driver over {@link EpisodeSession} that asks `agent` for each assistant
 * message and steps the session with it until the episode ends (τ²'s `orchestrator/orchestrator.py` loop rules live in the
 * session). Role failures end the episode with `agent_error`, `user_error` or `infrastructure_error` and a
 * recorded reason. `prefix`: a conversation the episode continues ({@link SessionOptions.prefix}).
 * @throws {AbortedError} when `signal` aborts (the episode is then not recorded).
 */
export async function runEpisode(
  episode: Episode,
  agent: Agent,
  user: UserSimulator,
  limits: EpisodeLimits = {},
  signal?: AbortSignal,
  prefix?: readonly ChatMessage[],
): Promise<EpisodeOutcome> {
  const session = new EpisodeSession(episode, user, {
    limits,
    ...(signal === undefined ? {} : { signal }),
    ...(prefix === undefined ? {} : { prefix }),
  });
  await session.start();
  while (!session.done) {
    let turn: Awaited<ReturnType<Agent['respond']>>;
    try {
      signal?.throwIfAborted();
      turn = await agent.respond(session.messages, signal);
    } catch (e) {
      if (signal?.aborted === true || e instanceof AbortedError) {
        throw new AbortedError('the episode was aborted', { cause: e });
      }
      session.failAgent(e);
      continue;
    }
    await session.stepAgent(turn.message, turn.usage);
  }
  return session.outcome();
}
