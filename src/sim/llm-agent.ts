import type { ApiMessage, ChatModel } from '../llm/chat-model.js';
import type { AgentContext } from './agent-context.js';
import type { AssistantMessage, ChatMessage } from './messages.js';
import { type Agent, type AgentTurn, RoleError } from './roles.js';

/** Extra attempts when the model returns neither text nor tool calls. */
const EMPTY_RETRIES = 2;

/** The conversation in the chat-completions shape, after the agent's system prompt (`tau2-spec.md` §7.2). */
export function agentApiMessages(systemPrompt: string, messages: readonly ChatMessage[]): ApiMessage[] {
  const out: ApiMessage[] = [{ role: 'system', content: systemPrompt }];
  for (const m of messages) {
    if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.tool_call_id, content: m.content });
    else if (m.role === 'assistant') {
      out.push(
        m.tool_calls === undefined || m.tool_calls.length === 0
          ? { role: 'assistant', content: m.content }
          : { role: 'assistant', content: m.content, tool_calls: m.tool_calls },
      );
    } else out.push({ role: m.role, content: m.content });
  }
  return out;
}

/**
 * The agent role played by a model: system prompt (instructions + policy) and the domain's tools in OpenAI
 * format, `tool_choice: auto`. Keeps reasoning text when the server returns it. Invalid tool-call JSON and
 * unknown tool names are passed on as they are (the episode answers them with tool errors).
 */
export class LlmAgent implements Agent {
  readonly #model: ChatModel;
  readonly #context: AgentContext;
  readonly #taskId: string;

  constructor(model: ChatModel, context: AgentContext, taskId: string) {
    this.#model = model;
    this.#context = context;
    this.#taskId = taskId;
  }

  async respond(messages: readonly ChatMessage[]): Promise<AgentTurn> {
    const request = agentApiMessages(this.#context.systemPrompt, messages);
    for (let attempt = 0; ; attempt++) {
      const completion = await this.#model.complete(request, this.#taskId, this.#context.tools);
      const text =
        completion.content === null || completion.content.trim() === '' ? null : completion.content;
      if (text === null && completion.toolCalls.length === 0) {
        if (attempt < EMPTY_RETRIES) continue;
        throw new RoleError(
          'agent',
          'invalid_output',
          `the agent model returned an empty message ${attempt + 1} times`,
        );
      }
      const message: AssistantMessage = {
        role: 'assistant',
        content:
          completion.toolCalls.length > 0 ? (completion.content === '' ? null : completion.content) : text,
        ...(completion.toolCalls.length === 0
          ? {}
          : {
              tool_calls: completion.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }),
        ...(completion.reasoning === undefined ? {} : { reasoning_content: completion.reasoning }),
      };
      return { message, usage: completion.usage };
    }
  }
}
