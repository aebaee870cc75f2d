import { JsonSyntaxError, parsePyJson } from '../../core/py-json-parse.js';
import type { PyValue } from '../../core/py-value.js';
import type { Domain } from '../../domains/domain.js';
import type { EnvironmentBase } from '../../env/environment-base.js';
import type { Episode } from '../../env/episode.js';
import type { Semantics } from '../../env/tool.js';
import { gradeEpisode, type IndexedTask } from '../../run/episode-runner.js';
import {
  type ExecutedToolCall,
  invalidArgumentsError,
  type TerminationReason,
} from '../../sim/episode-session.js';
import { type ChatMessage, hasStopToken } from '../../sim/messages.js';

/** What the reward endpoints answer: the evaluator's reward (`null`: a component could not be evaluated). */
export interface RewardAnswer {
  readonly reward: number | null;
  readonly report: Readonly<Record<string, unknown>>;
}

/** What grading needs from the service. */
export interface GradingContext {
  readonly domain: Domain;
  readonly gamma?: number;
}

/**
 * The task's evaluator on a conversation and its state: with a termination, its verdict as is; without one (the
 * episode goes on), reward 0 — the termination gate of both evaluators (CoVe's `terminationOk`, τ²'s stop rule)
 * — and, under `if_user_stopped_now`, what the evaluator would give if the user stopped at this point (a dense
 * signal for shaping; never the reward itself).
 */
export async function gradeNow(
  context: GradingContext,
  task: IndexedTask,
  state: {
    readonly messages: readonly ChatMessage[];
    readonly toolCalls: readonly ExecutedToolCall[];
    readonly termination: TerminationReason | undefined;
    readonly env: Episode;
  },
): Promise<RewardAnswer> {
  const outcome = {
    messages: state.messages as ChatMessage[],
    toolCalls: state.toolCalls,
    termination: state.termination ?? 'user_stop',
  };
  const graded = await gradeEpisode(
    context.domain,
    { task: task.task, outcome, env: state.env },
    context.gamma,
  );
  const verification = graded.verification === undefined ? {} : { verification: graded.verification };
  if (state.termination !== undefined) {
    return {
      reward: graded.evaluation.reward,
      report: {
        evaluator: graded.evaluation.evaluator,
        termination: state.termination,
        ...graded.evaluation.report,
        ...verification,
      },
    };
  }
  return {
    reward: 0,
    report: {
      evaluator: graded.evaluation.evaluator,
      termination: null,
      note: 'not terminated (no user stop yet): the termination gate gives 0',
      if_user_stopped_now: { reward: graded.evaluation.reward, ...graded.evaluation.report },
    },
  };
}

/** A tool output recorded in a conversation that differs from what replaying its call gives. */
export interface OutputDifference {
  readonly tool_call_id: string;
  readonly name: string;
  /** The recorded output (cut at 2,000 characters), or `null` when the conversation has no tool message for the call. */
  readonly recorded: string | null;
  readonly replayed: string;
}

function cut(s: string): string {
  return s.length > 2000 ? `${s.slice(0, 2000)}…` : s;
}

/**
 * Replays the tool calls of a conversation made elsewhere — every assistant `tool_calls` entry, in order — on a
 * fresh fork of the base, as an episode would have executed them (invalid JSON arguments get cove's tool error,
 * as in a live episode), and grades the result with the task's evaluator. The termination is `user_stop` when the
 * last user message holds a stop token; otherwise the conversation is not terminated and the reward is 0.
 * Recorded tool outputs that differ from the replay are listed in `report.tool_output_differences` (the replay
 * decides the state; the recorded texts are only compared).
 */
export async function conversationReward(
  context: GradingContext & { readonly base: EnvironmentBase; readonly semantics: Semantics },
  task: IndexedTask,
  messages: readonly ChatMessage[],
): Promise<RewardAnswer> {
  const env = context.base.fork({ semantics: context.semantics });
  try {
    const toolCalls: ExecutedToolCall[] = [];
    const differences: OutputDifference[] = [];
    const recorded = new Map<string, { content: string; index: number }>();
    messages.forEach((m, index) => {
      if (m.role === 'tool' && !recorded.has(m.tool_call_id))
        recorded.set(m.tool_call_id, { content: m.content, index });
    });
    for (const m of messages) {
      if (m.role !== 'assistant') continue;
      for (const call of m.tool_calls ?? []) {
        const parsed = parseArguments(call.function.arguments);
        const result =
          'error' in parsed
            ? { content: invalidArgumentsError(parsed.error), error: true, changed: [] }
            : env.call(call.function.name, parsed.value);
        const mine = recorded.get(call.id);
        if (mine === undefined || mine.content !== result.content) {
          differences.push({
            tool_call_id: call.id,
            name: call.function.name,
            recorded: mine === undefined ? null : cut(mine.content),
            replayed: cut(result.content),
          });
        }
        toolCalls.push({
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
          argumentsValid: !('error' in parsed),
          error: result.error,
          changed: result.changed,
          messageIndex: mine?.index ?? -1,
        });
      }
    }
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const stopped = lastUser !== undefined && hasStopToken(lastUser.content);
    const answer = await gradeNow(context, task, {
      messages,
      toolCalls,
      termination: stopped ? 'user_stop' : undefined,
      env,
    });
    return {
      reward: answer.reward,
      report: {
        ...answer.report,
        replayed_tool_calls: toolCalls.length,
        tool_output_differences: differences,
      },
    };
  } finally {
    env.close();
  }
}

/** The arguments of a call as the session parses them: a JSON object, or why not. */
function parseArguments(text: string): { value: PyValue } | { error: string } {
  try {
    const value = parsePyJson(text);
    return value instanceof Map ? { value } : { error: 'expected a JSON object' };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { error: e.message };
    throw e;
  }
}
