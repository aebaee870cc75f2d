import { createHash, timingSafeEqual } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { handleMcp } from './mcp.js';
import type { RlService } from './service.js';
import { createSchema, openRlhfSchema, parseBody, RequestError, rewardSchema, stepSchema } from './wire.js';

/** HTTP settings of the episode service. */
export interface RlAppOptions {
  /** A bearer token every request but `GET /health` must carry (`Authorization: Bearer <token>`). */
  readonly token?: string;
  /** Largest request body, in bytes (413 past it). @defaultValue 4 MiB */
  readonly maxBodyBytes?: number;
  /** Told about server-side failures (500 answers). */
  readonly onError?: (error: unknown) => void;
}

const ROUTES = [
  'GET /health',
  'GET /tasks',
  'POST /episodes',
  'GET /episodes/{id}',
  'POST /episodes/{id}/step',
  'GET /episodes/{id}/reward',
  'DELETE /episodes/{id}',
  'POST /episodes/{id}/mcp',
  'POST /reward',
  'POST /openrlhf/reward',
];

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** The request's JSON body. @throws {RequestError} 400 for an empty or malformed body. */
async function jsonBody(c: Context): Promise<unknown> {
  const raw = await c.req.text();
  if (raw.trim() === '') throw new RequestError(400, 'empty body: expected a JSON object');
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw new RequestError(400, `malformed JSON body: ${(e as Error).message}`);
  }
}

/**
 * The HTTP front of the RL episode service (`cove serve`), on Hono. Every error a client can fix is a 4xx with
 * `{"error": "…"}` naming what is wrong: 400 malformed JSON or a field (by JSON path), 401 a missing or wrong
 * token, 404 an unknown task or episode (or an expired one), 409 a step on a finished episode or while another
 * step of it runs, 413 a body past the limit, 422 a request the service cannot serve (the scripted user on a τ²
 * task), 429 at the live-episode cap. Nothing is half-applied: a refused step leaves its episode as it was.
 */
export function createRlApp(service: RlService, options: RlAppOptions = {}): Hono {
  const app = new Hono();
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const expected = options.token === undefined ? undefined : digest(options.token);

  app.onError((e, c) => {
    if (e instanceof RequestError) {
      return c.json({ error: e.message }, e.status, e.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
    }
    options.onError?.(e);
    return c.json({ error: `internal error: ${e instanceof Error ? e.message : String(e)}` }, 500);
  });
  app.notFound((c) =>
    c.json({ error: `no route ${c.req.method} ${c.req.path}; routes: ${ROUTES.join(', ')}` }, 404),
  );

  app.get('/health', (c) =>
    c.json({ ok: true, live_episodes: service.registry.size, tasks: service.listTasks().length }),
  );
  app.use('*', async (c, next) => {
    if (expected === undefined) return next();
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (match === null) throw new RequestError(401, 'missing bearer token (Authorization: Bearer <token>)');
    if (!timingSafeEqual(digest(match[1] as string), expected))
      throw new RequestError(401, 'wrong bearer token');
    return next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: maxBody,
      // the rest of the body is not read: the connection closes, so the client does not reuse it mid-body
      onError: (c) => c.json({ error: `request body over ${maxBody} bytes` }, 413, { connection: 'close' }),
    }),
  );

  app.get('/tasks', (c) => c.json({ tasks: service.listTasks() }));
  app.post('/episodes', async (c) =>
    c.json(await service.create(parseBody(createSchema, await jsonBody(c)))),
  );
  app.get('/episodes/:id', (c) => c.json(service.view(c.req.param('id'))));
  app.delete('/episodes/:id', (c) => c.json(service.remove(c.req.param('id'))));
  app.post('/episodes/:id/step', async (c) => {
    const id = c.req.param('id');
    service.registry.get(id); // an unknown episode is a 404 before the body is judged
    const body = parseBody(stepSchema, await jsonBody(c));
    return c.json(await service.step(id, body.message));
  });
  app.get('/episodes/:id/reward', async (c) => c.json(await service.reward(c.req.param('id'))));
  app.all('/episodes/:id/mcp', (c) => handleMcp(service, c.req.param('id'), c.req.raw));
  app.post('/reward', async (c) =>
    c.json(await service.conversationReward(parseBody(rewardSchema, await jsonBody(c)))),
  );
  app.post('/openrlhf/reward', async (c) =>
    c.json(await service.openRlhf(parseBody(openRlhfSchema, await jsonBody(c)))),
  );
  return app;
}
