import { createRequire } from 'node:module';
import type OpenAI from 'openai';
import PQueue from 'p-queue';
import { AbortedError, ConfigError } from '../core/errors.js';
import type { OpenAiTool } from '../env/openai-tools.js';
import { isLoopback, type PriceTable, type RoleConfig, type RoleName } from './config.js';
import { nodeFetch, plainHeaders } from './node-fetch.js';
import { type ApiMessage, messagesJson, type RequestMessages } from './request-messages.js';
import { RoleError } from './role-error.js';
import { type CallUsage, callCost, type UsageMeter } from './usage-meter.js';

/** Statuses the SDK retries (besides 5xx, timeouts and network errors). */
const RETRIED_STATUSES = new Set([408, 409, 429]);

export type { ApiMessage } from './request-messages.js';

/** JSON text of each tools array sent so far (a domain's tools are one array, serialized once). */
const toolsJsonCache = new WeakMap<readonly OpenAiTool[], string>();

function toolsJson(tools: readonly OpenAiTool[]): string {
  let text = toolsJsonCache.get(tools);
  if (text === undefined) {
    text = JSON.stringify(tools);
    toolsJsonCache.set(tools, text);
  }
  return text;
}

/** A tool call as the model returned it, normalised: an id and the arguments as a string. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** The assistant message of one completion, normalised, with its usage. */
export interface Completion {
  readonly content: string | null;
  readonly toolCalls: readonly ModelToolCall[];
  readonly reasoning?: string;
  readonly usage: CallUsage;
}

/** How long the SDK lets a request wait in an endpoint's queue and run, in all (a day). */
const QUEUED_REQUEST_LIMIT_MS = 86_400_000;

/**
 * `nodeFetch` aborted after `timeoutMs` (counted from now) or when `init.signal` aborts. The timeout's abort is an
 * `AbortError` saying "timed out", which the SDK retries as a connection timeout.
 */
function fetchWithin(url: string | URL | Request, init: RequestInit | undefined, timeoutMs: number) {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`the request timed out after ${timeoutMs} ms`, 'AbortError')),
    timeoutMs,
  );
  const outer = init?.signal ?? undefined;
  const follow = () => controller.abort(outer?.reason);
  if (outer?.aborted === true) follow();
  else outer?.addEventListener('abort', follow, { once: true });
  return nodeFetch(url, { ...init, signal: controller.signal }).finally(() => {
    clearTimeout(timer);
    outer?.removeEventListener('abort', follow);
  });
}

let sdk: typeof OpenAI | undefined;
/** The OpenAI SDK, loaded on first use: only model-played roles need it (commands start faster without it). */
function openAi(): typeof OpenAI {
  sdk ??= (createRequire(import.meta.url)('openai') as { default: typeof OpenAI }).default;
  return sdk;
}

/** One endpoint (base URL + key): an OpenAI SDK client and a queue enforcing its concurrency and rate caps. */
interface Endpoint {
  readonly client: OpenAI;
  readonly queue: PQueue;
  /**
   * Retries sent so far per call in flight, keyed by `<role> <task id>` (one role of one task has one call in
   * flight at a time); read from the SDK's `x-stainless-retry-count` request header.
   */
  readonly retries: Map<string, number>;
}

const callKey = (role: string | undefined, taskId: string | undefined) => `${role}\u0000${taskId}`;

/**
 * Admits each HTTP request to an endpoint under caps shared with other processes (the distributed workers'
 * Redis limiter, docs/distributed.md): `run` resolves with `send()`'s result once the request may go.
 */
export interface RequestGate {
  run<T>(endpoint: string, config: RoleConfig, send: () => Promise<T>): Promise<T>;
}

/**
 * Shares endpoints between roles and episodes: each base URL gets one client and one queue, created with the
 * caps of the first role that uses it (`max_concurrency`, `requests_per_minute`). With a `gate`, every request
 * also passes it, so the caps can hold across processes.
 */
