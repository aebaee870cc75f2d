// The regression golden's run: `cove generate --n 20 --seed 1` into a fresh folder, and the sha256 of the three
// files that must be byte-identical for one seed (db.json, tasks.json, sft.jsonl).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GOLDEN_ARGS = ['generate', '--n', '20', '--seed', '1', '--quiet'];
export const GOLDEN_FILES = ['db.json', 'tasks.json', 'sft.jsonl'];

/** Runs the golden command and returns `{file: sha256}`. */
export function goldenHashes() {
  const dir = mkdtempSync(join(tmpdir(), 'cove-golden-'));
  try {
    const bin = fileURLToPath(new URL('../bin/cove.js', import.meta.url));
    execFileSync(process.execPath, [bin, ...GOLDEN_ARGS, '--out', join(dir, 'run')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return Object.fromEntries(
      GOLDEN_FILES.map((f) => [
        f,
        createHash('sha256')
          .update(readFileSync(join(dir, 'run', f)))
          .digest('hex'),
      ]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
