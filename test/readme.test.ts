import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from './helpers/cli.js';
import { SHARED } from './helpers/paths.js';

/**
 * The README runs top to bottom as written (docs/readme-test.md): every ```sh / ```bash block, in order, in one
 * fresh folder beside a `shared` link (so `../shared/…` resolves as from the repository), with `npx cove` running
 * this checkout. A block preceded by `<!-- readme-test: skip (reason) -->` is skipped.
 */

/** A shell block of the README with the line it starts on and, when skipped, why. */
interface ReadmeBlock {
  readonly line: number;
  readonly code: string;
  readonly skip?: string;
}

const SKIP = /^<!--\s*readme-test:\s*skip\s*\((.+)\)\s*-->$/;

/** The README's shell blocks in order. */
function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i] as string)) continue;
    let prev = i - 1;
    while (prev >= 0 && (lines[prev] as string).trim() === '') prev--;
    const skip = SKIP.exec((lines[prev] ?? '').trim())?.[1];
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] as string); i++) body.push(lines[i] as string);
    blocks.push({ line: start + 1, code: body.join('\n'), ...(skip === undefined ? {} : { skip }) });
  }
  return blocks;
}

const root = mkdtempSync(join(tmpdir(), 'cove-readme-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** Prepended to every block: a background job it started (a mock server) never outlives it, even on failure. */
const CLEANUP = "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n";

describe('README.md', () => {
  const blocks = readmeBlocks(readFileSync(join(REPO, 'README.md'), 'utf8'));

  it('has shell examples, and every skipped one says why', () => {
    expect(blocks.filter((b) => b.skip === undefined).length).toBeGreaterThanOrEqual(5);
    for (const b of blocks) if (b.skip !== undefined) expect(b.skip.length).toBeGreaterThan(10);
  });

  it('lists its output folders in .gitignore', () => {
    const ignored = readFileSync(join(REPO, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toContain('work/');
    expect(ignored).toContain('runs/');
  });

  it('runs top to bottom as written in a fresh folder', () => {
    symlinkSync(SHARED, join(root, 'shared'));
    const cwd = join(root, 'fresh');
    const shims = join(root, 'bin');
    mkdirSync(cwd);
    mkdirSync(shims);
    const npx = join(shims, 'npx');
    writeFileSync(
      npx,
      `#!/bin/sh\nif [ "$1" = cove ]; then shift; exec "${process.execPath}" "${join(REPO, 'bin', 'cove.js')}" "$@"; fi\n` +
        'echo "readme test: only npx cove is available" >&2; exit 127\n',
    );
    chmodSync(npx, 0o755);
    for (const block of blocks) {
      if (block.skip !== undefined) continue;
      const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', CLEANUP + block.code], {
        cwd,
        env: { ...process.env, PATH: `${shims}:${process.env.PATH}` },
        encoding: 'utf8',
        timeout: 1_800_000,
      });
      expect(r.status, `README line ${block.line}:\n${block.code}\nstderr: ${r.stderr?.slice(-3000)}`).toBe(
        0,
      );
      expect(r.stderr, `README line ${block.line}`).not.toMatch(/^cove: /m);
    }
    // outputs land only where the README says (both folders ignored by git)
    expect(readdirSync(cwd).sort()).toEqual(['runs', 'work']);
    const summary = (dir: string) =>
      JSON.parse(readFileSync(join(cwd, dir, 'summary.json'), 'utf8')) as {
        sft_trajectories: number;
        episodes: number;
      };
    expect(summary('runs/default')).toMatchObject({ episodes: 100, sft_trajectories: 100 });
    expect(summary('work/runs/from-tasks')).toMatchObject({ episodes: 50, sft_trajectories: 50 });
    expect(summary('work/runs/airline')).toMatchObject({ episodes: 100, sft_trajectories: 100 });
    expect(summary('work/runs/airline-tau2')).toMatchObject({ episodes: 50, sft_trajectories: 50 });
    expect(summary('work/runs/mock').episodes).toBe(50);
    expect(existsSync(join(cwd, 'work', 'db.json'))).toBe(true);
  }, 3_600_000);
});
