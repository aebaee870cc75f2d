import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';

/** Where to look for a τ² data directory (docs/design.md §4), in priority order. */
export interface Tau2DirHints {
  /** `--tau2-data DIR`. */
  readonly explicit?: string | undefined;
  /** `$COVE_TAU2_DATA`. */
  readonly fromEnv?: string | undefined;
  /** A tasks file whose ancestors may hold `<domain>/db.json`. */
  readonly tasksFile?: string | undefined;
}

/**
 * The folder of one domain inside a τ² data directory: `<dir>/<domain>` (cove's test-data layout),
 * `<dir>/domains/<domain>` (upstream `data/tau2`), or `<dir>/data/tau2/domains/<domain>` (an upstream checkout).
 */
export function domainFolder(tau2Dir: string, domain: string): string | undefined {
  for (const candidate of [
    join(tau2Dir, domain),
    join(tau2Dir, 'domains', domain),
    join(tau2Dir, 'data', 'tau2', 'domains', domain),
  ]) {
    if (existsSync(join(candidate, 'db.json'))) return candidate;
  }
  return undefined;
}

/** The τ² data directory root that holds a domain folder (for the shared files beside the domains). */
export function tau2Root(domainDir: string): string {
  const parent = dirname(domainDir);
  return parent.endsWith(`${join('data', 'tau2', 'domains')}`) || parent.endsWith('domains')
    ? dirname(parent)
    : parent;
}

/**
 * Finds the τ² data directory for `domain`: `--tau2-data`, else `$COVE_TAU2_DATA`, else the nearest ancestor
 * of the tasks file holding the domain's `db.json`.
 * @throws {ConfigError} when an explicit directory lacks the domain, or nothing is found.
 */
export function resolveTau2DomainDir(domain: string, hints: Tau2DirHints): string {
  for (const [flag, dir] of [
    ['--tau2-data', hints.explicit],
    ['$COVE_TAU2_DATA', hints.fromEnv],
  ] as const) {
    if (dir === undefined || dir === '') continue;
    const found = domainFolder(resolve(dir), domain);
    if (found === undefined) {
      throw new ConfigError(
        `${flag} ${dir} holds no ${domain}/db.json (expected <dir>/${domain}/db.json or <dir>/data/tau2/domains/${domain}/db.json)`,
      );
    }
    return found;
  }
  if (hints.tasksFile !== undefined) {
    let dir = dirname(resolve(hints.tasksFile));
    for (;;) {
      const found = domainFolder(dir, domain);
      if (found !== undefined) return found;
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  throw new ConfigError(
    `cannot find the τ² data directory for ${domain}: pass --tau2-data DIR or set COVE_TAU2_DATA ` +
      `(a folder holding ${domain}/db.json, such as a copy of τ²'s data or an upstream tau2-bench data/tau2)`,
  );
}
