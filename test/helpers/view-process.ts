import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REPO } from './cli.js';

const BIN = fileURLToPath(new URL('../../bin/cove.js', import.meta.url));

/** A `cove view` child process. */
export interface ViewProcess {
  /** The first stdout line without its trailing slash: `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** GETs a path of the server and parses its JSON. */
  json<T>(path: string): Promise<T>;
  close(): Promise<void>;
  stderr(): string;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

/** Starts `cove view --port 0 <args>` and resolves once it printed its address (first stdout line). */
export function startView(args: readonly string[]): Promise<ViewProcess> {
  const child = spawn(process.execPath, [BIN, 'view', '--port', '0', ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(child);
      reject(new Error(`cove view printed no address within 60 s; stderr: ${stderr}`));
    }, 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cove view exited (${code}) before printing its address; stderr: ${stderr}`));
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      const before = stdout;
      stdout += d;
      if (before.includes('\n') || !stdout.includes('\n')) return;
      clearTimeout(timer);
      const origin = stdout.slice(0, stdout.indexOf('\n')).replace(/\/$/, '');
      resolve({
        origin,
        json: async <T>(path: string) => {
          const res = await fetch(`${origin}${path}`);
          if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
          return (await res.json()) as T;
        },
        close: () => stop(child),
        stderr: () => stderr,
      });
    });
  });
}
