import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BadInputCase, checkBadInput, copyInto } from '../helpers/bad-input.js';
import { runCoveAsync } from '../helpers/cli.js';

/**
 * Run folders and output paths that cannot take the command: another run's files (also with run.json deleted),
 * damaged or misplaced files, outputs under a file. Each is refused before any work with the file named and
 * what to do, and the folder is left exactly as it was (docs/run-folder.md).
 */

const root = mkdtempSync(join(tmpdir(), 'cove-bad-run-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** A finished 2-task run (seed 1) to copy. */
const RUN = join(root, 'fixture-run');
beforeAll(async () => {
  const r = await runCoveAsync(['generate', '--n', '2', '--out', RUN, '--quiet']);
  expect(r.status, r.stderr).toBe(0);
}, 600_000);

const resume =
  (...more: string[]) =>
  () => ['generate', '--n', '2', '--out', 'run', '--quiet', ...more];
const withRun =
  (edit: (run: string) => void = () => {}) =>
  (dir: string): void => {
    edit(copyInto(dir, RUN, 'run'));
  };
const id = () => (JSON.parse(readFileSync(join(RUN, 'summary.json'), 'utf8')) as { run: string }).run;

const cases: BadInputCase[] = [
  {
    name: 'another seed on a finished run: the differing settings are named',
    setup: withRun(),
    args: resume('--seed', '2'),
    what: 'holds a different run (source "sandbox:1" → "sandbox:2", seed 1 → 2)',
    where: 'run',
    todo: 'use another --out, or the same settings to resume it',
  },
  {
    name: 'run.json deleted, another seed: trajectories.jsonl still tells',
    setup: withRun((run) => rmSync(join(run, 'run.json'))),
    args: resume('--seed', '2'),
    what: /trajectories\.jsonl belongs to run-[0-9a-f]{12}, and this command is run-/,
    where: 'holds another run',
    todo: 'use another --out',
  },
  {
    name: 'run.json, tasks.json and db.json deleted, another seed',
    setup: withRun((run) => {
      for (const f of ['run.json', 'tasks.json', 'db.json']) rmSync(join(run, f));
    }),
    args: resume('--seed', '2'),
    what: 'trajectories.jsonl belongs to',
    where: 'holds another run',
    todo: 'use another --out',
  },
  {
    name: 'only summary.json of another run is left',
    setup: withRun((run) => {
      for (const f of ['run.json', 'tasks.json', 'db.json', 'trajectories.jsonl', 'sft.jsonl'])
        rmSync(join(run, f));
    }),
    args: resume('--seed', '3'),
    what: 'summary.json belongs to',
    where: 'holds another run',
    todo: 'use another --out',
  },
  {
    name: 'a synthesis checkpoint of another run',
    setup: (dir) => {
      mkdirSync(join(dir, 'run'));
      writeFileSync(join(dir, 'run', 'tasks.partial.jsonl'), '{"run":"run-000000000000"}\n');
    },
    args: resume(),
    what: 'tasks.partial.jsonl belongs to run-000000000000',
    where: 'holds another run',
    todo: 'use another --out',
  },
  {
    name: 'run.json that is not JSON',
    setup: withRun((run) => writeFileSync(join(run, 'run.json'), '{"command": [')),
    args: resume(),
    what: 'not valid JSON',
    where: 'run.json: line 1',
    todo: 'use another --out (or restore run.json)',
  },
  {
    name: 'run.json without its settings',
    setup: withRun((run) => writeFileSync(join(run, 'run.json'), '{"command": []}')),
    args: resume(),
    what: 'missing',
    where: 'run.json: $.fingerprint',
    todo: 'use another --out (or restore run.json)',
  },
  {
    name: 'run.json with invalid UTF-8',
    setup: withRun((run) => writeFileSync(join(run, 'run.json'), Buffer.from([0x7b, 0xff, 0x7d]))),
    args: resume(),
    what: 'not valid UTF-8',
    where: 'run.json: byte 1',
    todo: 'use another --out',
  },
  {
    name: 'trajectories.jsonl is a folder',
    setup: withRun((run) => {
      rmSync(join(run, 'trajectories.jsonl'));
      mkdirSync(join(run, 'trajectories.jsonl'));
    }),
    args: resume(),
    what: 'is not a regular file',
    where: 'trajectories.jsonl',
    todo: 'move it away or choose another --out',
  },
  {
    name: 'summary.json is a folder',
    setup: withRun((run) => {
      rmSync(join(run, 'summary.json'));
      mkdirSync(join(run, 'summary.json'));
    }),
    args: resume(),
    what: 'is not a regular file',
    where: 'summary.json',
    todo: 'move it away',
  },
  {
    name: 'tasks.json of the run damaged by hand',
    setup: withRun((run) => writeFileSync(join(run, 'tasks.json'), '[{"id": ')),
    args: resume(),
    what: 'not valid JSON',
    where: 'tasks.json',
    todo: 'use another --out',
  },
  {
    name: 'tasks.json of the run with a task of another seed',
    setup: withRun((run) => {
      const tasks = JSON.parse(readFileSync(join(run, 'tasks.json'), 'utf8')) as { cove: { seed: number } }[];
      (tasks[1] as { cove: { seed: number } }).cove.seed = 9;
      writeFileSync(join(run, 'tasks.json'), JSON.stringify(tasks));
    }),
    args: resume(),
    what: 'task 1 in tasks.json or tasks.partial.jsonl is not task 1 of this run',
    where: 'run',
    todo: 'use another --out',
  },
  {
    name: 'generate --out is a file',
    setup: (dir) => writeFileSync(join(dir, 'run'), 'x'),
    args: resume(),
    what: 'exists and is not a folder',
    where: '--out',
    todo: 'give a folder path',
  },
  {
    name: 'generate --out under a file',
    setup: (dir) => writeFileSync(join(dir, 'f'), 'x'),
    args: () => ['generate', '--n', '1', '--out', 'f/run'],
    what: 'cannot create the folder',
    where: '--out',
    todo: 'give a path whose parents are folders',
  },
  {
    name: 'tasks --out under a file',
    setup: (dir) => writeFileSync(join(dir, 'f'), 'x'),
    args: () => ['tasks', '--domain', 'retail', '--sandbox-seed', '1', '--n', '1', '--out', 'f/t.json'],
    what: 'f exists and is not a folder',
    where: '--out',
    todo: 'give a folder path',
  },
  {
    name: 'tasks --out whose report path is a folder',
    setup: (dir) => mkdirSync(join(dir, 't.report.json')),
    args: () => ['tasks', '--domain', 'retail', '--sandbox-seed', '1', '--n', '1', '--out', 't.json'],
    what: 'is a folder',
    where: '--out (its report)',
    todo: 'give a file name',
  },
  {
    name: 'sandbox --out is a folder',
    setup: (dir) => mkdirSync(join(dir, 'db')),
    args: () => ['sandbox', '--domain', 'retail', '--seed', '1', '--out', 'db'],
    what: 'is a folder',
    where: '--out db',
    todo: 'give a file name',
  },
];

describe.concurrent('run folders and output paths that cannot take the command', () => {
  cases.forEach((c, i) => {
    it(c.name, async () => {
      await checkBadInput(root, c, i);
    }, 600_000);
  });

  it.skipIf(process.getuid?.() === 0)(
    'a run folder this user may not write (EACCES)',
    async () => {
      const dir = join(root, 'read-only');
      copyInto(dir, RUN, 'run');
      const { chmodSync } = await import('node:fs');
      chmodSync(join(dir, 'run'), 0o555);
      const r = await runCoveAsync(resume()(), { cwd: dir });
      chmodSync(join(dir, 'run'), 0o755);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('cannot write in this folder (EACCES); fix its permissions');
    },
    600_000,
  );

  it('the fixture run id is what the identity checks compare', () => {
    expect(id()).toMatch(/^run-[0-9a-f]{12}$/);
  });
});
