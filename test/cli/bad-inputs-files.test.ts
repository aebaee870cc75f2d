import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type BadInputCase, checkBadInput } from '../helpers/bad-input.js';
import { type Fixtures, makeFixtures } from '../helpers/bad-input-fixtures.js';

/**
 * Malformed input files, for every command and every kind of file it reads (tasks, DB, config, mock-llm tasks and
 * script): each is refused with exit 2 and one line saying what is wrong, where and what to do, with nothing
 * written. The reader behind them all is src/io/read-input.ts.
 */

const root = mkdtempSync(join(tmpdir(), 'cove-bad-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let fx: Fixtures;
beforeAll(async () => {
  fx = await makeFixtures(join(root, 'fixtures'));
});

/** A command reading one input file `F` (relative to the case folder). */
interface Target {
  readonly name: string;
  readonly args: (file: string) => string[];
  /** The valid fixture the damage starts from. */
  readonly valid: () => string;
}

const TARGETS: readonly Target[] = [
  {
    name: 'generate --tasks',
    args: (f) => ['generate', '--tasks', f, '--out', 'run'],
    valid: () => fx.tasks,
  },
  { name: 'generate --db', args: (f) => ['generate', '--db', f, '--out', 'run'], valid: () => fx.db },
  {
    name: 'tasks --db',
    args: (f) => ['tasks', '--domain', 'retail', '--db', f, '--n', '2', '--out', 'out.json'],
    valid: () => fx.db,
  },
  { name: 'replay --tasks', args: (f) => ['replay', '--tasks', f], valid: () => fx.tasks },
  { name: 'mock-llm --tasks', args: (f) => ['mock-llm', '--port', '0', '--tasks', f], valid: () => fx.tasks },
  {
    name: 'mock-llm --script',
    args: (f) => ['mock-llm', '--port', '0', '--mode', 'script', '--script', f],
    valid: () => fx.script,
  },
  {
    name: 'generate --config',
    args: (f) => ['generate', '--config', f, '--n', '1', '--out', 'run'],
    valid: () => fx.config,
  },
];

/** One kind of damage: how to make the file `input.json` in the case folder, and what the message says. */
interface Damage {
  readonly name: string;
  readonly make: (dir: string, valid: string) => void;
  readonly what: string | RegExp;
  readonly where: string | RegExp;
  readonly todo: string | RegExp;
}

const F = 'input.json';
const DAMAGES: readonly Damage[] = [
  {
    name: 'a file that is not there',
    make: () => {},
    what: 'no such file',
    where: F,
    todo: 'check the path',
  },
  {
    name: 'a folder',
    make: (dir) => mkdirSync(join(dir, F)),
    what: 'is a folder, not a file',
    where: F,
    todo: "give the file's path",
  },
  {
    name: 'an empty file',
    make: (dir) => writeFileSync(join(dir, F), ''),
    what: 'not valid JSON: Expecting value',
    where: `${F}: line 1 column 1`,
    todo: 'fix the file',
  },
  {
    name: 'invalid UTF-8 inside a string',
    make: (dir, valid) => {
      const bytes = readFileSync(valid);
      const at = bytes.indexOf(0x22, 20) + 1; // just inside the first string after the start
      writeFileSync(
        join(dir, F),
        Buffer.concat([bytes.subarray(0, at), Buffer.from([0xc3, 0x28]), bytes.subarray(at)]),
      );
    },
    what: 'not valid UTF-8 (byte 0xc3)',
    where: /input\.json: byte \d+ \(line \d+\)/,
    todo: 'save the file as UTF-8',
  },
  {
    name: 'nesting 100 000 levels deep',
    make: (dir) => writeFileSync(join(dir, F), `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
    what: 'nest deeper than 100 levels',
    where: `${F}: line 1 column 101`,
    todo: 'give a file written by cove or τ²',
  },
  {
    name: 'cut off in the middle (a torn copy)',
    make: (dir, valid) => {
      const text = readFileSync(valid, 'utf8');
      writeFileSync(join(dir, F), text.slice(0, Math.floor(text.length / 2)));
    },
    what: 'not valid JSON',
    where: /input\.json: line \d+ column \d+/,
    todo: 'fix the file or make it again',
  },
  {
    name: 'larger than 256 MB (sparse)',
    make: (dir) => {
      writeFileSync(join(dir, F), '[');
      truncateSync(join(dir, F), 300 * 1024 * 1024);
    },
    what: 'is 300 MB; cove reads input files of at most 256 MB',
    where: F,
    todo: 'split it',
  },
];

const cases: BadInputCase[] = TARGETS.flatMap((t) =>
  DAMAGES.map((d) => ({
    name: `${t.name}: ${d.name}`,
    setup: (dir: string) => d.make(dir, t.valid()),
    args: () => t.args(F),
    what: d.what,
    where: d.where,
    todo: d.todo,
  })),
);

describe.concurrent('bad input files: every command, every file kind', () => {
  cases.forEach((c, i) => {
    it(c.name, async () => {
      await checkBadInput(root, c, i);
    }, 600_000);
  });
});
