import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.js';

/**
 * Takes the run folder's lock (`run.lock`, holding the owner's pid) for this process, so two `cove generate` (or
 * `cove eval`) processes never write one folder at once (each would run every episode and append it). A lock
 * whose process is gone (killed) is taken over. Released by the returned function (a library caller's run ends
 * before its process does), and in any case when the process exits.
 * @param command the command taking it, named in the error (`cove generate`, `cove eval`, …).
 * @returns a function releasing the lock (idempotent)
 * @throws {ConfigError} when a live process holds the lock
 */
export function lockRunFolder(dir: string, command = 'cove generate'): () => void {
  const file = join(dir, 'run.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new ConfigError(
          `--out ${dir}: cannot create ${file} (${code ?? String(e)}); fix the folder's permissions (chmod u+w) or choose another --out`,
        );
      }
      const owner = Number.parseInt(readOwner(file), 10);
      if (Number.isSafeInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new ConfigError(
          `${dir} is being written by another ${command} (pid ${owner}); wait for it to finish or stop it`,
        );
      }
      rmSync(file, { force: true }); // left by a process that is gone
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    const release = (): void => {
      process.removeListener('exit', release);
      if (readOwner(file) === String(process.pid)) rmSync(file, { force: true });
    };
    process.once('exit', release);
    return release;
  }
  throw new ConfigError(`cannot take the lock ${file}; remove it if no ${command} is running`);
}

function readOwner(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
