#!/usr/bin/env node
// Runs the built CLI (dist/, made by `npm run build`, which `npm ci` runs through the `prepare` script).
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // answered without loading the CLI: `cove --version` is what scripts and health checks call most
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  const main = new URL('../dist/cli/main.js', import.meta.url);
  if (!existsSync(main)) {
    process.stderr.write('cove: dist/ is missing; run `npm run build` (npm ci runs it for you)\n');
    process.exit(2);
  }
  await import(main.href);
}