export class EndpointPool {
  readonly #endpoints = new Map<string, Endpoint>();
  readonly #gate: RequestGate | undefined;

  constructor(gate?: RequestGate) {
    this.#gate = gate;
  }

  get(config: RoleConfig, apiKey: string): Endpoint {
    const key = `${config.base_url}\u0000${apiKey}`;
    let endpoint = this.#endpoints.get(key);
    if (endpoint === undefined) {
      // every HTTP request (retries included) goes through the queue: the caps are what the endpoint sees
      const queue = new PQueue({
        concurrency: config.max_concurrency,
        ...(config.requests_per_minute === undefined
          ? {}
          : { intervalCap: config.requests_per_minute, interval: 60_000, strict: true }),
      });
      const retries = new Map<string, number>();
      const queuedFetch = (url: string | URL | Request, init?: RequestInit) => {
        const headers = plainHeaders(init?.headers);
        const retry = Number(headers['x-stainless-retry-count'] ?? 0);
        if (retry > 0) retries.set(callKey(headers['x-cove-role'], headers['x-cove-task-id']), retry);
        // the timeout runs from when the request leaves the queue: waiting for a requests_per_minute slot is
        // not the endpoint being slow, and must not use up retries
        const gate = this.#gate;
        const send = () => fetchWithin(url, init, config.timeout_ms);
        return queue.add(() =>
          gate === undefined ? send() : gate.run(config.base_url, config, send),
        ) as Promise<Response>;
      };
      endpoint = {
        client: new (openAi())({
          apiKey,
          baseURL: config.base_url,
          timeout: QUEUED_REQUEST_LIMIT_MS, // the request's own timeout is applied after the queue
          maxRetries: config.max_retries,
          fetch: queuedFetch as typeof fetch,
        }),
        queue,
        retries,
      };
      this.#endpoints.set(key, endpoint);
    }
    return endpoint;
  }
}

/** Everything a chat model needs besides its role config. */
export interface ChatModelOptions {
  /** Environment variables (the API key is read from `config.api_key_env`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly prices: PriceTable;
  readonly meter: UsageMeter;
  readonly endpoints: EndpointPool;
}

function normaliseArguments(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? {});
}

/**
 * One role's model over the OpenAI-compatible chat-completions API, through the official `openai` SDK: the SDK
 * retries 408/409/429/5xx, timeouts and network errors with exponential backoff and jitter (honouring
 * Retry-After); every request carries `x-cove-role` and `x-cove-task-id`; usage and cost are metered.
 */
export class ChatModel {
  readonly role: RoleName;
  readonly config: RoleConfig;
  readonly #endpoint: Endpoint;
  readonly #options: ChatModelOptions;
  /** The `x-cove-role` header: the role's name, or what the constructor was given (a synthesis stage's name). */
  readonly #header: string;
  #calls = 0;

  /**
   * @param header the `x-cove-role` header when it is not the role's name (a synthesis stage sends its own name).
   * @throws {ConfigError} when a non-loopback endpoint has no API key in its environment variable.
   */
  constructor(role: RoleName, config: RoleConfig, options: ChatModelOptions, header?: string) {
    this.role = role;
    this.#header = header ?? role;
    this.config = config;
    this.#options = options;
    const key = options.env[config.api_key_env];
    if ((key === undefined || key === '') && !isLoopback(config.base_url)) {
      throw new ConfigError(`${role} role: set ${config.api_key_env} to the API key of ${config.base_url}`);
    }
    this.#endpoint = options.endpoints.get(config, key === undefined || key === '' ? 'cove-no-key' : key);
  }

  /** The model name sent to the server. */
  get model(): string {
    return this.config.model.replace(/^openai:/, '');
  }

