import { pyJsonDumps } from '../core/py-json.js';
import { toPyValue } from '../core/py-value.js';
import type { OpenAiTool } from '../env/openai-tools.js';
import type { ChatMessage } from '../sim/messages.js';
import type { Tau2Simulation } from '../tau2/results-file.js';
import type { ExportConversation } from './conversation.js';
import type { PromptParts } from './prompts.js';
import { type ExportRecord, selectedReward } from './select.js';

/** A cove trajectory record as an {@link ExportConversation} (the system prompt comes from its domain and text). */
export function recordConversation(r: ExportRecord, prompt: PromptParts): ExportConversation {
  return {
    id: r.id,
    taskId: r.task_id,
    taskIndex: r.task_index,
    trial: r.trial,
    attempt: r.attempt,
    domain: r.domain,
    system: prompt.systemPrompt,
    messages: r.messages,
    tools: r.tools,
    dataSource: `cove/${r.domain}/${r.benchmark_data ? 'tau2-benchmark-db' : 'sandbox'}`,
    benchmarkData: r.benchmark_data,
    reward: selectedReward(r),
    constraintKinds: r.verification?.constraints.map((c) => c.kind) ?? [],
  };
}

/** Why a τ² simulation cannot become a training conversation. */
export type SimulationSkip = 'user_tool_calls';

/**
 * A τ² simulation as an {@link ExportConversation}: τ²'s flat tool calls become OpenAI's nested shape with the
 * arguments written as τ²'s agent sends them (Python `json.dumps`), tool messages get `tool_call_id` and the tool's
 * name; system messages inside the trajectory are dropped (the prompt is `systemPrompt`). Simulations where the
 * user calls tools (τ²'s telecom) have no agent-only training form and are skipped.
 */
export function simulationConversation(
  sim: Tau2Simulation,
  ctx: { domain: string; taskIndex: number; systemPrompt: string; tools: readonly OpenAiTool[] },
): ExportConversation | { skip: SimulationSkip } {
  const messages: ChatMessage[] = [];
  const names = new Map<string, string>();
  for (const m of sim.messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      if (m.requestor === 'user') return { skip: 'user_tool_calls' };
      messages.push({
        role: 'tool',
        tool_call_id: m.id,
        name: names.get(m.id) ?? '',
        content: m.content ?? '',
      });
      continue;
    }
    const calls = m.tool_calls ?? [];
    if (m.role === 'user') {
      if (calls.length > 0) return { skip: 'user_tool_calls' };
      messages.push({ role: 'user', content: m.content ?? '' });
      continue;
    }
    for (const c of calls) names.set(c.id, c.name);
    messages.push(
      calls.length === 0
        ? { role: 'assistant', content: m.content ?? '' }
        : {
            role: 'assistant',
            content: m.content ?? null,
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: 'function' as const,
              function: { name: c.name, arguments: pyJsonDumps(toPyValue(c.arguments)) },
            })),
          },
    );
  }
  return {
    id: sim.id,
    taskId: sim.task_id,
    taskIndex: ctx.taskIndex,
    trial: sim.trial ?? 0,
    attempt: 0,
    domain: ctx.domain,
    system: ctx.systemPrompt,
    messages,
    tools: ctx.tools,
    dataSource: `tau2/${ctx.domain}`,
    benchmarkData: true,
    reward: sim.reward_info?.reward ?? 0,
    constraintKinds: [],
  };
}
