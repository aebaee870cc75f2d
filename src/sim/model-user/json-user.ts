import { z } from 'zod';
import type { ChatModel } from '../../llm/chat-model.js';
import { type ApiMessage, RequestMessages } from '../../llm/request-messages.js';
import {
  addUsage,
  RoleError,
  type Usage,
  type UserSimulator,
  type UserTurn,
  type VisibleMessage,
} from '../roles.js';
import { jsonUserCorrection } from './json-user-prompt.js';

/** Extra attempts after an invalid reply (each with a corrective message) before the episode ends. */
export const JSON_USER_RETRIES = 2;

/** One turn of the JSON user: what it says, and whether the conversation is over for it. */
export const jsonUserReplySchema = z.object({
  user_message: z.string().refine((s) => s.trim() !== '', 'must not be empty'),
  is_task_complete: z.boolean(),
});
export type JsonUserReply = z.output<typeof jsonUserReplySchema>;

/** A parsed reply, or what is wrong with it (in words the model is shown). */
export type ParsedJsonUserReply = { readonly reply: JsonUserReply } | { readonly problem: string };

/**
 * Parses one reply of the JSON user: a JSON object, optionally inside one Markdown code fence (models often add
 * one), validated by {@link jsonUserReplySchema}.
 */
export function parseJsonUserReply(raw: string): ParsedJsonUserReply {
  const text = raw.trim();
  const fenced = /^```(?:json)?\s*\n?([\s\S]*?)\n?```$/i.exec(text);
  const body = fenced?.[1] ?? text;
  if (body.trim() === '') return { problem: 'it was empty' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { problem: 'it was not valid JSON' };
  }
  const result = jsonUserReplySchema.safeParse(value);
  if (result.success) return { reply: result.data };
  const issue = result.error.issues[0];
  const field = issue?.path.length ? `"${issue.path.join('.')}"` : 'the reply';
  return { problem: `${field} ${issue?.message ?? 'does not match the format'}`.replace(/\.$/, '') };
}

/**
 * The user role played by a model in the JSON style (`--user-style json`): like {@link LlmUser} it sees only the
 * text exchanged with the agent, roles flipped, but every turn it returns `{"user_message", "is_task_complete"}`.
 * Its own earlier turns are shown to it as that JSON. An invalid reply (not JSON, a schema mismatch, an empty
 * message, tool calls) is answered with a corrective message and retried {@link JSON_USER_RETRIES} times; then
 * the episode ends as `user_error`, the raw replies kept in the termination detail. `is_task_complete: true` ends
 * the episode as `user_stop`, the message itself kept clean (no stop token).
 */
export class JsonUser implements UserSimulator {
  readonly #model: ChatModel;
  readonly #systemPrompt: string;
  readonly #taskId: string;
  /** System prompt, then the flipped turns (the user's own turns as their JSON); only grows. */
  readonly #api = new RequestMessages();
  /** Visible messages already in {@link #api}. */
  #seen = 0;

  constructor(model: ChatModel, systemPrompt: string, taskId: string) {
    this.#model = model;
    this.#systemPrompt = systemPrompt;
    this.#taskId = taskId;
  }

  async respond(visible: readonly VisibleMessage[], signal?: AbortSignal): Promise<UserTurn> {
    if (this.#api.length === 0) this.#api.push({ role: 'system', content: this.#systemPrompt });
    // the user's own turns are already in the history (as JSON); only the agent's new texts are added
    for (const m of visible.slice(this.#seen))
      if (m.role === 'agent') this.#api.push({ role: 'user', content: m.content });
    this.#seen = visible.length;
    let request: readonly ApiMessage[] | RequestMessages = this.#api;
    let usage: Usage | undefined;
    const raws: string[] = [];
    let problem = '';
    for (let attempt = 0; attempt <= JSON_USER_RETRIES; attempt++) {
      const completion = await this.#model.complete(request, this.#taskId, undefined, signal);
      usage = usage === undefined ? completion.usage : addUsage(usage, completion.usage);
      const raw = completion.content ?? '';
      raws.push(raw);
      const parsed: ParsedJsonUserReply =
        completion.toolCalls.length > 0
          ? { problem: 'it called tools instead of answering with JSON' }
          : parseJsonUserReply(raw);
      if ('reply' in parsed) {
        const { user_message, is_task_complete } = parsed.reply;
        this.#api.push({ role: 'assistant', content: JSON.stringify({ user_message, is_task_complete }) });
        this.#seen++;
        return { content: user_message, ...(is_task_complete ? { stop: true } : {}), usage };
      }
      problem = parsed.problem;
      request = [
        ...this.#api.messages,
        ...(request instanceof RequestMessages ? [] : request.slice(this.#api.length)),
        { role: 'assistant', content: raw },
        { role: 'user', content: jsonUserCorrection(problem) },
      ];
    }
    throw new RoleError(
      'user',
      'invalid_output',
      `the JSON user gave no valid reply in ${JSON_USER_RETRIES + 1} attempts (last: ${problem}); raw replies: ${JSON.stringify(raws)}`,
    );
  }
}
