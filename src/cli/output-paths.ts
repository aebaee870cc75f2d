import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError } from '../core/errors.js';

/**
 * Checks, before any work starts, that `file` can be written as a file: it is not a folder, and its folder exists
 * or can be created (created here) and takes new files. @throws {ConfigError} naming the flag and the path
 */
export function prepareOutputFile(flag: string, file: string): void {
  if (existsSync(file) && statSync(file).isDirectory()) {
    throw new ConfigError(`${flag} ${file} is a folder; give a file name such as ${file}/tasks.json`);
  }
  makeFolder(flag, dirname(file));
  // the file is replaced atomically through a temporary file beside it: the folder must take new files
  const probe = join(dirname(file), `.cove-write-check.${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new ConfigError(
      `${flag} ${file}: cannot write in the folder ${dirname(file)} (${code}); fix its permissions or give another path`,
    );
  }
}

/**
 * Checks, before any work starts, that `dir` is a folder or can be created as one (created here).
 * @throws {ConfigError} naming the flag and the path
 */
export function prepareOutputDir(flag: string, dir: string): void {
  makeFolder(flag, dir);
}

function makeFolder(flag: string, dir: string): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new ConfigError(
      `${flag}: ${dir} exists and is not a folder; give a folder path (or move the file away)`,
    );
  }
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new ConfigError(
      `${flag}: cannot create the folder ${dir} (${code}); give a path whose parents are folders you may write`,
    );
  }
}
