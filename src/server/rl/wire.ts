import { z } from 'zod';
import { describeIssue, formatIssuePath } from '../../core/schema-helpers.js';
import type { AssistantMessage, ChatMessage, ToolCall } from '../../sim/messages.js';

/** A request the service refuses: its HTTP status (4xx) and a message naming the field at fault. */
export class RequestError extends Error {
  readonly status: 400 | 401 | 404 | 409 | 413 | 422 | 429;
  constructor(status: RequestError['status'], message: string) {
    super(message);
    this.status = status;
  }
}

const text = z.string();
const toolCallSchema = z.object({
  id: z.string().min(1).optional(),
  type: z.literal('function').optional(),
  function: z.object({
    name: z.string().min(1),
    arguments: z.string({
      error: (issue) =>
        issue.input === undefined
          ? 'missing (the arguments as a JSON text)'
          : 'must be a string holding a JSON object (the OpenAI chat shape), not a JSON value',
    }),
  }),
});
const assistantFields = {
  content: text.nullable().optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  reasoning_content: z.string().optional(),
};
/** One assistant message as a client sends it to `/step` (`role` may be left out). */
export const assistantInSchema = z.object({ role: z.literal('assistant').optional(), ...assistantFields });
/** A whole conversation as `POST /reward` takes it (OpenAI chat shape; a leading system message is allowed). */
export const conversationSchema = z
  .array(
    z.discriminatedUnion('role', [
      z.object({ role: z.literal('system'), content: text }),
      z.object({ role: z.literal('user'), content: text }),
      z.object({ role: z.literal('assistant'), ...assistantFields }),
      z.object({
        role: z.literal('tool'),
        tool_call_id: z.string(),
        name: z.string().optional(),
        content: text,
      }),
    ]),
  )
  .min(1);

/** `POST /episodes`. */
export const createSchema = z.strictObject({
  task_id: z.string().min(1),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  user: z.string().min(1).optional(),
});
/** `POST /episodes/{id}/step`. */
export const stepSchema = z.strictObject({ message: assistantInSchema });
/** `POST /reward`. */
export const rewardSchema = z
  .strictObject({
    task_id: z.string().min(1).optional(),
    task: z.record(z.string(), z.unknown()).optional(),
    messages: conversationSchema,
  })
  .refine((b) => (b.task_id === undefined) !== (b.task === undefined), {
    message: 'give exactly one of task_id and task',
  });
/** `POST /openrlhf/reward` (OpenRLHF's remote reward model protocol). */
export const openRlhfSchema = z.object({
  query: z.array(z.string()),
  prompts: z.array(z.string()).optional(),
  labels: z.array(z.string()),
});

/**
 * Validates a request body. @throws {RequestError} 400 naming the JSON path of the first problem
 * (`$.message.tool_calls[0].function.arguments: …`).
 */
export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new RequestError(400, 'invalid request body');
  const where = formatIssuePath(issue.path);
  const what = issue.code === 'unrecognized_keys' ? issue.message : describeIssue(issue, value);
  throw new RequestError(400, `${where}: ${what}`);
}

type AssistantIn = z.output<typeof assistantInSchema>;

/**
 * The session's assistant message from what a client sent: tool calls without an id get `call_<prefix>_<i>`;
 * two calls with one id are refused (their results could not be told apart).
 * @throws {RequestError} 400 for duplicate tool-call ids.
 */
export function assistantMessage(input: AssistantIn, idPrefix: string): AssistantMessage {
  const calls: ToolCall[] = (input.tool_calls ?? []).map((c, i) => ({
    id: c.id ?? `call_${idPrefix}_${i}`,
    type: 'function',
    function: { name: c.function.name, arguments: c.function.arguments },
  }));
  const ids = new Set(calls.map((c) => c.id));
  if (ids.size !== calls.length) throw new RequestError(400, '$.message.tool_calls: two calls share one id');
  return {
    role: 'assistant',
    content: input.content ?? null,
    ...(calls.length === 0 ? {} : { tool_calls: calls }),
    ...(input.reasoning_content === undefined ? {} : { reasoning_content: input.reasoning_content }),
  };
}

/**
 * A conversation in the session's shape: the system message dropped, tool-call ids filled in, each tool message
 * named after its call.
 */
export function conversation(messages: z.output<typeof conversationSchema>): ChatMessage[] {
  const out: ChatMessage[] = [];
  const names = new Map<string, string>();
  messages.forEach((m, i) => {
    if (m.role === 'system') return;
    if (m.role === 'assistant') {
      const a = assistantMessage(m, `m${i}`);
      for (const c of a.tool_calls ?? []) names.set(c.id, c.function.name);
      out.push(a);
    } else if (m.role === 'tool') {
      out.push({
        role: 'tool',
        tool_call_id: m.tool_call_id,
        name: m.name ?? names.get(m.tool_call_id) ?? '',
        content: m.content,
      });
    } else out.push({ role: 'user', content: m.content });
  });
  return out;
}
