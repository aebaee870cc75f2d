import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Builds dist/ once from the current sources before any test runs, so tests that spawn `bin/cove.js` never run
 * stale JavaScript (in-process tests import the TypeScript sources directly).
 */
export function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(
    process.execPath,
    [
      fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)),
      '-p',
      'tsconfig.build.json',
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
