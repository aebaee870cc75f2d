import type { ExportConversation } from '../conversation.js';
import { isPrefix, parseArguments, trainingMessages } from '../conversation.js';

/** One line of the `hf` format (TRL `SFTTrainer`, Axolotl `chat_template`, Unsloth). */
export interface HfRow {
  readonly messages: readonly Record<string, unknown>[];
  /** The OpenAI tool list as a JSON string (TRL and Axolotl `json.loads` it; no Arrow struct unification). */
  readonly tools: string;
}

/**
 * The `hf` row of a conversation: `{messages, tools}` in the conversational shape TRL's dataset docs show
 * (training-formats §2.2): the system prompt first, assistant tool calls with `arguments` as JSON **objects**
 * (chat templates such as Qwen2.5's `tojson` would double-encode a string), tool messages with `name` and
 * `tool_call_id`, `content` omitted on a pure tool-call turn, and `tools` as a JSON string. The user's final
 * stop turn is left out ({@link trainingMessages}). `reasoning_content` is kept when the model returned one. The assistant messages of a conversation prefix
 * (`--from`) carry `train: false` and `weight: 0` (Axolotl's `message_field_training: train` honours the first; TRL
 * trains every assistant turn, so use `openai` or leave such runs out there).
 */
export function hfRow(conv: ExportConversation): HfRow {
  const messages: Record<string, unknown>[] = [{ role: 'system', content: conv.system }];
  trainingMessages(conv.messages).forEach((m, i) => {
    switch (m.role) {
      case 'assistant': {
        const out: Record<string, unknown> = { role: 'assistant' };
        if (m.content !== null && m.content !== '') out.content = m.content;
        if (m.reasoning_content !== undefined) out.reasoning_content = m.reasoning_content;
        if (m.tool_calls !== undefined && m.tool_calls.length > 0) {
          out.tool_calls = m.tool_calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.function.name, arguments: parseArguments(conv, c.id, c.function.arguments) },
          }));
        }
        if (out.content === undefined && out.tool_calls === undefined) out.content = '';
        if (isPrefix(conv.messages, i)) {
          // a conversation prefix (`--from`) is context, not a target: Axolotl reads `train`, other tools `weight`
          out.train = false;
          out.weight = 0;
        }
        messages.push(out);
        break;
      }
      case 'tool':
        messages.push({ role: 'tool', tool_call_id: m.tool_call_id, name: m.name, content: m.content });
        break;
      default:
        messages.push({ role: m.role, content: m.content });
    }
  });
  return { messages, tools: JSON.stringify(conv.tools) };
}