  /**
   * One completion. @throws {RoleError} (`infrastructure`) when the request still fails after retries, with the
   * status and message as the reason.
   */
  async complete(
    messages: readonly ApiMessage[] | RequestMessages,
    taskId: string,
    tools?: readonly OpenAiTool[],
    signal?: AbortSignal,
  ): Promise<Completion> {
    let response: OpenAI.Chat.Completions.ChatCompletion;
    const key = callKey(this.#header, taskId);
    this.#endpoint.retries.delete(key);
    try {
      // the body is sent as text (the SDK passes it verbatim): the history and tools are serialized once each
      response = await this.#endpoint.client.post<OpenAI.Chat.Completions.ChatCompletion>(
        '/chat/completions',
        {
          body: this.#body(messages, tools),
          headers: {
            'content-type': 'application/json',
            'x-cove-role': this.#header,
            'x-cove-task-id': taskId,
          },
          ...(signal === undefined ? {} : { signal }),
        },
      );
    } catch (e) {
      this.#endpoint.retries.delete(key);
      if (signal?.aborted === true) throw new AbortedError(`${this.role} model call aborted`, { cause: e });
      const code =
        e instanceof openAi().APIError ? (e as InstanceType<typeof OpenAI.APIError>).status : undefined;
      const retried = code === undefined || RETRIED_STATUSES.has(code) || code >= 500;
      const how = retried ? `failed after ${this.config.max_retries} retries` : 'failed (not retryable)';
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message;
      throw new RoleError(
        this.role === 'user' || this.role === 'tools' ? this.role : 'agent',
        'infrastructure',
        `${this.role} model call to ${this.config.base_url} ${how}: ${code === undefined ? '' : `HTTP ${code}: `}${(e as Error).message}${why === undefined ? '' : ` (${why})`}`,
        { cause: e },
      );
    }
    const retries = this.#endpoint.retries.get(key) ?? 0;
    this.#endpoint.retries.delete(key);
    const choice = response?.choices?.[0];
    const message = (choice?.message ?? {}) as unknown as Record<string, unknown>;
    const rawCalls = Array.isArray(message.tool_calls)
      ? (message.tool_calls as Record<string, unknown>[])
      : [];
    const toolCalls = rawCalls.map((c, i): ModelToolCall => {
      const fn = (c.function ?? {}) as Record<string, unknown>;
      const id = typeof c.id === 'string' && c.id !== '' ? c.id : `call_cove_${this.#calls}_${i}`;
      return { id, name: String(fn.name ?? ''), arguments: normaliseArguments(fn.arguments) };
    });
    this.#calls++;
    const prompt = response?.usage?.prompt_tokens ?? 0;
    const completion = response?.usage?.completion_tokens ?? 0;
    const usage = {
      prompt_tokens: prompt,
      completion_tokens: completion,
      cost_usd: callCost(this.#options.prices, this.model, prompt, completion),
      retries,
    };
    this.#options.meter.add(usage);
    const reasoning = message.reasoning_content ?? message.reasoning;
    return {
      content: typeof message.content === 'string' ? message.content : null,
      toolCalls,
      ...(typeof reasoning === 'string' && reasoning !== '' ? { reasoning } : {}),
      usage,
    };
  }

  /** The request body as JSON text: model, messages, sampling settings and, for the agent, the tools. */
  #body(messages: readonly ApiMessage[] | RequestMessages, tools?: readonly OpenAiTool[]): string {
    const c = this.config;
    let body = `{"model":${JSON.stringify(this.model)},"messages":${messagesJson(messages)},"temperature":${JSON.stringify(c.temperature)}`;
    if (c.seed !== undefined) body += `,"seed":${JSON.stringify(c.seed)}`;
    if (c.max_tokens !== undefined) body += `,"max_tokens":${JSON.stringify(c.max_tokens)}`;
    if (tools !== undefined && tools.length > 0) body += `,"tools":${toolsJson(tools)},"tool_choice":"auto"`;
    return `${body}}`;
  }
}
