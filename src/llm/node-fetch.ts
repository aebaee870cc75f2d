import http from 'node:http';
import https from 'node:https';

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 512 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 512 }),
};

/** Response headers, read-only, names lower-case: the part of `Headers` the SDK reads. */
class ResponseHeaders {
  readonly #values: Map<string, string>;

  constructor(raw: http.IncomingHttpHeaders) {
    this.#values = new Map();
    for (const [key, value] of Object.entries(raw)) {
      if (value !== undefined) this.#values.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  forEach(fn: (value: string, key: string) => void): void {
    for (const [key, value] of this.#values) fn(value, key);
  }

  entries(): IterableIterator<[string, string]> {
    return this.#values.entries();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#values.entries();
  }
}

/**
 * A fully read HTTP answer with the members of `Response` the OpenAI SDK uses on non-streaming calls (`status`,
 * `ok`, `url`, `headers.get`, `json`, `text`; `body` is null as the bytes are already read). Building undici's
 * `Response` and `Headers` for every call costs more CPU than the rest of the request.
 */
class BufferedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly url: string;
  readonly headers: ResponseHeaders;
  readonly body = null;
  readonly redirected = false;
  readonly type = 'basic';
  readonly #bytes: Buffer;
  bodyUsed = false;

  constructor(url: string, response: http.IncomingMessage, bytes: Buffer) {
    this.status = response.statusCode ?? 500;
    this.statusText = response.statusMessage ?? '';
    this.ok = this.status >= 200 && this.status < 300;
    this.url = url;
    this.headers = new ResponseHeaders(response.headers);
    this.#bytes = bytes;
  }

  async text(): Promise<string> {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.bodyUsed = true;
    return this.#bytes.toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const text = await this.text();
    return new TextEncoder().encode(text).buffer as ArrayBuffer;
  }
}

/** Request headers as a plain object with lower-case names. */
export function plainHeaders(init: RequestInit['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (init === undefined || init === null) return headers;
  if (init instanceof Headers) {
    init.forEach((value, key) => {
      headers[key] = value;
    });
  } else if (Array.isArray(init)) {
    for (const [key, value] of init)
      if (key !== undefined && value !== undefined) headers[key.toLowerCase()] = value;
  } else {
    for (const [key, value] of Object.entries(init)) headers[key.toLowerCase()] = String(value);
  }
  return headers;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * A `fetch` for the OpenAI SDK over Node's `http`/`https` with keep-alive sockets: the request body is a string
 * and the whole answer is read before it is returned (a {@link BufferedResponse}), which is all non-streaming
 * chat completions need, at a fraction of the CPU of Node 20's WHATWG fetch. Honours `signal` (the SDK's timeouts), so retries behave as with `fetch`.
 */
export function nodeFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const agent = agents[url.protocol as keyof typeof agents];
  if (agent === undefined) return Promise.reject(new TypeError(`unsupported protocol ${url.protocol}`));
  const headers = plainHeaders(init.headers);
  const signal = init.signal ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortError(signal));
      return;
    }
    const request = (url.protocol === 'https:' ? https : http).request(
      {
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: init.method ?? 'GET',
        headers,
        agent,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(new BufferedResponse(url.href, response, Buffer.concat(chunks)) as unknown as Response);
        });
      },
    );
    const onAbort = () => {
      request.destroy();
      reject(abortError(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (e) => {
      signal?.removeEventListener('abort', onAbort);
      reject(e);
    });
    const body = init.body;
    if (body === undefined || body === null) request.end();
    else if (typeof body === 'string' || body instanceof Uint8Array) request.end(body);
    else {
      request.destroy();
      reject(new TypeError('nodeFetch only sends string or byte bodies'));
    }
  });
}
