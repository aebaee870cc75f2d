import type { OpenAiTool } from '../env/openai-tools.js';
import { AGENT_GREETING, type ChatMessage } from '../sim/messages.js';

/**
 * One conversation on its way to a training file, whatever it was read from (a cove trajectory record or a τ²
 * simulation): the agent's system prompt, the messages in cove's OpenAI chat shape (tool-call arguments as JSON
 * strings, tool results linked by `tool_call_id`), the tools, and what the dataset card counts.
 */
export interface ExportConversation {
  /** Trajectory id (cove) or simulation id (τ²). */
  readonly id: string;
  readonly taskId: string;
  /** Orders rows: task index (cove) or position of the task in the results file (τ²). */
  readonly taskIndex: number;
  readonly trial: number;
  readonly attempt: number;
  readonly domain: string;
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly OpenAiTool[];
  /** `cove/<domain>/sandbox`, `cove/<domain>/tau2-benchmark-db` or `tau2/<domain>` (as sft.jsonl's `data_source`). */
  readonly dataSource: string;
  readonly benchmarkData: boolean;
  /** The reward that selected it: CoVe's score, or τ²'s reward. */
  readonly reward: number;
  /** Constraint kinds of the task (CoVe tasks; empty for τ² tasks). */
  readonly constraintKinds: readonly string[];
}

/**
 * True when message `index` is the fixed opening line τ²'s orchestrator (and cove) put in the agent's mouth
 * (`tau2-spec.md` §7.1): written by no model, so never a training target.
 */
export function isGreeting(messages: readonly ChatMessage[], index: number): boolean {
  const m = messages[index];
  return (
    index === 0 &&
    m?.role === 'assistant' &&
    m.content === AGENT_GREETING &&
    (m.tool_calls?.length ?? 0) === 0
  );
}

/**
 * True when message `index` belongs to a conversation prefix (`cove generate --from`, marked `cove_prefix`): given,
 * not generated, so never a training target (weight 0, or the row is left out where a format cannot say so).
 */
export function isPrefix(messages: readonly ChatMessage[], index: number): boolean {
  const m = messages[index];
  return m !== undefined && m.role !== 'system' && m.cove_prefix === true;
}

/** True when a conversation continues a prefix. */
export function hasPrefix(conv: Pick<ExportConversation, 'messages'>): boolean {
  return isPrefix(conv.messages, 0);
}

/**
 * The messages a training row holds: all but the trailing non-agent messages (the user's final stop turn, after
 * which the agent says nothing: there is nothing to learn from it, and LLaMA-Factory rejects a conversation that
 * does not end on the assistant).
 */
export function trainingMessages(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1]?.role !== 'assistant') end--;
  return messages.slice(0, end);
}

/**
 * Parses a tool call's JSON-string arguments into an object.
 * @throws {Error} naming the conversation and the call when the text is not a JSON object (such trajectories never
 *   pass selection, since an invalid argument text makes `invalid_tool_arguments` non-zero).
 */
export function parseArguments(conv: { id: string }, callId: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(
      `trajectory ${conv.id}: tool call ${callId} has arguments that are not JSON: ${text.slice(0, 80)}`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`trajectory ${conv.id}: tool call ${callId} has arguments that are not a JSON object`);
  }
  return value as Record<string, unknown>;
}
