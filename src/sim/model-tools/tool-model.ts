import { type JsonSchema, schemaMismatch } from '../../core/json-schema-check.js';
import { pyJsonDumps } from '../../core/py-json.js';
import { JsonSyntaxError, parsePyJson } from '../../core/py-json-parse.js';
import type { PyValue } from '../../core/py-value.js';
import type { OpenAiTool } from '../../env/openai-tools.js';
import type { ChatModel } from '../../llm/chat-model.js';
import type { ApiMessage } from '../../llm/request-messages.js';
import { addUsage, RoleError, type Usage, type VisibleMessage } from '../roles.js';
import { TOOL_MODEL_GUIDELINES, toolModelCorrection } from './tool-model-prompt.js';

/** Extra attempts after an invalid reply (each with a corrective message) before the episode ends. */
export const TOOL_MODEL_RETRIES = 2;

/** One tool call already answered in the episode, as the tool model is shown it. */
export interface AnsweredCall {
  readonly name: string;
  /** The call's arguments as the agent sent them (JSON text of an object). */
  readonly arguments: string;
  /** The tool message's content. */
  readonly output: string;
}

/** The result of one simulated call: the tool message's content, whether it is an error, the model's usage. */
export interface SimulatedOutput {
  readonly content: string;
  readonly error: boolean;
  readonly usage?: Usage;
}

/**
 * What stands in for the database when tool outputs are played by a model (`--tool-outputs model`): it answers
 * one tool call from the call, the calls answered before it and the conversation, and never changes any state.
 */
export interface ToolOutputSimulator {
  /** True when it can answer calls of this tool (other names are answered by the environment: τ²'s not-found error). */
  handles(name: string): boolean;
  /**
   * Answers one call. @throws {RoleError} (`tools`): `invalid_output` when the model gave no valid reply after
   * its retries, `infrastructure` when the endpoint failed.
   */
  simulate(
    call: { readonly name: string; readonly arguments: string },
    context: { readonly earlier: readonly AnsweredCall[]; readonly conversation: readonly VisibleMessage[] },
    signal?: AbortSignal,
  ): Promise<SimulatedOutput>;
}

/** A parsed reply of the tool model, or what is wrong with it (in words the model is shown). */
export type ParsedToolReply =
  | { readonly output: PyValue }
  | { readonly error: string }
  | { readonly problem: string };

/**
 * Parses one reply of the tool model: a JSON object (optionally inside one Markdown code fence) with exactly one
 * key, `output` (checked against `schema`) or `error` (a non-empty string).
 */
export function parseToolReply(raw: string, schema: JsonSchema): ParsedToolReply {
  const text = raw.trim();
  const body = /^```(?:json)?\s*\n?([\s\S]*?)\n?```$/i.exec(text)?.[1] ?? text;
  if (body.trim() === '') return { problem: 'it was empty' };
  let value: PyValue;
  try {
    value = parsePyJson(body);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { problem: 'it was not valid JSON' };
    throw e;
  }
  if (!(value instanceof Map)) return { problem: 'it was not a JSON object' };
  const keys = [...value.keys()];
  if (keys.length !== 1 || (keys[0] !== 'output' && keys[0] !== 'error'))
    return {
      problem: `it must have exactly one key, "output" or "error" (it had ${keys.length === 0 ? 'none' : keys.map((k) => `"${k}"`).join(', ')})`,
    };
  if (keys[0] === 'error') {
    const message = value.get('error');
    return typeof message === 'string' && message.trim() !== ''
      ? { error: message.trim() }
      : { problem: '"error" must be a non-empty string' };
  }
  const output = value.get('output') as PyValue;
  const mismatch = schemaMismatch(output, schema, '$.output');
  return mismatch === undefined
    ? { output }
    : { problem: `the output does not match output_schema (${mismatch})` };
}

/** The tool message of a valid output: text as is, anything else as Python's `json.dumps` (as τ²'s tools answer). */
export function toolContent(output: PyValue): string {
  return typeof output === 'string' ? output : pyJsonDumps(output);
}

