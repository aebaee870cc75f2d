import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import { type RunningServer, serveApp } from '../../src/server/serve.js';

/** One HTTP request the fake server received (retries by the SDK are separate requests). */
export interface RecordedRequest {
  /** 1-based arrival number. */
  readonly n: number;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Record<string, unknown> & { messages?: Record<string, unknown>[] };
  /** `performance.now()` at arrival. */
  readonly at: number;
}

/** What the fake server does with one request. */
export type FakeReply =
  | {
      readonly kind: 'message';
      /** The assistant message (`role` is added). */
      readonly message: Record<string, unknown>;
      readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number };
    }
  | { readonly kind: 'status'; readonly status: number; readonly headers?: Readonly<Record<string, string>> }
  /** Holds the request for `ms`, then answers with `after` (the client may have given up by then). */
  | { readonly kind: 'hang'; readonly ms: number; readonly after: FakeReply }
  /** Destroys the socket without answering (a network error on the client side). */
  | { readonly kind: 'destroy' };

export const text = (content: string | null, extra: Record<string, unknown> = {}): FakeReply => ({
  kind: 'message',
  message: { content, ...extra },
});

/** Holds the request for `ms` before answering with `after`. */
export const hang = (ms: number, after: FakeReply): FakeReply => ({ kind: 'hang', ms, after });

/** An error answer; `retry-after-ms: 5` keeps the SDK's retries quick unless `fast` is false. */
export const status = (code: number, fast = true): FakeReply => ({
  kind: 'status',
  status: code,
  ...(fast ? { headers: { 'retry-after-ms': '5' } } : {}),
});

/** A fake OpenAI-compatible server on 127.0.0.1 that records every request and counts requests in flight. */
export interface FakeLlm {
  /** Base URL with `/v1`. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  readonly inFlight: () => number;
  readonly maxInFlight: () => number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts a fake chat-completions server; `reply` decides the answer to each request. */
export async function startFakeLlm(
  reply: (request: RecordedRequest) => FakeReply | Promise<FakeReply>,
): Promise<FakeLlm> {
  const app = new Hono<{ Bindings: { incoming: IncomingMessage } }>();
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let counter = 0;
  app.post('/v1/chat/completions', async (c) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const headers: Record<string, string> = {};
      c.req.raw.headers.forEach((v, k) => {
        headers[k] = v;
      });
      const request: RecordedRequest = {
        n: requests.length + 1,
        headers,
        body: (await c.req.json()) as RecordedRequest['body'],
        at: performance.now(),
      };
      requests.push(request);
      let answer = await reply(request);
      while (answer.kind === 'hang') {
        await sleep(answer.ms);
        answer = answer.after;
      }
      if (answer.kind === 'destroy') {
        c.env.incoming.socket.destroy();
        return new Response(null, { status: 500 });
      }
      if (answer.kind === 'status') {
        return c.json({ error: { message: `fake error ${answer.status}` } }, answer.status as 500, {
          ...answer.headers,
        });
      }
      const hasCalls = Array.isArray(answer.message.tool_calls) && answer.message.tool_calls.length > 0;
      return c.json({
        id: `chatcmpl-fake-${++counter}`,
        object: 'chat.completion',
        created: 0,
        model: String(request.body.model ?? 'fake'),
        choices: [
          {
            index: 0,
            message: { role: 'assistant', ...answer.message },
            finish_reason: hasCalls ? 'tool_calls' : 'stop',
          },
        ],
        usage: {
          prompt_tokens: answer.usage?.prompt_tokens ?? 10,
          completion_tokens: answer.usage?.completion_tokens ?? 5,
          total_tokens: (answer.usage?.prompt_tokens ?? 10) + (answer.usage?.completion_tokens ?? 5),
        },
      });
    } finally {
      inFlight--;
    }
  });
  const server: RunningServer = await serveApp(app as unknown as Hono, { port: 0 });
  if (!server.url.startsWith('http://127.0.0.1:'))
    throw new Error(`fake server not on loopback: ${server.url}`);
  return {
    baseUrl: `${server.url}/v1`,
    requests,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    close: () => server.close(),
  };
}
