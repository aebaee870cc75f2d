import type { Command } from 'commander';
import { z } from 'zod';
import { ConfigError, InputFileError } from '../../core/errors.js';
import { parseWith } from '../../core/schema-helpers.js';
import { readJsonFile } from '../../domains/load-db.js';
import { getDomain } from '../../domains/registry.js';
import { loadSqlDomainFlag } from '../../domains/sql/load-spec.js';
import { readPlainJson } from '../../io/read-input.js';
import { type MockScript, SCRIPT_ROLES, type ScriptRole } from '../../server/mock-llm/app.js';
import { FAULTS, type Fault, isFault } from '../../server/mock-llm/faults.js';
import { RoleSessions } from '../../server/mock-llm/sessions.js';
import { type CoveTask, readCoveBlocks } from '../../tasks/cove-task.js';
import { parseTau2Tasks } from '../../tasks/tau2-task.js';
import { intFlag } from '../db-source.js';
import { loadCoveTasks } from '../tasks-input.js';

const turnSchema = z.strictObject({
  content: z.string().nullable().optional(),
  tool_calls: z
    .array(z.strictObject({ id: z.string().optional(), name: z.string(), arguments: z.unknown() }))
    .optional(),
});
const turnsSchema = z.array(turnSchema);
/** Replies per role: agent, user, tool_outputs (the tool model) and every synthesis stage (judge, tools, …). */
const roleTurnsShape = Object.fromEntries(SCRIPT_ROLES.map((r) => [r, turnsSchema.optional()])) as Record<
  ScriptRole,
  z.ZodOptional<typeof turnsSchema>
>;
const byTaskSchema = z.record(z.string(), z.strictObject(roleTurnsShape));
/**
 * The script file of `--mode script` (documented in the README and docs/synthesis-stages.md): `tasks` as a list is
 * the `tasks` stage's replies; as an object, the replies per task id (older scripts; `by_task` is the same).
 */
const mockScriptSchema = z.strictObject({
  ...roleTurnsShape,
  tasks: z.union([turnsSchema, byTaskSchema]).optional(),
  by_task: byTaskSchema.optional(),
});

interface MockFlags {
  port: string;
  host: string;
  latencyMs: string;
  faultRate: string;
  faults: string;
  mode?: string;
  tasks?: string;
  script?: string;
  hangMs: string;
  slowMs: string;
  seed: string;
  userStyle: string;
  domainSpec?: string;
}

function faultList(text: string): Fault[] {
  if (text === 'all') return Object.keys(FAULTS) as Fault[];
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const name of names) {
    if (!isFault(name))
      throw new ConfigError(`unknown fault '${name}' (known: ${Object.keys(FAULTS).join(', ')}, or all)`);
  }
  return names as Fault[];
}

