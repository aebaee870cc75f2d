// `npm run update-golden`: rewrites test/fixtures/golden-generate.json after an intended change of the default
// data. Say why in the commit that changes the fixture.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { GOLDEN_ARGS, goldenHashes } from './golden-run.mjs';

execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
const hashes = goldenHashes();
const file = new URL('../test/fixtures/golden-generate.json', import.meta.url);
writeFileSync(file, `${JSON.stringify({ command: ['cove', ...GOLDEN_ARGS], sha256: hashes }, null, 2)}\n`);
// the fixture is committed, so it is laid out as the project's formatter wants it (`npm run lint` checks it)
execFileSync('npx', ['biome', 'format', '--write', 'test/fixtures/golden-generate.json'], {
  stdio: 'ignore',
  cwd: new URL('..', import.meta.url),
});
process.stdout.write(`wrote test/fixtures/golden-generate.json\n${JSON.stringify(hashes, null, 2)}\n`);
