import type { Episode } from '../env/episode.js';
import {
  type EpisodeLimits,
  type EpisodeOutcome,
  EpisodeSession,
  type SessionOptions,
} from './episode-session.js';
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
 * recorded reason. `extra.prefix`: a conversation the episode continues ({@link SessionOptions.prefix}). With
 * `extra.toolOutputs`, a model answers the tool calls instead of `episode` (whose state then never changes; a failing
 * tool model ends the episode with `tools_error`).
 * @throws {AbortedError} when `signal` aborts (the episode is then not recorded).
 */
export async function runEpisode(
  episode: Episode,
  agent: Agent,
  user: UserSimulator,
  limits: EpisodeLimits = {},
  signal?: AbortSignal,
  extra: Pick<SessionOptions, 'prefix' | 'toolOutputs'> = {},
): Promise<EpisodeOutcome> {
  const session = new EpisodeSession(episode, user, {
    limits,
    ...(signal === undefined ? {} : { signal }),
    ...(extra.prefix === undefined ? {} : { prefix: extra.prefix }),
    ...(extra.toolOutputs === undefined ? {} : { toolOutputs: extra.toolOutputs }),
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
