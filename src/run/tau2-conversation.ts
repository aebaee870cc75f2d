import type { ChatMessage } from '../sim/messages.js';
import type { Tau2Simulation } from '../tau2/results-file.js';
import type { ConversationRecord } from './conversation-metrics.js';

/**
 * A τ² simulation (a results file's `simulations[i]`, `tau2-spec.md` §7.4) as a conversation the measures read:
 * tool calls in the OpenAI shape (arguments as JSON text), tool results linked by `tool_call_id` and named after the
 * call they answer, `null` texts as empty. τ² results record no enacted events.
 */
export function tau2Conversation(simulation: Tau2Simulation): ConversationRecord {
  const names = new Map<string, string>();
  const messages = simulation.messages.map((m): ChatMessage => {
    if (m.role === 'system') return { role: 'system', content: m.content ?? '' };
    if (m.role === 'user') return { role: 'user', content: m.content ?? '' };
    if (m.role === 'tool') {
      return { role: 'tool', tool_call_id: m.id, name: names.get(m.id) ?? '', content: m.content ?? '' };
    }
    const calls = (m.tool_calls ?? []).map((c) => {
      names.set(c.id, c.name);
      return {
        id: c.id,
        type: 'function' as const,
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      };
    });
    return {
      role: 'assistant',
      content: m.content ?? null,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    };
  });
  return { id: simulation.id, messages };
}
