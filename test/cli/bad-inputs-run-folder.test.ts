import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BadInputCase, checkBadInput, copyInto } from '../helpers/bad-input.js';
import { REPO, runCoveAsync } from '../helpers/cli.js';
import { UNPRIVILEGED } from '../helpers/unprivileged.js';

/**
 * Run folders and output paths that cannot take the command: another run's files (also with run.json deleted),
 * damaged or misplaced files, outputs under a file. Each is refused before any work with the file named and
 * what to do, and the folder is left exactly as it was (docs/run-folder.md).
 */

const root = mkdtempSync(join(tmpdir(), 'cove-bad-run-'));
chmodSync(root, 0o755); // the unprivileged cases' CLI must reach their folders
/** Gives folders made read-only their write bit back, so that a test runner that is not root can remove them. */
const writable = (dir: string): void => {
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) if (statSync(join(dir, name)).isDirectory()) writable(join(dir, name));
};
afterAll(() => {
  writable(root);
  rmSync(root, { recursive: true, force: true });
});
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

/** A small real τ² results file (GPT-4.1-mini, Retail). */
const TAU2_RESULTS = join(
  REPO,
  '../shared/tau2/results/retail__gpt-4.1-mini__user-gpt-4.1-mini__1sim__pr170.json',
);
/** Replaces the first byte of the agent's greeting ("Hi!") with 0xff, a byte that is never UTF-8. */
const damageByte = (file: string): void => {
  const bytes = readFileSync(file);
  bytes[bytes.indexOf('Hi!')] = 0xff;
  writeFileSync(file, bytes);
};

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
    name: 'tasks.json of the run nested 1,000 levels deep',
    setup: withRun((run) => writeFileSync(join(run, 'tasks.json'), `${'['.repeat(1000)}${']'.repeat(1000)}`)),
    args: resume(),
    what: 'nest deeper than 100 levels',
    where: 'tasks.json: line 1 column 101',
    todo: 'use another --out',
  },
  {
    name: 'tasks.json of the run with bytes that are not UTF-8',
    setup: withRun((run) => {
      const file = join(run, 'tasks.json');
      const bytes = readFileSync(file);
      bytes[bytes.indexOf('"id"') + 1] = 0xc3; // a lead byte followed by 'd': never UTF-8
      writeFileSync(file, bytes);
    }),
    args: resume(),
    what: 'not valid UTF-8 (byte 0xc3)',
    where: /tasks\.json: byte \d+ \(line \d+\)/,
    todo: 'use another --out',
  },
  {
    name: 'a synthesis checkpoint whose task nests 1,000 levels deep',
    setup: (dir) => {
      mkdirSync(join(dir, 'run'));
      writeFileSync(
        join(dir, 'run', 'tasks.partial.jsonl'),
        `{"run":"${id()}"}\n{"id": ${'['.repeat(1000)}${']'.repeat(1000)}}\n`,
      );
    },
    args: resume(),
    what: 'line 2 nests deeper than 100 levels',
    where: 'tasks.partial.jsonl',
    todo: 'delete',
  },
  {
    name: 'a trajectories.jsonl line longer than 64 MB',
    setup: withRun((run) => {
      appendFileSync(join(run, 'trajectories.jsonl'), `${'x'.repeat(64 * 1024 * 1024 + 1)}\n`);
    }),
    args: resume(),
    what: 'is longer than 64 MB, the most cove reads in one line',
    where: /trajectories\.jsonl: line 3 \(byte \d+\)/,
    todo: 'remove it from the file, or use another folder',
  },
  {
    name: 'export of a trajectories.jsonl holding a byte that is not UTF-8 (refused, not copied into the data)',
    setup: withRun((run) => damageByte(join(run, 'trajectories.jsonl'))),
    args: () => ['export', '--in', 'run', '--format', 'openai', '--out', 'out'],
    what: 'not valid UTF-8 (byte 0xff)',
    where: /trajectories\.jsonl: line 1 \(byte \d+\)/,
    todo: 'remove it',
  },
  {
    name: 'grade of a trajectories.jsonl holding a byte that is not UTF-8',
    setup: withRun((run) => damageByte(join(run, 'trajectories.jsonl'))),
    args: () => ['grade', 'run/trajectories.jsonl'],
    what: 'not valid UTF-8',
    where: /trajectories\.jsonl: line 1 \(byte \d+\)/,
    todo: 'remove it',
  },
  {
    name: 'a τ² results file holding a byte that is not UTF-8, given to export',
    setup: (dir) => {
      copyInto(dir, TAU2_RESULTS, 'results.json');
      damageByte(join(dir, 'results.json'));
    },
    args: () => ['export', '--in', 'results.json', '--format', 'openai', '--out', 'out'],
    what: 'not valid UTF-8 (byte 0xff)',
    where: /results\.json: byte \d+ \(line \d+\)/,
    todo: 'save the file as UTF-8',
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

/**
 * Folders and files this user may not write (EACCES), checked before any work: the CLI runs as an unprivileged
 * user (test/helpers/unprivileged.ts) so that permission bits apply even though the tests run as root.
 */
const readOnly = (path: string) => chmodSync(path, 0o555);
const unprivilegedCases: BadInputCase[] = [
  {
    name: 'resuming a run folder this user may not write',
    setup: withRun((run) => readOnly(run)),
    args: resume(),
    what: 'cannot write in this folder (EACCES)',
    where: /--out \S+\/run: /,
    todo: 'fix its permissions (chmod u+w) or choose another --out',
  },
  {
    name: 'a run folder this user may write, holding a trajectories.jsonl it may not',
    setup: withRun((run) => {
      chmodSync(run, 0o777);
      for (const f of ['run.json', 'db.json', 'tasks.json', 'sft.jsonl', 'summary.json'])
        chmodSync(join(run, f), 0o666);
      chmodSync(join(run, 'trajectories.jsonl'), 0o444);
    }),
    args: resume(),
    what: 'cannot read and write it (EACCES)',
    where: 'trajectories.jsonl',
    todo: 'fix its permissions (chmod u+rw) or choose another --out',
  },
  {
    name: 'generate --out inside a folder this user may not write',
    setup: (dir) => {
      mkdirSync(join(dir, 'ro'));
      readOnly(join(dir, 'ro'));
    },
    args: () => ['generate', '--n', '1', '--out', 'ro/run', '--quiet'],
    what: 'cannot create the folder',
    where: '--out',
    todo: 'give a path whose parents are folders you may write',
  },
  {
    name: 'tasks --out into a folder this user may not write (refused before synthesis)',
    setup: (dir) => {
      mkdirSync(join(dir, 'ro'));
      readOnly(join(dir, 'ro'));
    },
    args: () => ['tasks', '--domain', 'retail', '--sandbox-seed', '1', '--n', '1', '--out', 'ro/t.json'],
    what: 'cannot write in the folder ro (EACCES)',
    where: '--out ro/t.json',
    todo: 'fix its permissions or give another path',
  },
  {
    name: 'sandbox --out into a folder this user may not write',
    setup: (dir) => {
      mkdirSync(join(dir, 'ro'));
      readOnly(join(dir, 'ro'));
    },
    args: () => ['sandbox', '--domain', 'retail', '--seed', '1', '--out', 'ro/db.json'],
    what: 'cannot write in the folder ro (EACCES)',
    where: '--out ro/db.json',
    todo: 'fix its permissions or give another path',
  },
  {
    name: 'export --out, an empty folder this user may not write',
    setup: (dir) => {
      copyInto(dir, RUN, 'run');
      mkdirSync(join(dir, 'ro'));
      readOnly(join(dir, 'ro'));
    },
    args: () => ['export', '--in', 'run', '--format', 'openai', '--out', 'ro'],
    what: 'cannot write in this folder (EACCES)',
    where: '--out ro',
    todo: 'fix its permissions (chmod u+w) or choose another --out',
  },
];
const permissionCases = unprivilegedCases.map((c) => ({ ...c, unprivileged: true }));

describe.concurrent('run folders and output paths that cannot take the command', () => {
  cases.forEach((c, i) => {
    it(c.name, async () => {
      await checkBadInput(root, c, i);
    }, 600_000);
  });

  permissionCases.forEach((c, i) => {
    const skip = 'skip' in UNPRIVILEGED ? UNPRIVILEGED.skip : undefined;
    it.skipIf(skip !== undefined)(
      `${c.name}${skip === undefined ? '' : ` (skipped: ${skip})`}`,
      async () => {
        await checkBadInput(root, c, cases.length + i);
      },
      600_000,
    );
  });

  it('a trajectories.jsonl line with a byte that is not UTF-8: set aside byte for byte, named with its offset, run again', async () => {
    const dir = join(root, 'utf8-line');
    copyInto(dir, RUN, 'run');
    const log = join(dir, 'run', 'trajectories.jsonl');
    const original = readFileSync(log);
    const bytes = Buffer.from(original);
    const at = bytes.indexOf('Hi!'); // the agent's greeting, in the first record
    bytes[at] = 0xff;
    writeFileSync(log, bytes);
    const firstLine = bytes.subarray(0, bytes.indexOf(10) + 1);
    expect(at).toBeLessThan(firstLine.length);
    const r = await runCoveAsync(resume()(), { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`skipped 1 damaged line(s): line 1 (not valid UTF-8 at byte ${at})`);
    expect(r.stderr).toContain('2 episodes (1 new)');
    expect(readFileSync(`${log}.damaged`)).toEqual(firstLine); // the bad byte kept, not replaced
    for (const f of ['trajectories.jsonl', 'sft.jsonl']) {
      const text = readFileSync(join(dir, 'run', f));
      expect(text.includes(0xff), f).toBe(false);
      expect(text.toString('utf8').includes('\ufffd'), f).toBe(false);
    }
    // the episode ran again: the same record as before the damage (apart from wall-clock timing)
    const rerun = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    const before = original
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    const strip = (r: { id: string; timing_ms?: number }) => ({ ...r, timing_ms: 0 });
    expect(rerun.map(strip).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      before.map(strip).sort((a, b) => a.id.localeCompare(b.id)),
    );
  }, 600_000);

  it('the fixture run id is what the identity checks compare', () => {
    expect(id()).toMatch(/^run-[0-9a-f]{12}$/);
  });
});
