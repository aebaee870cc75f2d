import { Command, CommanderError } from 'commander';
import { ConfigError, CoveError, InputFileError } from '../core/errors.js';
import { COVE_VERSION } from '../version.js';

/** Exit codes: 0 ok, 1 run failed, 2 usage, config or input error. */
const program = new Command('cove')
  .description('Verified multi-turn tool-use data, τ²-compatible environments, evaluation and RL rewards')
  .version(COVE_VERSION, '-V, --version')
  .showHelpAfterError()
  .exitOverride();

/**
 * The commands, each loaded only when needed: a command's module imports everything its action uses (SQL
 * domains, the OpenAI SDK, hono, BullMQ…), so `cove replay` loads replay's graph, not all thirteen. `cove --help`, `cove
 * help …` and an unknown command load them all (commander lists and suggests from what is registered).
 */
const COMMANDS: Record<string, () => Promise<(program: Command) => void>> = {
  eval: async () => (await import('./commands/eval.js')).registerEval,
  export: async () => (await import('./commands/export.js')).registerExport,
  generate: async () => (await import('./commands/generate.js')).registerGenerate,
  grade: async () => (await import('./commands/grade.js')).registerGrade,
  'mock-llm': async () => (await import('./commands/mock-llm.js')).registerMockLlm,
  replay: async () => (await import('./commands/replay.js')).registerReplay,
  runs: async () => (await import('./commands/runs.js')).registerRuns,
  sandbox: async () => (await import('./commands/sandbox.js')).registerSandbox,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  synth: async () => (await import('./commands/synth.js')).registerSynth,
  tasks: async () => (await import('./commands/tasks.js')).registerTasks,
  view: async () => (await import('./commands/view.js')).registerView,
  worker: async () => (await import('./commands/worker.js')).registerWorker,
};

/** The command named on the command line, when it is one of ours (the first argument that is not a flag). */
function commandOf(argv: readonly string[]): string | undefined {
  const first = argv[2];
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? first : undefined;
}

// `cove replay … | head` closes stdout early: stop quietly
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

/** `[--users 500]` pasted from a usage line: the brackets mark optional flags and are not typed. */
function bracketedFlag(argv: readonly string[]): string | undefined {
  return argv.slice(2).find((a) => /^\[-/.test(a) || (/\]$/.test(a) && !/^\[/.test(a)));
}

/** A message with no advice gets the generic one: which field to correct. */
function withAdvice(e: InputFileError): string {
  return e.reason.includes(';') ||
    /\b(give|use|fix|make|pass|save|split|remove|drop|add|choose)\b/.test(e.reason)
    ? e.message
    : `${e.message}; correct ${e.path} in ${e.file} (or make the file again with the cove command that writes it)`;
}

try {
  const bracketed = bracketedFlag(process.argv);
  if (bracketed !== undefined) {
    throw new ConfigError(
      `'${bracketed}': square brackets in the README's usage lines mark optional flags; type the flag without them (e.g. --users 500)`,
    );
  }
  const named = commandOf(process.argv);
  for (const name of named === undefined ? Object.keys(COMMANDS) : [named]) {
    const register = await (COMMANDS[name] as () => Promise<(program: Command) => void>)();
    register(program);
  }
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? 0 : 2;
  } else if (e instanceof InputFileError) {
    console.error(`cove: ${withAdvice(e)}`);
    process.exitCode = 2;
  } else if (e instanceof ConfigError) {
    console.error(`cove: ${e.message}`);
    process.exitCode = 2;
  } else if (e instanceof CoveError) {
    console.error(`cove: ${e.message}`);
    process.exitCode = 1;
  } else {
    // not a cove error: a system error (disk full, permissions) or a bug; one clear line, the stack on request
    const err = e as NodeJS.ErrnoException;
    const system: Record<string, string> = {
      ENOSPC: 'the disk is full; free space and run the same command again (finished work is kept)',
      EACCES: 'permission denied; fix the permissions of the file named, or choose another --out',
      EPERM: 'operation not permitted; fix the permissions of the file named, or choose another --out',
      EISDIR: 'a folder is where cove expected a file; move it away or choose another --out',
      ENOTDIR: 'a file is where cove expected a folder; move it away or choose another --out',
      EMFILE: 'too many open files; lower --concurrency or raise the limit (ulimit -n)',
      ERR_STRING_TOO_LONG:
        'a file is too large to handle in one piece; use fewer tasks (--n) or a smaller file',
    };
    const advice = err?.code === undefined ? undefined : system[err.code];
    if (advice !== undefined) {
      console.error(`cove: ${err.message.split('\n')[0]}: ${advice}`);
    } else {
      console.error(
        `cove: internal error: ${err?.message?.split('\n')[0] ?? String(e)} — this is a bug in cove; please report it with the command you ran` +
          (process.env.COVE_DEBUG === '1' ? '' : ' (COVE_DEBUG=1 prints the stack trace)'),
      );
      if (process.env.COVE_DEBUG === '1') console.error(e);
    }
    process.exitCode = 1;
  }
}
