import type { ChatMessage } from '../sim/messages.js';
import type { EpisodeOutcome } from '../sim/run-episode.js';
import type { Verification } from './verification.js';

/** Why an episode did not yield an SFT trajectory (summary.json's failure attribution). */
export type FailureCause =
  | 'infrastructure'
  | 'agent_error'
  | 'user_error'
  | 'too_many_errors'
  | 'max_steps'
  | 'repeated_tool_call'
  | 'invalid_tool_arguments'
  | 'unknown_tool'
  | 'leak'
  | 'user_stopped_early'
  | 'agent_never_wrote'
  | 'wrong_write'
  | 'redundant_write'
  | 'information_not_given'
  | 'state_mismatch';

const ASKING = /(\(yes\/no\)|proceed|confirm|shall i|should i)/i;

function lastAgentText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'assistant' && m.content !== null && (m.tool_calls ?? []).length === 0) return m.content;
  }
  return '';
}

/**
 * The most specific cause of a failed episode, or `undefined` when it passed. In order: the termination (errors,
 * limits, infrastructure), then invalid arguments, unknown tools and leaks, then the verdict: a write by the tool
 * of an unsatisfied constraint on another entity is a `wrong_write` (the right action on the wrong order, …);
 * other writes outside the constraints are `redundant_write`; a user who stopped while the agent was asking for
 * a confirmation, or before the agent did anything past its greeting, `user_stopped_early`.
 */
export function attributeFailure(
  outcome: Pick<EpisodeOutcome, 'termination' | 'messages' | 'toolCalls'>,
  verification: Verification,
  writeTools: ReadonlySet<string>,
  extra: { leaks: number; invalidToolArguments: number; unknownToolCalls: number },
): FailureCause | undefined {
  switch (outcome.termination) {
    case 'infrastructure_error':
      return 'infrastructure';
    case 'agent_error':
    case 'user_error':
    case 'too_many_errors':
    case 'max_steps':
    case 'repeated_tool_call':
      return outcome.termination;
    default:
      break;
  }
  if (extra.invalidToolArguments > 0) return 'invalid_tool_arguments';
  if (extra.unknownToolCalls > 0) return 'unknown_tool';
  if (extra.leaks > 0) return 'leak';
  if (verification.score === 1) return verification.stateMatch ? undefined : 'state_mismatch';
  const unsatisfied = verification.constraints.filter((c) => !c.satisfied);
  const missedTools = new Set(unsatisfied.map((c) => c.kind));
  if (verification.redundant.some((r) => r.reason === 'outside_footprint' && missedTools.has(r.tool)))
    return 'wrong_write';
  if (verification.redundant.length > 0) return 'redundant_write';
  if (unsatisfied.length > 0 && unsatisfied.every((c) => c.kind === 'information'))
    return 'information_not_given';
  if (ASKING.test(lastAgentText(outcome.messages))) return 'user_stopped_early';
  const agentTurns = outcome.messages.filter((m) => m.role === 'assistant').length;
  if (outcome.termination === 'user_stop' && outcome.toolCalls.length === 0 && agentTurns <= 1)
    return 'user_stopped_early';
  const wrote = outcome.toolCalls.some((c) => writeTools.has(c.name) && !c.error);
  return wrote ? 'wrong_write' : 'agent_never_wrote';
}
