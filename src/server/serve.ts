import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

/** A running HTTP server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves a Hono app over HTTP. Binds to 127.0.0.1 unless told otherwise (docs/design.md §7.7); port 0 picks a free
 * port.
 */
export function serveApp(
  app: Hono,
  options: {
    port?: number;
    host?: string;
    /** How long an idle keep-alive connection stays open, in ms (Node's default is 5000; a busy client that
     * reuses a pooled connection just as the server closes it sees ECONNRESET). */
    keepAliveTimeoutMs?: number;
  } = {},
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, port: options.port ?? 0, hostname: host },
      (info: AddressInfo) => {
        const shown = host.includes(':') ? `[${host}]` : host;
        resolve({
          url: `http://${shown}:${info.port}`,
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
              server.close(() => done());
            }),
        });
      },
    );
    if (options.keepAliveTimeoutMs !== undefined) {
      const http = server as unknown as { keepAliveTimeout: number; headersTimeout: number };
      http.keepAliveTimeout = options.keepAliveTimeoutMs;
      http.headersTimeout = options.keepAliveTimeoutMs + 1000;
    }
    server.on('error', reject);
  });
}
