import type { ExportConversation } from '../conversation.js';
import { isGreeting, isPrefix, trainingMessages } from '../conversation.js';

/** One line of the `openai` format (OpenAI chat fine-tuning with tools). */
export interface OpenAiRow {
  readonly messages: readonly Record<string, unknown>[];
  readonly tools: ExportConversation['tools'];
  readonly parallel_tool_calls: boolean;
}

/**
 * The OpenAI fine-tuning row of a conversation (training-formats §2.1; `FineTuneChatRequestInput`): the system
 * prompt first, `arguments` as JSON **strings** (the wire format), tool messages as `{role, tool_call_id,
 * content}`, and a `weight` on every assistant message: 1 where the agent wrote it, 0 on the fixed greeting (no
 * model wrote it) and on the messages of a conversation prefix (`--from`: given, not generated). Only assistant messages carry `weight` (the API trains nothing else). `parallel_tool_calls`
 * is true when some turn makes several calls. `reasoning_content` is dropped (not part of the format).
 */
export function openAiRow(conv: ExportConversation): OpenAiRow {
  const messages: Record<string, unknown>[] = [{ role: 'system', content: conv.system }];
  let parallel = false;
  trainingMessages(conv.messages).forEach((m, i) => {
    switch (m.role) {
      case 'assistant': {
        const out: Record<string, unknown> = { role: 'assistant', content: m.content };
        if (m.tool_calls !== undefined && m.tool_calls.length > 0) {
          out.tool_calls = m.tool_calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.function.name, arguments: c.function.arguments },
          }));
          if (m.tool_calls.length > 1) parallel = true;
        }
        out.weight = isGreeting(conv.messages, i) || isPrefix(conv.messages, i) ? 0 : 1;
        messages.push(out);
        break;
      }
      case 'tool':
        messages.push({ role: 'tool', tool_call_id: m.tool_call_id, content: m.content });
        break;
      default:
        messages.push({ role: m.role, content: m.content });
    }
  });
  return { messages, tools: conv.tools, parallel_tool_calls: parallel };
}
