import type { ChatModel } from '../llm/chat-model.js';
import { type ApiMessage, RequestMessages } from '../llm/request-messages.js';
import type { AgentContext } from './agent-context.js';
import type { AssistantMessage, ChatMessage } from './messages.js';
import { type Agent, type AgentTurn, RoleError } from './roles.js';

/** Extra attempts when the model returns neither text nor tool calls. */
const EMPTY_RETRIES = 2;

/** One conversation message in the chat-completions shape. */
function apiMessage(m: ChatMessage): ApiMessage {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
  if (m.role === 'assistant') {
    return m.tool_calls === undefined || m.tool_calls.length === 0
      ? { role: 'assistant', content: m.content }
      : { role: 'assistant', content: m.content, tool_calls: m.tool_calls };
  }
  return { role: m.role, content: m.content };
}

/** The conversation in the chat-completions shape, after the agent's system prompt (τ²'s `agent/llm_agent.py`). */
export function agentApiMessages(systemPrompt: string, messages: readonly ChatMessage[]): ApiMessage[] {
  return [{ role: 'system', content: systemPrompt }, ...messages.map(apiMessage)];
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
  /** The request messages so far: the history only grows, so each call converts just the new messages. */
  readonly #api = new RequestMessages();

  constructor(model: ChatModel, context: AgentContext, taskId: string) {
    this.#model = model;
    this.#context = context;
    this.#taskId = taskId;
  }

  async respond(messages: readonly ChatMessage[], signal?: AbortSignal): Promise<AgentTurn> {
    if (this.#api.length === 0) this.#api.push({ role: 'system', content: this.#context.systemPrompt });
    for (const m of messages.slice(this.#api.length - 1)) this.#api.push(apiMessage(m));
    const request = this.#api;
    for (let attempt = 0; ; attempt++) {
      const completion = await this.#model.complete(request, this.#taskId, this.#context.tools, signal);
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
