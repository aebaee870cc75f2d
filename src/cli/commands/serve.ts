import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import type { TextSetting } from '../../domains/agent-context.js';
import type { Semantics } from '../../env/tool.js';
import { createRlApp } from '../../server/rl/app.js';
import { setupRlService } from '../../server/rl/setup.js';
import { serveApp } from '../../server/serve.js';
import { intFlag } from '../db-source.js';

interface ServeFlags {
  tasks: string;
  domain?: string;
  db?: string;
  tau2Data?: string;
  text: string;
  semantics?: string;
  user: string;
  userBaseUrl?: string;
  userApiKeyEnv?: string;
  config?: string;
  port: string;
  host: string;
  tokenEnv?: string;
  maxEpisodes: string;
  idleTimeoutS: string;
  maxBodyBytes: string;
  maxSteps: string;
  maxErrors: string;
  record?: string;
}

/** True for loopback addresses (127.0.0.0/8, ::1, localhost). */
function isLoopbackHost(host: string): boolean {
  return ['localhost', '::1'].includes(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** `cove serve`: the RL episode service (episodes played turn by turn over HTTP, rewards, MCP). */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve episodes of tasks to an RL trainer over HTTP: step, reward, MCP (see the README)')
    .requiredOption('--tasks <file>', 'tasks made by `cove tasks`, or τ² tasks (with the τ² data directory)')
    .option('--domain <name>', 'domain (default: told by the tasks)')
    .option('--db <file>', 'the DB of the tasks (default: the one they name, or τ²’s pristine DB)')
    .option('--tau2-data <dir>', 'τ² data directory (τ² tasks, --text tau2)')
    .option('--text <source>', "policy, prompts and tool texts: cove or tau2 (τ²'s files)", 'cove')
    .option('--semantics <mode>', 'tool semantics of τ² tasks: parity or fixed (cove tasks carry theirs)')
    .option(
      '--user <spec>',
      'user simulator of episodes that name none: scripted, or openai:<model>',
      'scripted',
    )
    .option('--user-base-url <url>', 'OpenAI-compatible base URL that serves model-played users')
    .option('--user-api-key-env <name>', 'environment variable with its API key (default OPENAI_API_KEY)')
    .option('--config <file>', 'cove.json: roles.user settings and prices (see the README)')
    .option('--port <n>', 'port (0: a free one)', '8787')
    .option('--host <address>', 'address to bind (keep it on this machine)', '127.0.0.1')
    .option('--token-env <name>', 'environment variable holding a bearer token every request must carry')
    .option('--max-episodes <n>', 'live episodes at most (429 past it)', '1000')
    .option('--idle-timeout-s <s>', 'seconds after which an untouched episode is closed', '600')
    .option('--max-body-bytes <n>', 'largest request body (413 past it)', String(4 * 1024 * 1024))
    .option('--max-steps <n>', 'steps before an episode ends with max_steps', '200')
    .option('--max-errors <n>', 'tool errors before an episode ends with too_many_errors', '10')
    .option('--record <dir>', 'append finished episodes to this run folder (generate’s format)')
    .action(async (flags: ServeFlags) => {
      if (flags.text !== 'cove' && flags.text !== 'tau2')
        throw new ConfigError(`--text must be cove or tau2, not '${flags.text}'`);
      if (flags.semantics !== undefined && flags.semantics !== 'parity' && flags.semantics !== 'fixed')
        throw new ConfigError(`--semantics must be parity or fixed, not '${flags.semantics}'`);
      let token: string | undefined;
      if (flags.tokenEnv !== undefined) {
        token = process.env[flags.tokenEnv];
        if (token === undefined || token.trim() === '')
          throw new ConfigError(
            `--token-env ${flags.tokenEnv}: that environment variable is not set or empty`,
          );
      }
      const port = intFlag('--port', flags.port, 8787);
      const text = flags.text as TextSetting;
      const service = setupRlService({
        tasks: flags.tasks,
        ...(flags.domain === undefined ? {} : { domain: flags.domain }),
        ...(flags.db === undefined ? {} : { db: flags.db }),
        ...(flags.tau2Data === undefined ? {} : { tau2Data: flags.tau2Data }),
        text,
        ...(flags.semantics === undefined ? {} : { semantics: flags.semantics as Semantics }),
        user: flags.user,
        ...(flags.userBaseUrl === undefined ? {} : { userBaseUrl: flags.userBaseUrl }),
        ...(flags.userApiKeyEnv === undefined ? {} : { userApiKeyEnv: flags.userApiKeyEnv }),
        ...(flags.config === undefined ? {} : { config: flags.config }),
        limits: {
          maxSteps: intFlag('--max-steps', flags.maxSteps, 200, 1),
          maxErrors: intFlag('--max-errors', flags.maxErrors, 10, 1),
          repeatedCallLimit: text === 'tau2' ? null : 5,
        },
        maxEpisodes: intFlag('--max-episodes', flags.maxEpisodes, 1000, 1),
        idleTimeoutMs: intFlag('--idle-timeout-s', flags.idleTimeoutS, 600, 1) * 1000,
        ...(flags.record === undefined ? {} : { record: flags.record }),
        command: process.argv.slice(2),
        env: process.env,
        onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
      });
      const app = createRlApp(service, {
        ...(token === undefined ? {} : { token }),
        maxBodyBytes: intFlag('--max-body-bytes', flags.maxBodyBytes, 4 * 1024 * 1024, 1),
        onError: (e) =>
          process.stderr.write(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`),
      });
      if (!isLoopbackHost(flags.host)) {
        process.stderr.write(
          `warning: --host ${flags.host} makes the episode service reachable from other machines${token === undefined ? ' without authentication (set --token-env)' : ''}\n`,
        );
      }
      const server = await serveApp(app, { port, host: flags.host, keepAliveTimeoutMs: 75_000 }).catch(
        (e: NodeJS.ErrnoException) => {
          service.close();
          throw new ConfigError(
            e.code === 'EADDRINUSE'
              ? `port ${port} on ${flags.host} is in use; pick another --port (0: any free one)`
              : `cannot listen on ${flags.host}:${port}: ${e.message}`,
          );
        },
      );
      process.stdout.write(`${server.url}\n`);
      process.stderr.write(
        `cove serve: ${service.listTasks().length} tasks on ${server.url}${flags.record === undefined ? '' : `, recording into ${flags.record}`}; Ctrl-C stops it\n`,
      );
      await new Promise<void>((done) => {
        const stop = () =>
          void server.close().then(() => {
            service.close();
            done();
          });
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
