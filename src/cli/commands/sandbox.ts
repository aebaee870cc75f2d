import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { ConfigError } from '../../core/errors.js';
import { pyJsonDumps } from '../../core/py-json.js';
import type { PyValue } from '../../core/py-value.js';
import { sandboxSize } from '../../domains/domain.js';
import { domainNames, getDomain } from '../../domains/registry.js';
import { prepareOutputFile } from '../output-paths.js';

interface SandboxCliOptions {
  domain?: string;
  seed: string;
  out: string;
  [size: string]: string | undefined;
}

/** Largest sandbox size by default: keeps the written JSON text well inside V8's string limit. */
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

/** Every size key any domain declares, with the domains that declare it (each becomes a `--<key>` flag). */
function sizeFlags(): Map<string, string[]> {
  const flags = new Map<string, string[]>();
  for (const name of domainNames()) {
    for (const [key, spec] of Object.entries(getDomain(name).sandbox?.sizes ?? {})) {
      flags.set(key, [...(flags.get(key) ?? []), `${name}: ${spec.description}`]);
    }
  }
  return flags;
}

/** `--reservations` for the size key `reservations`, `--max-users` for `maxUsers`. */
const flagName = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** `cove sandbox`: writes a synthetic, seeded DB in τ²'s db.json file style (no τ² records in it). */
export function registerSandbox(program: Command): void {
  const command = program
    .command('sandbox')
    .description(
      "write a synthetic DB in τ²'s db.json style, generated from a seed (same seed and sizes, same bytes)",
    )
    .option('--domain <name>', `domain (${domainNames().join(', ')})`)
    .requiredOption('--seed <n>', 'random seed (non-negative integer)');
  const flags = sizeFlags();
  for (const [key, what] of flags) command.option(`${flagName(key)} <n>`, `size: ${what.join('; ')}`);
  command
    .requiredOption('--out <file>', 'db.json to write (replaced atomically)')
    .action((options: SandboxCliOptions) => {
      if (options.domain === undefined) {
        throw new ConfigError(`cove sandbox needs --domain (one of: ${domainNames().join(', ')})`);
      }
      const domain = getDomain(options.domain);
      const seed = parseCount('--seed', options.seed, 0, 2 ** 32 - 1) as number;
      const sandbox = domain.sandbox;
      if (sandbox === undefined) throw new ConfigError(`domain '${domain.name}' has no sandbox generator`);
      const given: Record<string, number | undefined> = {};
      for (const key of flags.keys()) {
        const text = options[key];
        if (text === undefined) continue;
        const spec = sandbox.sizes[key];
        if (spec === undefined) {
          const own = Object.keys(sandbox.sizes).map(flagName).join(', ');
          throw new ConfigError(
            `${flagName(key)} does not apply to ${domain.name} (its sizes: ${own || 'none'})`,
          );
        }
        given[key] = parseCount(flagName(key), text, spec.min ?? 1, spec.max ?? MAX_SIZE);
      }
      prepareOutputFile('--out', options.out);
      const value = sandbox.generate(seed, sandboxSize(sandbox, given));
      writeDb(options.out, pyJsonDumps(value, { indent: 4 }));
      console.error(
        `cove sandbox: wrote ${domain.name} DB (seed ${seed}: ${describeSizes(value)}) to ${options.out}`,
      );
    });
}
