import { parsePyJson } from '../../core/py-json-parse.js';
import type { PyValue } from '../../core/py-value.js';
import type { Domain } from '../../domains/domain.js';
import type { EnvironmentBase } from '../../env/environment-base.js';
import type { Semantics } from '../../env/tool.js';

/** The part of a tool-model request (the JSON of its user message) the mock reads. */
export interface ToolRequest {
  readonly tool: string;
  readonly arguments: unknown;
  readonly earlier_calls: readonly { readonly tool: string; readonly arguments: unknown }[];
}

/**
 * Reads the request of cove's tool model (`x-cove-role: tools`): the JSON object in its first user message.
 * @returns `undefined` when the request holds no such object.
 */
export function toolRequest(
  messages: readonly { role: string; content?: string | null }[],
): ToolRequest | undefined {
  const first = messages.find((m) => m.role === 'user');
  try {
    const value = JSON.parse(first?.content ?? '') as Partial<ToolRequest>;
    if (typeof value.tool !== 'string' || !Array.isArray(value.earlier_calls)) return undefined;
    return value as ToolRequest;
  } catch {
    return undefined;
  }
}

const pyArgs = (value: unknown): PyValue => parsePyJson(JSON.stringify(value ?? {}));

/**
 * Answers a tool-model request with what the real database would answer: the earlier calls of the conversation
 * are replayed on a fresh fork of the task's DB (whatever outputs the conversation shows for them), then the asked
 * call runs; its result is sent as `{"output": …}` (the tool's own JSON text, or a string for a text output) or
 * `{"error": "Error: …"}`. So a run whose tool outputs cove's tool model plays against this mock sees the same
 * tool messages as a run on the database, while its own state never changes.
 */
export function oracleToolReply(
  domain: Domain,
  base: EnvironmentBase,
  semantics: Semantics,
  request: ToolRequest,
): string {
  const episode = base.fork({ semantics });
  try {
    for (const c of request.earlier_calls) episode.call(c.tool, pyArgs(c.arguments));
    const result = episode.call(request.tool, pyArgs(request.arguments));
    if (result.error) return JSON.stringify({ error: result.content });
    const text = domain.outputSchemas?.[request.tool]?.type === 'string';
    return `{"output": ${text ? JSON.stringify(result.content) : result.content}}`;
  } finally {
    episode.close();
  }
}
