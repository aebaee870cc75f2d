import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(ROOT, '.tmp', 'dist-sources-sha256');
const LOCK = join(ROOT, '.tmp', 'dist-build.lock');

/** sha256 over the sources `tsc -p tsconfig.build.json` compiles, its config and the compiler's version. */
function sourcesStamp(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') || name.endsWith('.json')) {
        hash.update(`${path.slice(ROOT.length)}\0`);
        hash.update(readFileSync(path));
      }
    }
  };
  walk(join(ROOT, 'src'));
  hash.update(readFileSync(join(ROOT, 'tsconfig.build.json')));
  hash.update(readFileSync(join(ROOT, 'tsconfig.json')));
  hash.update(readFileSync(join(ROOT, 'node_modules', 'typescript', 'package.json')));
  return hash.digest('hex');
}

/** The newest modification time of dist/'s files: a build by other means (`npm run build`) changes it. */
function distMtime(): number {
  let newest = 0;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else if (path !== STAMP) newest = Math.max(newest, st.mtimeMs);
    }
  };
  if (existsSync(join(ROOT, 'dist'))) walk(join(ROOT, 'dist'));
  return newest;
}

/** Whether dist/ is the build of these sources by this setup, untouched since. */
const upToDate = (stamp: string): boolean =>
  existsSync(STAMP) && readFileSync(STAMP, 'utf8') === `${stamp} ${distMtime()}`;

/**
 * Builds dist/ from the current sources before any test runs, so tests that spawn `bin/cove.js` never run stale
 * JavaScript (in-process tests import the TypeScript sources directly). The build is skipped when dist/ was built
 * here from exactly these sources and not rewritten since (a stamp in .tmp/: the sources' hash and dist/'s newest
 * modification time), and two test runs started together build once: the second waits
 * for the first's lock (a directory, created atomically) rather than rewriting dist/ under the first one's tests.
 */
export async function setup(): Promise<void> {
  const stamp = sourcesStamp();
  if (upToDate(stamp)) return;
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  for (let waited = 0; ; waited += 250) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // another run builds; take the lock over if its holder died long ago (a build takes well under 10 minutes)
      if (waited > 600_000) rmSync(LOCK, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (upToDate(stamp)) return;
    rmSync(STAMP, { force: true });
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    execFileSync(
      process.execPath,
      [
        fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)),
        '-p',
        'tsconfig.build.json',
      ],
      { cwd: ROOT, stdio: 'inherit' },
    );
    writeFileSync(STAMP, `${stamp} ${distMtime()}`);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
