import type { AssistantMessage, ChatMessage, ToolCall } from '../../sim/messages.js';

const START = '<|im_start|>';
const END = '<|im_end|>';
const TOOL_CALL = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;
const TOOL_RESPONSE = /<tool_response>\s*([\s\S]*?)\s*<\/tool_response>/g;
const THINK = /<think>[\s\S]*?<\/think>/g;

/** One Hermes tool call (`{"name": …, "arguments": {…}}`), or undefined when it is not one. */
function hermesCall(text: string, id: string): ToolCall | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, arguments: args } = value as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name === '') return undefined;
  return {
    id,
    type: 'function',
    function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) },
  };
}

/**
 * Reads a conversation back from its decoded ChatML text (`<|im_start|>role\n…<|im_end|>`, as Qwen's and
 * Hermes' chat templates render it; what OpenRLHF sends its remote reward model): assistant turns with
 * `<tool_call>{"name", "arguments"}</tool_call>` blocks become tool calls (`<think>` blocks dropped, a block that
 * is not such JSON is dropped as a call the environment would not have run), `<tool_response>` blocks in user
 * turns (or `tool` turns) become tool messages answering the pending calls in order, system turns are skipped. A
 * last turn without `<|im_end|>` (the generation stopped on another token) is read to the end, with
 * `<|endoftext|>` removed. Call ids are `call_<n>` in order.
 * @returns the messages, or `undefined` when the text holds no ChatML turn.
 */
export function parseChatMl(text: string): ChatMessage[] | undefined {
  if (!text.includes(START)) return undefined;
  const out: ChatMessage[] = [];
  let pending: ToolCall[] = [];
  let n = 0;
  const answer = (content: string) => {
    const call = pending.shift();
    out.push({ role: 'tool', tool_call_id: call?.id ?? '', name: call?.function.name ?? '', content });
  };
  for (const chunk of text.split(START).slice(1)) {
    const newline = chunk.indexOf('\n');
    if (newline === -1) continue;
    const role = chunk.slice(0, newline).trim();
    const end = chunk.indexOf(END);
    let content = end === -1 ? chunk.slice(newline + 1) : chunk.slice(newline + 1, end);
    if (end === -1) content = content.replace(/<\|endoftext\|>/g, '');
    if (role === 'assistant') {
      const calls: ToolCall[] = [];
      const visible = content.replace(THINK, '');
      for (const m of visible.matchAll(TOOL_CALL)) {
        const call = hermesCall(m[1] ?? '', `call_${n}`);
        if (call !== undefined) {
          calls.push(call);
          n++;
        }
      }
      const rest = visible.replace(TOOL_CALL, '').trim();
      const message: AssistantMessage = {
        role: 'assistant',
        content: rest === '' && calls.length > 0 ? null : rest,
        ...(calls.length === 0 ? {} : { tool_calls: calls }),
      };
      out.push(message);
      pending = [...calls];
    } else if (role === 'tool') {
      answer(content.replace(TOOL_RESPONSE, '$1').trim());
    } else if (role === 'user') {
      const responses = [...content.matchAll(TOOL_RESPONSE)].map((m) => m[1] ?? '');
      for (const r of responses) answer(r);
      const rest = content.replace(TOOL_RESPONSE, '').trim();
      if (responses.length === 0 || rest !== '') out.push({ role: 'user', content: rest });
    }
  }
  return out;
}
