import type { OpenAiTool } from '../env/openai-tools.js';
import type { ApiMessage, ChatModel } from '../llm/chat-model.js';
import type { ChatMessage } from '../sim/messages.js';
import type { DescriptiveGoal } from '../tasks/descriptive-block.js';
import {
  isToolError,
  RUBRIC_JUDGE_PROMPT,
  RUBRIC_JUDGE_SYSTEM,
  rubricJudgeRequest,
} from './rubric-judge-prompt.js';
import { decideRubricReply, JudgeReplyError, type RubricDecision } from './rubric-judge-reply.js';

/**
 * The rubric judge (`judge` role; docs/descriptive-tasks.md): one chat call per trajectory with the goals and their
 * rubrics, the tools and the numbered conversation; the reply is read and decided by {@link decideRubricReply}. A
 * reply that cannot be used is sent back with the reason, up to `retries` times. A judge that still fails (its
 * endpoint is down, every reply unusable) gives `passed: null`, never a pass. Every raw reply is kept.
 */

/** A judgment of one trajectory, as stored in a record (`evaluation.report.judge`). */
export interface RubricJudgment extends Partial<Omit<RubricDecision, 'passed'>> {
  /** True or false when a reply was decided; `null` when the judge gave no usable reply. */
  readonly passed: boolean | null;
  /** The judge model's name (absent when judged by a stage: its summary.json names the model). */
  readonly model?: string;
  readonly prompt: string;
  /** Every reply, in order (the last one decided, unless the judge failed). */
  readonly raw: readonly string[];
  readonly attempts: number;
  /** Why an earlier reply was sent back, one per retry. */
  readonly retried_because?: readonly string[];
  readonly usage: {
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly cost_usd: number;
  };
  readonly error?: string;
}

/** The call ids whose tool results are errors (`Error: …`). */
export function errorCallIds(messages: readonly ChatMessage[]): Set<string> {
  return new Set(
    messages.flatMap((m) => (m.role === 'tool' && isToolError(m.content) ? [m.tool_call_id] : [])),
  );
}

/** What the judge sees of one trajectory. */
export interface JudgeInput {
  readonly taskId: string;
  readonly goals: readonly DescriptiveGoal[];
  readonly tools: readonly OpenAiTool[];
  readonly messages: readonly ChatMessage[];
}

/** How the judge's requests are sent: one completion of `messages`, with its usage when known. */
export type JudgeSender = (messages: readonly ApiMessage[]) => Promise<{
  readonly content: string | null;
  readonly usage?: {
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly cost_usd: number;
  };
}>;

/**
 * Judges one trajectory with `model` (requests carry `x-cove-role: judge` and the task id).
 * @see judgeWith for the retries and what is never thrown.
 */
export function judgeTrajectory(
  model: ChatModel,
  input: JudgeInput,
  options: { readonly retries?: number; readonly signal?: AbortSignal } = {},
): Promise<RubricJudgment> {
  return judgeWith(
    (messages) => model.complete(messages, input.taskId, undefined, options.signal),
    model.config.model,
    input,
    options,
  );
}

/**
 * Judges one trajectory through `send` (a chat model, or a synthesis stage's context). @param retries how many
 * unusable replies are sent back for another try (default 2). Never throws for a failing judge (the failure is
 * the `error` of a `passed: null` judgment), except when `signal` aborts.
 */
export async function judgeWith(
  send: JudgeSender,
  modelName: string | undefined,
  input: JudgeInput,
  options: {
    readonly retries?: number;
    readonly signal?: AbortSignal;
    /** Throw a failing request instead of returning `passed: null` (a stage stops and resumes on a rerun). */
    readonly throwCallErrors?: boolean;
  } = {},
): Promise<RubricJudgment> {
  const retries = options.retries ?? 2;
  const errors = errorCallIds(input.messages);
  const conversation: ApiMessage[] = [
    { role: 'system', content: RUBRIC_JUDGE_SYSTEM },
    { role: 'user', content: rubricJudgeRequest(input) },
  ];
  const raw: string[] = [];
  const because: string[] = [];
  const usage = { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 };
  const base = { ...(modelName === undefined ? {} : { model: modelName }), prompt: RUBRIC_JUDGE_PROMPT };
  for (let attempt = 0; attempt <= retries; attempt++) {
    let text: string;
    try {
      const reply = await send(conversation);
      usage.prompt_tokens += reply.usage?.prompt_tokens ?? 0;
      usage.completion_tokens += reply.usage?.completion_tokens ?? 0;
      usage.cost_usd += reply.usage?.cost_usd ?? 0;
      text = reply.content ?? '';
    } catch (e) {
      if (options.signal?.aborted === true || options.throwCallErrors === true) throw e;
      return {
        ...base,
        passed: null,
        raw,
        attempts: attempt + 1,
        ...(because.length === 0 ? {} : { retried_because: because }),
        usage,
        error: `judge call failed: ${(e as Error).message}`,
      };
    }
    raw.push(text);
    try {
      const decision = decideRubricReply(text, input.goals, errors);
      return {
        ...base,
        ...decision,
        raw,
        attempts: attempt + 1,
        ...(because.length === 0 ? {} : { retried_because: because }),
        usage,
      };
    } catch (e) {
      if (!(e instanceof JudgeReplyError)) throw e;
      because.push(e.message);
      conversation.push(
        { role: 'assistant', content: text },
        {
          role: 'user',
          content: `That reply cannot be used: ${e.message}. Answer again with the JSON object only, one entry per rubric item and every tool error listed.`,
        },
      );
    }
  }
  return {
    ...base,
    passed: null,
    raw,
    attempts: retries + 1,
    retried_because: because,
    usage,
    error: `no usable judge reply after ${retries + 1} attempts: ${because.at(-1)}`,
  };
}
