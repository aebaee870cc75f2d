import { type ChildProcess, spawn } from 'node:child_process';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { type CliResult, REPO } from './cli.js';

const BIN = fileURLToPath(new URL('../../bin/cove.js', import.meta.url));

/** Request and fault counters of `GET /stats`. */
export interface MockLlmStats {
  readonly requests: number;
  readonly byRole: Record<string, number>;
  readonly faults: Record<string, number>;
}

/** A `cove mock-llm` child process. */
export interface MockLlmProcess {
  /** The first stdout line: `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  stats(): Promise<MockLlmStats>;
  /** Stops the server (SIGTERM, SIGKILL after 5 s) and waits for the process to exit. */
  close(): Promise<void>;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited(child);
  clearTimeout(timer);
}

/**
 * `GET /stats` on a connection of its own (`agent: false`): a pooled keep-alive socket that the server closes
 * while a test pauses fails the next request with "other side closed".
 */
function getStats(origin: string): Promise<MockLlmStats> {
  return new Promise((resolve, reject) => {
    get(`${origin}/stats`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => {
        body += d;
      });
      res.on('end', () => {
        try {
          resolve(JSON.parse(body) as MockLlmStats);
        } catch (e) {
          reject(
            new Error(`GET ${origin}/stats gave ${res.statusCode}: ${body.slice(0, 200)} (${String(e)})`),
          );
        }
      });
    }).on('error', reject);
  });
}

/**
 * Starts `cove mock-llm --port 0 <args>` and resolves once it printed its base URL (the first stdout line),
 * which must be on 127.0.0.1.
 */
export function startMockLlm(args: readonly string[]): Promise<MockLlmProcess> {
  const child = spawn(process.execPath, [BIN, 'mock-llm', '--port', '0', ...args], {
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
      reject(new Error(`cove mock-llm printed no URL within 30 s; stderr: ${stderr}`));
    }, 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cove mock-llm exited (${code}) before printing its URL; stderr: ${stderr}`));
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      const before = stdout;
      stdout += d;
      if (before.includes('\n') || !stdout.includes('\n')) return;
      clearTimeout(timer);
      const baseUrl = stdout.slice(0, stdout.indexOf('\n'));
      if (!/^http:\/\/127\.0\.0\.1:\d+\/v1$/.test(baseUrl)) {
        void stop(child);
        reject(new Error(`unexpected first stdout line of cove mock-llm: ${baseUrl}`));
        return;
      }
      const origin = baseUrl.slice(0, -'/v1'.length);
      resolve({
        baseUrl,
        stats: () => getStats(origin),
        close: () => stop(child),
        stderr: () => stderr,
      });
    });
  });
}

/** A `cove` child process that can be stopped before it ends (for runs that are meant to stall). */
export interface CoveProcess {
  readonly result: Promise<CliResult & { signal: NodeJS.Signals | null }>;
  readonly running: () => boolean;
  /** Sends a signal (e.g. SIGINT, as Ctrl-C does) without waiting. */
  signal(signal: NodeJS.Signals): void;
  kill(): Promise<void>;
}

/** Spawns the real CLI without waiting for it. */
export function spawnCove(args: readonly string[]): CoveProcess {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const result = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ status: code, signal, stdout, stderr }));
  });
  return {
    result,
    running: () => child.exitCode === null && child.signalCode === null,
    signal: (signal) => {
      child.kill(signal);
    },
    kill: async () => {
      await stop(child);
      await result;
    },
  };
}

/** `cove generate` flags that give both roles to model `mock` at `baseUrl` (a `cove mock-llm`), quietly. */
export function mockRoleFlags(baseUrl: string): string[] {
  return [
    '--agent',
    'openai:mock',
    '--agent-base-url',
    baseUrl,
    '--user',
    'openai:mock',
    '--user-base-url',
    baseUrl,
    '--quiet',
  ];
}
