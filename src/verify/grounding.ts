import { JsonSyntaxError, parsePyJson } from '../core/py-json-parse.js';
import { type PyDict, type PyValue, pyEquals, toPyValue } from '../core/py-value.js';
import type { ExecutedToolCall, TerminationReason } from '../sim/episode-session.js';
import { type ChatMessage, STOP_TOKENS } from '../sim/messages.js';
import type { Constraint, Grounding, PredicateResult } from '../tasks/constraint.js';
import { userOfCall } from '../tasks/identified-user.js';

/** What {@link checkGrounding} looks at: the trajectory and the task's user. */
export interface GroundingInput {
  readonly messages: readonly ChatMessage[];
  readonly toolCalls: readonly ExecutedToolCall[];
  readonly termination: TerminationReason;
  /** The task's user (`cove.user_id`); without it any successful identify read counts (older task files). */
  readonly userId: string | undefined;
  /**
   * Whether a successful write serves another constraint of the same task (its footprint holds every entity the
   * write changed): the change the task itself asks for before a refusal on the same entity, e.g. the first item
   * change of an order before a second one is refused. Such a write does not count as a write on the entity.
   * Asked only of writes that changed the entity.
   */
  readonly sanctioned?: (call: ExecutedToolCall) => boolean;
}

function argsOf(call: ExecutedToolCall): PyDict | undefined {
  if (!call.argumentsValid) return undefined;
  try {
    const value = parsePyJson(call.arguments);
    return value instanceof Map ? value : undefined;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return undefined;
    throw e;
  }
}

function resultOf(call: ExecutedToolCall, messages: readonly ChatMessage[]): string {
  const m = messages[call.messageIndex];
  return m?.role === 'tool' ? m.content : '';
}

/**
 * Whether a trajectory grounds a constraint (issue 23): the agent identified the task's user by one of the
 * declared identify reads, then looked up the constraint's entity by one of the declared lookup reads, then
 * wrote to the user (a text after the lookup that is not only a stop token); no successful write changed the
 * entity (but those another constraint of the task asks for: `sanctioned`); and the episode ended by a
 * user or agent stop. The evidence names the calls by id.
 */
export function checkGrounding(
  grounding: Grounding,
  constraint: Constraint,
  input: GroundingInput,
): PredicateResult {
  const no = (why: string): PredicateResult => ({ satisfied: false, evidence: `not grounded: ${why}` });
  if (input.termination !== 'user_stop' && input.termination !== 'agent_stop')
    return no(`the episode ended with ${input.termination}`);
  // a policy that requires no identification declares no identify reads
  const identified =
    grounding.identify.length === 0
      ? -1
      : input.toolCalls.findIndex((call) => {
          if (call.error) return false;
          return grounding.identify.some((read) => {
            if (read.tool !== call.name) return false;
            if (input.userId === undefined) return true;
            const seen = { name: call.name, args: argsOf(call), result: resultOf(call, input.messages) };
            return userOfCall(read, seen) === input.userId;
          });
        });
  if (identified < 0 && grounding.identify.length > 0)
    return no(`the user was never identified (${grounding.identify.map((r) => r.tool).join(' or ')})`);
  const lookedUp = input.toolCalls.findIndex((call, i) => {
    if (i <= identified || call.error) return false;
    const args = argsOf(call);
    return grounding.lookup.some((read) => {
      if (read.tool !== call.name || args === undefined) return false;
      const value = args.get(read.argument);
      const wanted = constraint.args[read.constraintArg];
      return value !== undefined && wanted !== undefined && pyEquals(value, toPyValue(wanted) as PyValue);
    });
  });
  const entityKey = String(constraint.args[grounding.entity.constraintArg]);
  const idCall = input.toolCalls[identified];
  const identifiedBy =
    idCall === undefined ? 'no identification required' : `user identified by ${idCall.id} ${idCall.name}`;
  if (lookedUp < 0)
    return no(
      `${identifiedBy}, but ${entityKey} was never looked up after it (${grounding.lookup
        .map((r) => r.tool)
        .join(' or ')})`,
    );
  const lookupCall = input.toolCalls[lookedUp] as ExecutedToolCall;
  const writer = input.toolCalls.find(
    (call) =>
      !call.error &&
      call.changed.some((r) => r.collection === grounding.entity.collection && r.key === entityKey) &&
      input.sanctioned?.(call) !== true,
  );
  if (writer !== undefined) return no(`${writer.id} ${writer.name} changed ${entityKey}`);
  const told = input.messages.findIndex(
    (m, i) =>
      i > lookupCall.messageIndex &&
      m.role === 'assistant' &&
      (m.tool_calls ?? []).length === 0 &&
      m.content !== null &&
      STOP_TOKENS.reduce((text, token) => text.split(token).join(''), m.content).trim() !== '',
  );
  if (told < 0) return no(`the agent said nothing to the user after ${lookupCall.id} ${lookupCall.name}`);
  return {
    satisfied: true,
    evidence: `${identifiedBy}, ${entityKey} looked up by ${lookupCall.id} ${lookupCall.name}, no write on it, answered at message ${told}`,
  };
}
