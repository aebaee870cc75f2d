// `npm run test:busy`: runs `npm test` while two other processes keep both cores busy, to check that the suite
// holds on a loaded machine (no wall-clock assertion, generous timeouts). Exits with npm test's status.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const burn = 'let x = 0; for (;;) { x = (x * 1103515245 + 12345) % 2147483648; }';
const burners = Array.from({ length: availableParallelism() }, () =>
  spawn(process.execPath, ['-e', burn], { stdio: 'ignore' }),
);
process.stdout.write(`test:busy: ${burners.length} CPU burners running\n`);
const test = spawn('npm', ['test', '--', ...process.argv.slice(2)], { stdio: 'inherit' });
test.on('exit', (code) => {
  for (const b of burners) b.kill('SIGKILL');
  process.exitCode = code ?? 1;
});
