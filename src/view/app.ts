import { type Context, Hono } from 'hono';
import type { PageAssets } from './assets.js';
import { compareBasis, compareCounts, compareNote, compareRuns } from './compare.js';
import type { EpisodeFacts } from './facts.js';
import { type Overview, overview } from './overview.js';
import { filterFromQuery, queryFacts, SORT_KEYS, type SortKey } from './query.js';
import type { ViewSource } from './source.js';

/** Options of the viewer app. */
export interface ViewAppOptions {
  /** One source, or two to compare (the first is A). */
  readonly sources: readonly ViewSource[];
  readonly assets: PageAssets;
  /**
   * Host names the app answers to (`Host` header without the port); others get 421, so a web page elsewhere
   * cannot read the runs through DNS rebinding. Empty: any.
   */
  readonly allowedHosts: readonly string[];
}

/** Security headers of every response: no script but the page's own, no framing, no sniffing. */
const HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const PAGE_MAX = 500;

function int(value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || !/^\d+$/.test(value)) return fallback;
  return Math.min(Number(value), max);
}

/**
 * The viewer's HTTP app: the built page (index.html and its assets, nothing else of the disk) and a JSON API over
 * the sources — `/api/sources`, `/api/overview`, `/api/episodes` (filter, search, sort, page), `/api/episode`,
 * `/api/state-diff`, `/api/compare`. Records reach the page as JSON data only, never as HTML.
 */
export function createViewApp(options: ViewAppOptions): Hono {
  const app = new Hono();
  const { sources, assets } = options;
  const allowed = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  const overviews = new WeakMap<readonly EpisodeFacts[], Overview>();

  app.use('*', async (c, next) => {
    if (allowed.size > 0) {
      const host = (c.req.header('host') ?? '').toLowerCase().replace(/:\d+$/, '');
      if (!allowed.has(host)) return c.text(`host ${host} not allowed`, 421);
    }
    await next();
    for (const [k, v] of Object.entries(HEADERS)) c.header(k, v);
    return undefined;
  });

  const source = (c: Context): ViewSource | undefined => sources[int(c.req.query('src'), 0)];
  const missing = (c: Context) => c.json({ error: `no source ${c.req.query('src') ?? ''}` }, 404);

  app.get('/', (c) => c.html(assets.indexHtml));
  app.get('/index.html', (c) => c.html(assets.indexHtml));
  app.get('/favicon.ico', (c) => c.body(null, 204));
  app.get('/assets/:name', (c) => {
    const file = assets.files.get(c.req.param('name'));
    if (file === undefined) return c.text('not found', 404);
    return c.body(new Uint8Array(file.body), 200, { 'content-type': file.type, 'cache-control': 'no-cache' });
  });

  app.get('/api/sources', (c) =>
    c.json(
      sources.map((s, index) => ({
        index,
        label: s.label,
        kind: s.kind,
        format: s.format,
        path: s.path,
        files: s.files,
        notes: s.notes,
        status: s.status(),
      })),
    ),
  );

  // While a large file is being indexed, answers cover the part indexed so far and carry `coverage` with
  // `complete: false` (docs/view.md); `wait=1` waits for the complete index instead.
  const settle = (s: ViewSource, c: Context, episodes: number): Promise<void> =>
    c.req.query('wait') === '1' ? s.ready() : s.indexed(episodes);

  app.get('/api/overview', async (c) => {
    const s = source(c);
    if (s === undefined) return missing(c);
    await settle(s, c, 1);
    // computed once per index of the source, or per part of it (a new index or part is a new facts list)
    const facts = s.facts();
    const coverage = s.coverage();
    let o = overviews.get(facts) ?? (coverage.complete ? s.storedOverview?.() : undefined);
    if (o === undefined) {
      o = overview(facts, s.malformed().length, s.superseded());
    }
    overviews.set(facts, o);
    return c.json({ status: s.status(), coverage, ...o });
  });

  app.get('/api/episodes', async (c) => {
    const s = source(c);
    if (s === undefined) return missing(c);
    const q = c.req.query();
    const offset = int(q.offset, 0);
    const limit = int(q.limit, 50, PAGE_MAX);
    const text = (q.q ?? '').trim();
    // a text search reads every record: it waits for the complete index; the rest may answer from a part
    if (text !== '') await s.ready();
    else await settle(s, c, offset + limit);
    if (q.malformed === 'yes') {
      const rows = s.malformed();
      return c.json({
        total: rows.length,
        coverage: s.coverage(),
        malformed: rows.slice(offset, offset + limit),
      });
    }
    const lines = text === '' ? undefined : await s.search(text);
    const filter = { ...filterFromQuery(q), ...(lines === undefined ? {} : { lines }) };
    const key = (SORT_KEYS as readonly string[]).includes(q.sort ?? '') ? (q.sort as SortKey) : 'line';
    const coverage = s.coverage();
    const page = queryFacts(s.facts(), filter, { key, desc: q.desc === '1' }, { offset, limit });
    const malformedCount = s.malformed().length;
    const previews = await s.previews(
      page.rows.map((r) => r.line),
      160,
    );
    return c.json({
      total: page.total,
      coverage,
      malformedCount,
      rows: page.rows.map((r) => ({ ...r, preview: previews.get(r.line) ?? null })),
    });
  });

  app.get('/api/episode', async (c) => {
    const s = source(c);
    if (s === undefined) return missing(c);
    try {
      return c.json(await s.episode(int(c.req.query('line'), -1)));
    } catch (e) {
      if (e instanceof RangeError) return c.json({ error: e.message }, 404);
      throw e;
    }
  });

  app.get('/api/state-diff', async (c) => {
    const s = source(c);
    if (s === undefined) return missing(c);
    try {
      return c.json(await s.stateDiff(int(c.req.query('line'), -1)));
    } catch (e) {
      if (e instanceof RangeError) return c.json({ error: e.message }, 404);
      return c.json({
        available: false,
        notes: [`state diff failed: ${(e as Error).message}`],
        entities: [],
        divergences: [],
      });
    }
  });

  app.get('/api/compare', async (c) => {
    const [a, b] = sources;
    if (a === undefined || b === undefined) return c.json({ error: 'compare needs two runs' }, 404);
    await Promise.all([a.ready(), b.ready()]);
    const prints = { a: a.taskPrints?.(), b: b.taskPrints?.() };
    const basis = compareBasis(prints);
    const rows = compareRuns(a.facts(), b.facts(), prints);
    const status = c.req.query('status');
    const shown = status === undefined || status === '' ? rows : rows.filter((r) => r.status === status);
    const offset = int(c.req.query('offset'), 0);
    const limit = int(c.req.query('limit'), 100, PAGE_MAX);
    return c.json({
      counts: compareCounts(rows),
      basis,
      note: compareNote(rows, basis) ?? null,
      total: shown.length,
      rows: shown.slice(offset, offset + limit),
    });
  });

  app.notFound((c) => c.json({ error: 'not found' }, 404));
  app.onError((e, c) => c.json({ error: e.message }, 500));
  return app;
}