/** The tool message of an error reply, in τ²'s `Error: …` form. */
export function toolErrorContent(message: string): string {
  return message.startsWith('Error:') ? message : `Error: ${message}`;
}

function jsonArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The tool role played by a model (`--tool-outputs model`): per call, one request with cove's tool-model
 * guidelines ({@link TOOL_MODEL_GUIDELINES}) and a JSON object holding the tool's description, parameters and
 * output schema, the call's arguments, the calls answered before it and the conversation's texts. The reply is
 * `{"output": …}` (checked against the output schema) or `{"error": "…"}`; an invalid reply is answered with a
 * corrective message and retried {@link TOOL_MODEL_RETRIES} times, then the episode ends as `tools_error` with
 * the raw replies kept in its termination detail.
 */
export class ToolModel implements ToolOutputSimulator {
  readonly #model: ChatModel;
  readonly #tools: ReadonlyMap<string, OpenAiTool>;
  readonly #schemas: Readonly<Record<string, JsonSchema>>;
  readonly #taskId: string;

  constructor(
    model: ChatModel,
    tools: readonly OpenAiTool[],
    schemas: Readonly<Record<string, JsonSchema>>,
    taskId: string,
  ) {
    this.#model = model;
    this.#tools = new Map(tools.map((t) => [t.function.name, t]));
    this.#schemas = schemas;
    this.#taskId = taskId;
  }

  handles(name: string): boolean {
    return this.#tools.has(name) && this.#schemas[name] !== undefined;
  }

  async simulate(
    call: { readonly name: string; readonly arguments: string },
    context: { readonly earlier: readonly AnsweredCall[]; readonly conversation: readonly VisibleMessage[] },
    signal?: AbortSignal,
  ): Promise<SimulatedOutput> {
    const tool = this.#tools.get(call.name);
    const schema = this.#schemas[call.name];
    if (tool === undefined || schema === undefined)
      throw new Error(`no tool or output schema for ${call.name}`);
    const request = {
      tool: call.name,
      description: tool.function.description,
      parameters: tool.function.parameters,
      output_schema: schema,
      arguments: jsonArgs(call.arguments),
      earlier_calls: context.earlier.map((c) => ({
        tool: c.name,
        arguments: jsonArgs(c.arguments),
        output: c.output,
      })),
      conversation: context.conversation.map((m) => ({
        role: m.role === 'agent' ? 'assistant' : 'customer',
        content: m.content,
      })),
    };
    let messages: ApiMessage[] = [
      { role: 'system', content: TOOL_MODEL_GUIDELINES },
      { role: 'user', content: JSON.stringify(request) },
    ];
    let usage: Usage | undefined;
    const raws: string[] = [];
    let problem = '';
    for (let attempt = 0; attempt <= TOOL_MODEL_RETRIES; attempt++) {
      const completion = await this.#model.complete(messages, this.#taskId, undefined, signal);
      usage = usage === undefined ? completion.usage : addUsage(usage, completion.usage);
      const raw = completion.content ?? '';
      raws.push(raw);
      const parsed: ParsedToolReply =
        completion.toolCalls.length > 0
          ? { problem: 'it called tools instead of answering with JSON' }
          : parseToolReply(raw, schema);
      if ('output' in parsed) return { content: toolContent(parsed.output), error: false, usage };
      if ('error' in parsed) return { content: toolErrorContent(parsed.error), error: true, usage };
      problem = parsed.problem;
      messages = [
        ...messages,
        { role: 'assistant', content: raw },
        { role: 'user', content: toolModelCorrection(problem) },
      ];
    }
    throw new RoleError(
      'tools',
      'invalid_output',
      `the tool model gave no valid ${call.name} output in ${TOOL_MODEL_RETRIES + 1} attempts (last: ${problem}); raw replies: ${JSON.stringify(raws)}`,
    );
  }
}
