import type { ChatMessage } from '../sim/messages.js';
import { type SftOptions, sftFilter, type TrajectoryRecord } from './trajectory.js';

/** One line of `sft.jsonl`: CoVe-12K's shape (`messages`, `tools`, `data_source`), OpenAI chat messages. */
export interface SftRow {
  readonly messages: readonly Record<string, unknown>[];
  readonly tools: TrajectoryRecord['tools'];
  readonly data_source: string;
}

function sftMessage(m: ChatMessage): Record<string, unknown> {
  const row = plainMessage(m);
  // a conversation prefix (`--from`) stays marked; its assistant turns are no training target
  if (m.role === 'system' || m.cove_prefix !== true) return row;
  return m.role === 'assistant' ? { ...row, weight: 0, cove_prefix: true } : { ...row, cove_prefix: true };
}

function plainMessage(m: ChatMessage): Record<string, unknown> {
  switch (m.role) {
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
    case 'assistant':
      return m.tool_calls === undefined || m.tool_calls.length === 0
        ? { role: 'assistant', content: m.content }
        : { role: 'assistant', content: m.content, tool_calls: m.tool_calls };
    default:
      return { role: m.role, content: m.content };
  }
}

/**
 * The SFT rows of a run: kept trajectories sorted by task index, trial and attempt, each starting with the
 * agent's system prompt and ending with the user's stop turn. Messages of a conversation prefix (`--from`) keep
 * `cove_prefix: true`, and its assistant messages get `weight: 0`. `data_source` names the domain and whether the
 * data came from τ²'s benchmark DB (and `simulated-tools` when a model played the tool outputs, kept only with
 * `options.allowSimulatedTools`).
 */
export function sftRows(
  records: readonly TrajectoryRecord[],
  systemPrompt: string,
  options: SftOptions = {},
): SftRow[] {
  return records
    .filter(sftFilter(options))
    .sort((a, b) => a.task_index - b.task_index || a.trial - b.trial || a.attempt - b.attempt)
    .map((r) => ({
      messages: [{ role: 'system', content: systemPrompt }, ...r.messages.map(sftMessage)],
      tools: r.tools,
      data_source: `cove/${r.domain}/${r.benchmark_data ? 'tau2-benchmark-db' : 'sandbox'}${r.tool_outputs === 'model' ? '/simulated-tools' : ''}`,
    }));
}
