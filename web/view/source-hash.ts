import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of the page's sources (`web/view/`). */
export const VIEW_DIR = fileURLToPath(new URL('.', import.meta.url));

/** The file the build writes beside the bundle: the hash of the sources it was built from. */
export const SOURCE_HASH_FILE = join(VIEW_DIR, 'built', 'source-hash.txt');

/**
 * SHA-256 of what the built page depends on: every file under `web/view/src/`, `index.html`, `vite.config.ts`
 * and this file, plus the installed versions of preact, chart.js and vite. The build records it, and a test
 * compares it with the sources, so a committed bundle cannot silently lag behind them.
 */
export function viewSourceHash(): string {
  const hash = createHash('sha256');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(join(VIEW_DIR, 'src'));
  files.push(
    join(VIEW_DIR, 'index.html'),
    join(VIEW_DIR, 'vite.config.ts'),
    join(VIEW_DIR, 'source-hash.ts'),
  );
  for (const file of files) {
    hash.update(file.slice(VIEW_DIR.length).replace(/\\/g, '/'));
    hash.update('\0');
    hash.update(readFileSync(file, 'utf8').replace(/\r\n/g, '\n'));
    hash.update('\0');
  }
  for (const pkg of ['preact', 'chart.js', 'vite']) {
    const manifest = join(VIEW_DIR, '..', '..', 'node_modules', pkg, 'package.json');
    hash.update(`${pkg}@${(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version}\0`);
  }
  return hash.digest('hex');
}
