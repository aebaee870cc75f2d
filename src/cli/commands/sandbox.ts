import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { ConfigError } from '../../core/errors.js';
import { pyJsonDumps } from '../../core/py-json.js';
import type { PyValue } from '../../core/py-value.js';
import type { SandboxOptions } from '../../domains/domain.js';
import { getDomain } from '../../domains/registry.js';

interface SandboxCliOptions {
  domain: string;
  seed: string;
  users?: string;
  orders?: string;
  out: string;
}

/** Largest --users / --orders: keeps the written JSON text well inside V8's string limit. */
const MAX_SIZE = 100_000;

function parseCount(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const what = min === 0 ? 'a non-negative integer' : 'a positive integer';
    throw new ConfigError(
      `${flag} must be ${what}${max < Number.MAX_SAFE_INTEGER ? ` (at most ${max})` : ''}, not '${text}'`,
    );
  }
  return n;
}

/** Writes the DB with {@link writeFileAtomic}, creating its folder; an unwritable path is a usage error. */
function writeDb(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomic(file, text);
  } catch (e) {
    throw new ConfigError(`cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

/** "50 products, 500 users, 1000 orders": the sizes of the DB's top-level collections. */
function describeSizes(value: PyValue): string {
  if (!(value instanceof Map)) return 'a DB';
  const size = (v: PyValue): number | string =>
    v instanceof Map ? v.size : Array.isArray(v) ? v.length : '?';
  return [...value].map(([name, v]) => `${size(v)} ${name}`).join(', ');
}

/** `cove sandbox`: writes a synthetic, seeded DB in τ²'s db.json file style (no τ² records in it). */
export function registerSandbox(program: Command): void {
  program
    .command('sandbox')
    .description(
      "write a synthetic DB in τ²'s db.json style, generated from a seed (same seed and sizes, same bytes)",
    )
    .option('--domain <name>', 'domain', 'retail')
    .requiredOption('--seed <n>', 'random seed (non-negative integer)')
    .option('--users <n>', 'number of users (default: τ²-like, retail 500)')
    .option('--orders <n>', 'number of orders (default: τ²-like, retail 1000)')
    .requiredOption('--out <file>', 'db.json to write (replaced atomically)')
    .action((options: SandboxCliOptions) => {
      const domain = getDomain(options.domain);
      const seed = parseCount('--seed', options.seed, 0, Number.MAX_SAFE_INTEGER) as number;
      const users = parseCount('--users', options.users, 1, MAX_SIZE);
      const orders = parseCount('--orders', options.orders, 1, MAX_SIZE);
      if (domain.generateSandbox === undefined) {
        throw new ConfigError(`domain '${domain.name}' has no sandbox generator`);
      }
      const sandboxOptions: SandboxOptions = {
        seed,
        ...(users === undefined ? {} : { users }),
        ...(orders === undefined ? {} : { orders }),
      };
      const value = domain.generateSandbox(sandboxOptions);
      writeDb(options.out, pyJsonDumps(value, { indent: 4 }));
      console.error(
        `cove sandbox: wrote ${domain.name} DB (seed ${seed}: ${describeSizes(value)}) to ${options.out}`,
      );
    });
}
