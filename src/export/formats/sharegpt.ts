import type { ExportConversation } from '../conversation.js';
import { hasPrefix, isGreeting, parseArguments, trainingMessages } from '../conversation.js';

/** One turn of LLaMA-Factory's ShareGPT format. */
export interface ShareGptTurn {
  readonly from: 'human' | 'gpt' | 'function_call' | 'observation';
  readonly value: string;
}

/** One line of the `sharegpt` format (LLaMA-Factory `formatting: sharegpt`). */
export interface ShareGptRow {
  readonly conversations: readonly ShareGptTurn[];
  readonly system: string;
  /** JSON string of the function schemas (without the `{"type":"function"}` wrapper). */
  readonly tools: string;
}

/** Why a conversation cannot be written in ShareGPT (counted in the dataset card). */
export type ShareGptSkip = 'text_with_tool_call' | 'not_alternating' | 'prefix_not_maskable';

/**
 * How LLaMA-Factory's Qwen-style templates separate several tool results merged into one `observation` (the
 * template wraps the whole value in one `<tool_response>` block); LLaMA-Factory's own OpenAI-format converter
 * joins results the same way.
 */
export const OBSERVATION_JOIN = '\n</tool_response>\n<tool_response>\n';

/**
 * The ShareGPT row of a conversation (training-formats §2.3), or why there is none. The system prompt goes in the
 * top-level `system` column; `user` → `human`; an assistant text → `gpt`; an assistant tool-call turn →
 * `function_call` whose value is the JSON `{"name", "arguments"}` (arguments an object), or a JSON list of them
 * when the turn makes several calls; the tool results that follow → one `observation` (several joined with
 * {@link OBSERVATION_JOIN}). The fixed greeting is left out, since LLaMA-Factory wants `human` first, and so is
 * the user's final stop turn (it wants `gpt`/`function_call` last). A turn with both text and tool calls has no
 * faithful ShareGPT form (LLaMA-Factory's function formatter parses the whole value as JSON), so such a
 * conversation is left out, as is one whose turns do not alternate (LLaMA-Factory would skip it with a warning), and one that continues a
 * conversation prefix (`--from`; LLaMA-Factory has no per-turn weight to keep the prefix out of the loss).
 */
export function shareGptRow(conv: ExportConversation): ShareGptRow | { skip: ShareGptSkip } {
  // LLaMA-Factory trains every gpt turn: a conversation prefix (`--from`) cannot be kept out of the loss
  if (hasPrefix(conv)) return { skip: 'prefix_not_maskable' };
  const turns: ShareGptTurn[] = [];
  const messages = trainingMessages(conv.messages);
  let pending: string[] = [];
  const flush = () => {
    if (pending.length > 0) turns.push({ from: 'observation', value: pending.join(OBSERVATION_JOIN) });
    pending = [];
  };
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m === undefined || isGreeting(messages, i)) continue;
    if (m.role === 'tool') {
      pending.push(m.content);
      continue;
    }
    flush();
    if (m.role === 'user') turns.push({ from: 'human', value: m.content });
    else if (m.role === 'assistant') {
      const calls = m.tool_calls ?? [];
      if (calls.length === 0) {
        turns.push({ from: 'gpt', value: m.content ?? '' });
        continue;
      }
      if (m.content !== null && m.content.trim() !== '') return { skip: 'text_with_tool_call' };
      const json = calls.map((c) => ({
        name: c.function.name,
        arguments: parseArguments(conv, c.id, c.function.arguments),
      }));
      turns.push({ from: 'function_call', value: JSON.stringify(json.length === 1 ? json[0] : json) });
    }
  }
  flush();
  const odd = turns.every((t, i) =>
    i % 2 === 0
      ? t.from === 'human' || t.from === 'observation'
      : t.from === 'gpt' || t.from === 'function_call',
  );
  if (!odd || turns.length === 0 || turns.length % 2 !== 0) return { skip: 'not_alternating' };
  return {
    conversations: turns,
    system: conv.system,
    tools: JSON.stringify(conv.tools.map((t) => t.function)),
  };
}

/** The `dataset_info.json` entry LLaMA-Factory needs for one exported file. */
export function datasetInfoEntry(fileName: string): Record<string, unknown> {
  return {
    file_name: fileName,
    formatting: 'sharegpt',
    columns: { messages: 'conversations', system: 'system', tools: 'tools' },
    tags: {
      role_tag: 'from',
      content_tag: 'value',
      user_tag: 'human',
      assistant_tag: 'gpt',
      observation_tag: 'observation',
      function_tag: 'function_call',
    },
  };
}
