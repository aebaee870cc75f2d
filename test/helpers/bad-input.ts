import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { type CliResult, runCoveAsync } from './cli.js';
import { UNPRIVILEGED } from './unprivileged.js';

/**
 * One malformed input and what its refusal must say. The command runs in a fresh folder (`dir`) holding what
 * `setup` put there; afterwards every file that was there must be unchanged and no file may have been added.
 */
export interface BadInputCase {
  readonly name: string;
  /** Creates the case's files in `dir` (may copy shared fixtures). */
  readonly setup?: (dir: string) => void;
  /** The cove arguments, run with `dir` as the working folder. */
  readonly args: (dir: string) => string[];
  /** What is wrong (a fragment or pattern of the message). */
  readonly what: string | RegExp;
  /** Where: the flag, file, task or field named. */
  readonly where: string | RegExp;
  /** What to do (advice in the message). */
  readonly todo: string | RegExp;
  /** Exit code. @defaultValue 2 */
  readonly status?: number;
  /** Files the command may create (relative to `dir`), e.g. an empty run folder's lock being released. */
  readonly mayCreate?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Run the CLI as an unprivileged user (test/helpers/unprivileged.ts), so that permission bits apply even when
   * the tests run as root. The caller skips the case when that is not possible here.
   */
  readonly unprivileged?: boolean;
}

/** sha256 and mode of every file under `dir` (relative paths), folders excluded. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.size > 16 * 1024 * 1024) out.set(relative(dir, p), `${st.size}:${st.mtimeMs}:${st.mode}`);
      else
        out.set(relative(dir, p), `${createHash('sha256').update(readFileSync(p)).digest('hex')}:${st.mode}`);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

const contains = (text: string, part: string | RegExp) =>
  typeof part === 'string' ? text.includes(part) : part.test(text);

/** Runs one case and asserts: exit code, one `cove:` line with what/where/todo, no stack trace, nothing changed. */
export async function checkBadInput(root: string, c: BadInputCase, index: number): Promise<CliResult> {
  const dir = join(root, `case-${index}`);
  mkdirSync(dir, { recursive: true });
  c.setup?.(dir);
  const before = snapshot(dir);
  const prefix = c.unprivileged === true && 'prefix' in UNPRIVILEGED ? UNPRIVILEGED.prefix : undefined;
  const r = await runCoveAsync(c.args(dir), {
    cwd: dir,
    ...(c.env === undefined ? {} : { env: c.env }),
    ...(prefix === undefined ? {} : { prefix }),
  });
  const line = r.stderr.split('\n').find((l) => l.startsWith('cove: ')) ?? '';
  const context = `${c.name}\nstderr: ${r.stderr.slice(0, 2000)}`;
  expect(r.status, context).toBe(c.status ?? 2);
  expect(line, context).not.toBe('');
  expect(contains(line, c.what), `what (${String(c.what)}) — ${context}`).toBe(true);
  expect(contains(line, c.where), `where (${String(c.where)}) — ${context}`).toBe(true);
  expect(contains(line, c.todo), `what to do (${String(c.todo)}) — ${context}`).toBe(true);
  expect(r.stderr, context).not.toMatch(/^\s+at /m); // no stack trace
  expect(r.stderr, context).not.toContain('internal error');
  const after = snapshot(dir);
  for (const [file, digest] of before) expect(after.get(file), `${c.name}: ${file} changed`).toBe(digest);
  const added = [...after.keys()].filter((f) => !before.has(f) && !(c.mayCreate ?? []).includes(f));
  expect(added, `${c.name}: files written`).toEqual([]);
  return r;
}

/** Copies a fixture file or folder into a case folder. */
export function copyInto(dir: string, from: string, to: string): string {
  const target = join(dir, to);
  cpSync(from, target, { recursive: true });
  return target;
}
