import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockRunFolder } from '../../src/run/run-lock.js';
import { generateInProcess } from '../helpers/generate-in-process.js';

const dir = mkdtempSync(join(tmpdir(), 'cove-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the run folder lock', () => {
  it('holds this process id until released; a release is idempotent', () => {
    const release = lockRunFolder(dir);
    expect(readFileSync(join(dir, 'run.lock'), 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(join(dir, 'run.lock'))).toBe(false);
    release();
    expect(existsSync(join(dir, 'run.lock'))).toBe(false);
  });

  it('a release never removes a lock another process has taken since', () => {
    const release = lockRunFolder(dir);
    writeFileSync(join(dir, 'run.lock'), '1\n'); // pid 1 (init) is alive: the lock is now someone else's
    release();
    expect(readFileSync(join(dir, 'run.lock'), 'utf8')).toBe('1\n');
    expect(() => lockRunFolder(dir)).toThrow(`is being written by another cove generate (pid 1)`);
    rmSync(join(dir, 'run.lock'));
  });

  it('is released when a library run returns, so the same process can run the folder again', async () => {
    const out = join(dir, 'run');
    const first = await generateInProcess({ n: 3, out });
    expect(first.newEpisodes).toBe(3);
    expect(existsSync(join(out, 'run.lock'))).toBe(false);
    const again = await generateInProcess({ n: 3, out });
    expect(again).toMatchObject({ resumed: true, newEpisodes: 0 });
  }, 300_000);
});
