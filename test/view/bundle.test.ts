import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { BUILT_DIR, loadPageAssets } from '../../src/view/assets.js';
import { SOURCE_HASH_FILE, viewSourceHash } from '../../web/view/source-hash.js';

// The viewer's page is committed built (web/view/built/), so `cove view` works from a fresh clone after
// `npm ci` with no build step and no CDN. The build records the hash of the sources it was built from.

describe('the built page', () => {
  it('was built from the current sources (else run `npm run build:view` and commit web/view/built)', () => {
    expect(readFileSync(SOURCE_HASH_FILE, 'utf8').trim()).toBe(viewSourceHash());
  });

  it('loads only local files: no CDN, no inline script', () => {
    const assets = loadPageAssets(BUILT_DIR);
    expect(assets.indexHtml).not.toMatch(/https?:\/\//);
    expect(assets.indexHtml).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/); // every script has a src
    const refs = [...assets.indexHtml.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(2);
    for (const ref of refs) expect(assets.files.has(ref as string), ref).toBe(true);
    const js = assets.files.get('app.js')?.body.toString('utf8') ?? '';
    expect(js).not.toMatch(/\bimport\s*\(\s*["']https?:/);
  });
});

describe('a missing page', () => {
  it('in a checkout (web/view/src there) says to build it', () => {
    const root = mkdtempSync(`${tmpdir()}/cove-page-`);
    mkdirSync(`${root}/web/view/src`, { recursive: true });
    expect(() => loadPageAssets(`${root}/web/view/built`)).toThrow(/not built .*npm run build:view/);
  });
  it('in an installed package (no sources) says the install is incomplete, not to build', () => {
    const root = mkdtempSync(`${tmpdir()}/cove-page-`);
    mkdirSync(`${root}/web/view`, { recursive: true });
    let message = '';
    try {
      loadPageAssets(`${root}/web/view/built`);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^this cove install is incomplete/);
    expect(message).not.toMatch(/build:view/);
  });
});
