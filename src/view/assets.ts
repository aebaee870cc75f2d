import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the page's built assets live: `web/view/built/` of the package (made by `npm run build:view`). */
export const BUILT_DIR = fileURLToPath(new URL('../../web/view/built/', import.meta.url));

/**
 * Why the page is missing, and what to do. In a source checkout (the page's sources `web/view/src/` are there)
 * the page has not been built yet; in an installed package (which ships the built page, not its sources) the
 * install itself is incomplete, and building is not something its user can do.
 */
export function missingPageMessage(dir: string, index: string): string {
  const checkout = existsSync(join(dir, '..', 'src'));
  return checkout
    ? `the viewer's page is not built (${index} is missing): run \`npm run build:view\``
    : `this cove install is incomplete: the viewer's page (${index}) is missing from the package; ` +
        'reinstall cove, and report it if the page is still missing';
}

/** The page's files: `index.html` and the files under `assets/`, read once. */
export interface PageAssets {
  readonly indexHtml: string;
  /** File name (no folder) → content and content type. */
  readonly files: ReadonlyMap<string, { readonly body: Buffer; readonly type: string }>;
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  json: 'application/json',
};

/**
 * Reads the built page from `dir`. Only plain file names (`[A-Za-z0-9._-]`) are served, so no request can reach
 * another file.
 * @throws {Error} when the page is missing, saying why (not built in a checkout; an incomplete install).
 */
export function loadPageAssets(dir: string = BUILT_DIR): PageAssets {
  const index = `${dir}/index.html`;
  if (!existsSync(index)) {
    throw new Error(missingPageMessage(dir, index));
  }
  const files = new Map<string, { body: Buffer; type: string }>();
  const assets = `${dir}/assets`;
  if (existsSync(assets)) {
    for (const name of readdirSync(assets)) {
      if (!/^[A-Za-z0-9._-]+$/.test(name)) continue;
      const ext = name.slice(name.lastIndexOf('.') + 1);
      files.set(name, {
        body: readFileSync(`${assets}/${name}`),
        type: TYPES[ext] ?? 'application/octet-stream',
      });
    }
  }
  return { indexHtml: readFileSync(index, 'utf8'), files };
}
