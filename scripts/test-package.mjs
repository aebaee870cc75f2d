// `npm run test:package`: packs cove, installs the tarball into a fresh project (reusing the local npm cache),
// imports it from a TypeScript file and runs 5 oracle episodes through the public API, then runs the packed CLI
// (generate, --version, and `cove view` on the run it made: its page and one API answer).
// Prints a plain `N passed, N failed` line and exits non-zero on any failure.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'cove-package-'));
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env },
  });
let passed = 0;
let failed = 0;
const check = (name, fn) => {
  try {
    fn();
    passed++;
    process.stdout.write(`ok   ${name}\n`);
  } catch (e) {
    failed++;
    process.stdout.write(`FAIL ${name}: ${e.message}\n`);
  }
};
const checkAsync = async (name, fn) => {
  try {
    await fn();
    passed++;
    process.stdout.write(`ok   ${name}\n`);
  } catch (e) {
    failed++;
    process.stdout.write(`FAIL ${name}: ${e.message}\n`);
  }
};

// Starts `cove view run --port 0`, reads the address it prints, fetches `/` and `/api/overview?wait=1`, stops it.
async function checkView(cove, cwd) {
  const child = spawn(cove, ['view', 'run', '--port', '0'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/^(http:\/\/\S+?)\/?\n/m);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`cove view exited (${code}): ${stderr.trim()}`)));
      setTimeout(() => reject(new Error(`no address printed in 60 s: ${stderr.trim()}`)), 60_000).unref();
    });
    const page = await fetch(`${url}/`);
    const html = await page.text();
    if (page.status !== 200 || !html.includes('<div id="app">') || !html.includes('/assets/app.js'))
      throw new Error(`/ answered ${page.status}: ${html.slice(0, 200)}`);
    const js = await fetch(`${url}/assets/app.js`);
    if (js.status !== 200) throw new Error(`/assets/app.js answered ${js.status}`);
    const overview = await fetch(`${url}/api/overview?wait=1`);
    const body = await overview.json();
    // the run made above has 5 episodes
    if (overview.status !== 200 || body.episodes !== 5)
      throw new Error(`/api/overview answered ${overview.status}: ${JSON.stringify(body).slice(0, 300)}`);
  } finally {
    child.kill('SIGTERM');
  }
}

try {
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], repo))[0];
  const tarball = join(work, packed.filename);
  process.stdout.write(`packed ${packed.filename} (${packed.entryCount} files)\n`);
  const project = join(work, 'project');
  execFileSync('mkdir', [project]);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'uses-cove', private: true, type: 'module' }),
  );
  const tsx = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).devDependencies.tsx;
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, `tsx@${tsx}`], project);
  // the README's example, run against the packed package
  writeFileSync(
    join(project, 'episodes.ts'),
    readFileSync(join(repo, 'examples', 'use-from-typescript.ts'), 'utf8'),
  );
  check('import { … } from "cove" runs 5 oracle episodes from a TypeScript file', () => {
    const out = JSON.parse(
      run(process.execPath, ['--import', 'tsx', 'episodes.ts'], project).trim().split('\n').pop(),
    );
    if (out.episodes !== 5 || out.passed !== 5 || out.testing !== 'library')
      throw new Error(JSON.stringify(out));
  });
  check('the packed CLI runs generate --n 5', () => {
    execFileSync(
      join(project, 'node_modules', '.bin', 'cove'),
      ['generate', '--n', '5', '--quiet', '--out', 'run'],
      {
        cwd: project,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const lines = readFileSync(join(project, 'run', 'sft.jsonl'), 'utf8')
      .trim()
      .split('\n');
    if (lines.length !== 5) throw new Error(`sft.jsonl has ${lines.length} lines, expected 5`);
  });
  check('cove --version answers the package version', () => {
    const v = run(join(project, 'node_modules', '.bin', 'cove'), ['--version'], project).trim();
    if (v !== packed.version) throw new Error(`${v} ≠ ${packed.version}`);
  });
  await checkAsync('the packed CLI serves `cove view` on that run: the page and /api/overview', () =>
    checkView(join(project, 'node_modules', '.bin', 'cove'), project),
  );
} catch (e) {
  failed++;
  process.stdout.write(`FAIL packing or installing: ${e.message}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
