import { Command, CommanderError } from 'commander';
import { ConfigError, CoveError, InputFileError } from '../core/errors.js';
import { COVE_VERSION } from '../version.js';
import { registerEval } from './commands/eval.js';
import { registerExport } from './commands/export.js';
import { registerGenerate } from './commands/generate.js';
import { registerGrade } from './commands/grade.js';
import { registerMockLlm } from './commands/mock-llm.js';
import { registerReplay } from './commands/replay.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerServe } from './commands/serve.js';
import { registerTasks } from './commands/tasks.js';

/** Exit codes: 0 ok, 1 run failed, 2 usage, config or input error. */
const program = new Command('cove')
  .description('Verified multi-turn tool-use data, τ²-compatible environments, evaluation and RL rewards')
  .version(COVE_VERSION, '-V, --version')
  .showHelpAfterError()
  .exitOverride();

registerEval(program);
registerExport(program);
registerGenerate(program);
registerGrade(program);
registerMockLlm(program);
registerReplay(program);
registerSandbox(program);
registerServe(program);
registerTasks(program);

// `cove replay … | head` closes stdout early: stop quietly
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? 0 : 2;
  } else if (e instanceof ConfigError || e instanceof InputFileError) {
    console.error(`cove: ${e.message}`);
    process.exitCode = 2;
  } else if (e instanceof CoveError) {
    console.error(`cove: ${e.message}`);
    process.exitCode = 1;
  } else {
    console.error(e);
    process.exitCode = 1;
  }
}