/** `cove mock-llm`: a local OpenAI-compatible server that plays the oracle agent and the scripted user. */
export function registerMockLlm(program: Command): void {
  program
    .command('mock-llm')
    .description(
      'serve /v1/chat/completions on 127.0.0.1, playing competent roles (agent, user, tool_outputs) for cove tasks (for tests)',
    )
    .option('--port <n>', 'port (0: a free one)', '8765')
    .option('--host <address>', 'address to bind (keep it on this machine)', '127.0.0.1')
    .option('--latency-ms <ms>', 'delay before every answer', '0')
    .option('--fault-rate <p>', 'share of requests that get a fault (0..1)', '0')
    .option(
      '--faults <list>',
      `comma-separated faults to draw from, or all (${Object.keys(FAULTS).join(', ')})`,
      'all',
    )
    .option(
      '--mode <mode>',
      'oracle (needs --tasks) or script (needs --script); default: script with --script, else oracle',
    )
    .option('--tasks <file>', 'tasks made by cove (the x-cove-task-id header names one)')
    .option('--domain-spec <file>', 'oracle mode: the SQL domain spec the tasks were made on')
    .option('--script <file>', 'replies to replay in script mode (see the README)')
    .option('--hang-ms <ms>', 'how long a timeout fault holds the request', '65000')
    .option('--slow-ms <ms>', 'extra delay of a slow fault', '1500')
    .option('--seed <n>', 'seed of the fault draws', '1')
    .option(
      '--user-style <style>',
      'oracle mode: the user answers as stop-token text or as json ({user_message, is_task_complete})',
      'stop-token',
    )
    .action(async (flags: MockFlags) => {
      // `--script FILE` alone means script mode (the README calls it "script mode (`--script FILE`)")
      flags.mode ??= flags.script === undefined ? 'oracle' : 'script';
      const rate = Number(flags.faultRate);
      if (!Number.isFinite(rate) || rate < 0 || rate > 1)
        throw new ConfigError(`--fault-rate must be between 0 and 1, not '${flags.faultRate}'`);
      if (flags.mode !== 'oracle' && flags.mode !== 'script')
        throw new ConfigError(`--mode must be oracle or script, not '${flags.mode}'`);
      if (flags.userStyle !== 'stop-token' && flags.userStyle !== 'json')
        throw new ConfigError(`--user-style must be stop-token or json, not '${flags.userStyle}'`);
      const faults = faultList(flags.faults); // flags first: a bad flag is reported before any file is read
      let sessions: RoleSessions | undefined;
      let script: MockScript | undefined;
      if (flags.mode === 'oracle') {
        if (flags.tasks === undefined)
          throw new ConfigError('--mode oracle needs --tasks <file> (tasks made by cove)');
        const loaded = parseTau2Tasks(readJsonFile(flags.tasks), flags.tasks);
        const blocks = readCoveBlocks(
          loaded.map((t) => t.raw),
          loaded.map((t) => t.task.id),
          flags.tasks,
        );
        const tasks = readPlainJson(flags.tasks) as CoveTask[];
        const first = blocks[0];
        if (first === undefined) throw new InputFileError(flags.tasks, '$', 'no tasks');
        const spec = loadSqlDomainFlag(flags.domainSpec);
        if (spec !== undefined && spec.domain.name !== first.domain) {
          throw new ConfigError(
            `--domain-spec ${flags.domainSpec} is domain ${spec.domain.name}, but the tasks in ${flags.tasks} are ${first.domain}`,
          );
        }
        const domain = spec?.domain ?? getDomain(first.domain);
        const tasksFile = flags.tasks;
        // the tasks' DB is opened only when a tool-model request comes (x-cove-role: tool_outputs)
        sessions = new RoleSessions(domain, new Map(tasks.map((t) => [t.id, t])), () => {
          const input = loadCoveTasks(domain, tasksFile);
          return { base: input.loaded.base, semantics: input.semantics };
        });
      } else {
        if (flags.script === undefined) throw new ConfigError('--mode script needs --script <file>');
        const value = readPlainJson(flags.script, { what: '--script' });
        script = parseWith(mockScriptSchema, value, flags.script) as MockScript;
      }
      // the HTTP stack (hono) loads only when a server starts
      const { createMockLlmApp } = await import('../../server/mock-llm/app.js');
      const { serveApp } = await import('../../server/serve.js');
      const { app } = createMockLlmApp({
        mode: flags.mode,
        userStyle: flags.userStyle,
        ...(sessions === undefined ? {} : { sessions }),
        ...(script === undefined ? {} : { script }),
        latencyMs: intFlag('--latency-ms', flags.latencyMs, 0),
        faultRate: rate,
        faults,
        hangMs: intFlag('--hang-ms', flags.hangMs, 65_000),
        slowMs: intFlag('--slow-ms', flags.slowMs, 1500),
        seed: intFlag('--seed', flags.seed, 1),
      });
      const port = intFlag('--port', flags.port, 8765);
      if (!['localhost', '::1'].includes(flags.host) && !/^127\.\d+\.\d+\.\d+$/.test(flags.host)) {
        process.stderr.write(
          `warning: --host ${flags.host} makes the mock server (no authentication) reachable from other machines\n`,
        );
      }
      const server = await serveApp(app, { port, host: flags.host }).catch((e: NodeJS.ErrnoException) => {
        throw new ConfigError(
          e.code === 'EADDRINUSE'
            ? `port ${port} on ${flags.host} is in use; pick another --port (0: any free one)`
            : `cannot listen on ${flags.host}:${port}: ${e.message}`,
        );
      });
      process.stdout.write(`${server.url}/v1\n`);
      process.stderr.write(
        `cove mock-llm (${flags.mode} mode) listening on ${server.url}/v1; Ctrl-C stops it\n`,
      );
      await new Promise<void>((done) => {
        const stop = () => void server.close().then(done);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
