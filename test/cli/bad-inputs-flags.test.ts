import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BadInputCase, checkBadInput, copyInto } from '../helpers/bad-input.js';
import { type Fixtures, makeFixtures } from '../helpers/bad-input-fixtures.js';
import { runCoveAsync } from '../helpers/cli.js';

/**
 * Flags that are malformed, out of their stated range, or cannot apply: refused with the flag, the limit or the
 * reason, and what to give instead, before any work (nothing written).
 */

const root = mkdtempSync(join(tmpdir(), 'cove-bad-flags-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let fx: Fixtures;
beforeAll(async () => {
  fx = await makeFixtures(join(root, 'fixtures'));
});

const gen =
  (...more: string[]) =>
  () => ['generate', '--out', 'run', ...more];
const tasks =
  (...more: string[]) =>
  () => ['tasks', '--domain', 'retail', '--sandbox-seed', '1', '--out', 't.json', ...more];
const range = (flag: string, value: string, limits: string): BadInputCase => ({
  name: `${flag} ${value}`,
  args: gen(flag, value),
  what: `must be an integer ${limits}`,
  where: flag,
  todo: `not '${value}'`,
});
const model = ['--agent', 'openai:m', '--agent-base-url', 'http://127.0.0.1:9/v1'];

const cases: BadInputCase[] = [
  range('--n', '0', 'from 1 to 50000'),
  range('--n', '1000000000', 'from 1 to 50000'),
  range('--n', 'ten', 'from 1 to 50000'),
  range('--seed', '-1', 'from 0 to 4294967295'),
  range('--seed', '4294967296', 'from 0 to 4294967295'),
  range('--seed', '1.5', 'from 0 to 4294967295'),
  range('--concurrency', '0', 'from 1 to 4096'),
  range('--attempts', '1000', 'from 1 to 100'),
  range('--sandbox-seed', '-3', 'from 0 to 4294967295'),
  range('--max-steps', '0', '≥ 1'),
  {
    name: 'tasks --n 0',
    args: tasks('--n', '0'),
    what: 'must be an integer from 1 to 50000',
    where: '--n',
    todo: "not '0'",
  },
  {
    name: 'tasks --k 0',
    args: tasks('--k', '0'),
    what: 'must be an integer ≥ 1',
    where: '--k',
    todo: "not '0'",
  },
  {
    name: '--fuzz 3',
    args: gen('--fuzz', '3'),
    what: 'must be 0, 1 or 2',
    where: '--fuzz',
    todo: "not '3'",
  },
  {
    name: '--semantics strict',
    args: gen('--semantics', 'strict'),
    what: 'must be parity or fixed',
    where: '--semantics',
    todo: "not 'strict'",
  },
  {
    name: '--text gpt',
    args: gen('--text', 'gpt'),
    what: 'must be cove or tau2',
    where: '--text',
    todo: "not 'gpt'",
  },
  {
    name: '--agent claude',
    args: gen('--agent', 'claude'),
    what: 'must be oracle or openai:<model>',
    where: '--agent',
    todo: "not 'claude'",
  },
  {
    name: '--agent-base-url with the oracle agent',
    args: gen('--agent-base-url', 'http://127.0.0.1:8000/v1'),
    what: 'applies to a model-played agent, but the agent is the oracle',
    where: '--agent-base-url',
    todo: 'add --agent openai:<model>, or drop --agent-base-url',
  },
  {
    name: '--user-base-url with the scripted user',
    args: gen('--user-base-url', 'http://127.0.0.1:8000/v1'),
    what: 'the user is scripted',
    where: '--user-base-url',
    todo: 'add --user openai:<model>',
  },
  {
    name: '--budget-usd with no model role',
    args: gen('--budget-usd', '5'),
    what: 'make no model calls, so there is nothing to budget',
    where: '--budget-usd',
    todo: 'or drop the budget',
  },
  {
    name: '--budget-tokens -1 with a model agent',
    args: gen(...model, '--budget-tokens', '-1'),
    what: 'must be a positive number',
    where: '--budget-tokens',
    todo: "not '-1'",
  },
  {
    name: 'an ftp:// base URL',
    args: gen('--agent', 'openai:m', '--agent-base-url', 'ftp://127.0.0.1/v1'),
    what: 'is not http:// or https://',
    where: 'ftp://127.0.0.1/v1',
    todo: "give the server's OpenAI-compatible URL",
  },
  {
    name: 'config: an unknown role (roles.synth)',
    setup: (dir) => writeFileSync(join(dir, 'c.json'), '{"roles": {"synth": {"model": "openai:m"}}}'),
    args: gen('--config', 'c.json'),
    what: 'plays only the roles agent, user, tool_outputs and judge (no synth role)',
    where: 'c.json: $.roles.synth',
    todo: 'remove roles.synth',
  },
  {
    // `tools` is the synthesis stage that writes tool specs; the tool model's role is `tool_outputs`
    name: 'config: the tool model under the stage name (roles.tools)',
    setup: (dir) => writeFileSync(join(dir, 'c.json'), '{"roles": {"tools": {"model": "openai:m"}}}'),
    args: gen('--config', 'c.json'),
    what: 'the model that plays the tool outputs is the role tool_outputs',
    where: 'c.json: $.roles.tools',
    todo: 'rename roles.tools to roles.tool_outputs',
  },
  {
    name: 'config: a tool model while the database executes the calls (roles.tool_outputs)',
    setup: (dir) => writeFileSync(join(dir, 'c.json'), '{"roles": {"tool_outputs": {"model": "openai:m"}}}'),
    args: gen('--config', 'c.json'),
    what: 'configures the model that plays the tool outputs',
    where: 'c.json: $.roles.tool_outputs',
    todo: 'add --tool-outputs model, or remove roles.tool_outputs',
  },
  {
    name: 'config: a judge for tasks that are not descriptive (roles.judge)',
    setup: (dir) => writeFileSync(join(dir, 'c.json'), '{"roles": {"judge": {"model": "openai:m"}}}'),
    args: gen('--config', 'c.json'),
    what: 'judges descriptive tasks',
    where: 'c.json: $.roles.judge',
    todo: 'drop roles.judge',
  },
  {
    name: '--judge for tasks that are not descriptive',
    args: gen('--judge', 'openai:m'),
    what: 'judges descriptive tasks',
    where: '--judge',
    todo: 'drop --judge',
  },
  {
    name: 'config: an unknown key',
    setup: (dir) => writeFileSync(join(dir, 'c.json'), '{"roles": {}, "budjet": {}}'),
    args: gen('--config', 'c.json'),
    what: /[Uu]nrecognized key/,
    where: 'c.json',
    todo: 'correct',
  },
  {
    name: 'config: a temperature that is text',
    setup: (dir) => writeFileSync(join(dir, 'c.json'), '{"roles": {"agent": {"temperature": "hot"}}}'),
    args: gen('--config', 'c.json'),
    what: 'expected number, got str',
    where: 'c.json: $.roles.agent.temperature',
    todo: 'correct',
  },
  {
    name: 'config: a cost budget without prices',
    setup: (dir) => writeFileSync(join(dir, 'c.json'), '{"budget": {"max_cost_usd": 3}}'),
    args: gen(...model, '--config', 'c.json'),
    what: 'a cost budget needs the price of m',
    where: 'm',
    todo: 'add "prices"',
  },
  {
    name: 'generate --tasks with --k',
    setup: (dir) => copyInto(dir, fx.tasks, 'tasks.json') && undefined,
    args: gen('--tasks', 'tasks.json', '--k', '2'),
    what: 'cannot be used with --tasks',
    where: '--k',
    todo: 'their settings are in each task',
  },
  {
    name: 'generate --tasks with another --semantics',
    setup: (dir) => copyInto(dir, fx.tasks, 'tasks.json') && undefined,
    args: gen('--tasks', 'tasks.json', '--semantics', 'fixed'),
    what: 'were made under parity',
    where: '--semantics fixed',
    todo: 'tasks.json',
  },
  {
    name: 'sandbox: brackets pasted from a usage line',
    args: () => ['sandbox', '--domain', 'retail', '--seed', '1', '[--users', '500]', '--out', 'db.json'],
    what: 'square brackets in the README',
    where: "'[--users'",
    todo: 'type the flag without them',
  },
  {
    name: 'sandbox --users 0',
    args: () => ['sandbox', '--domain', 'retail', '--seed', '1', '--users', '0', '--out', 'db.json'],
    what: 'must be a positive integer',
    where: '--users',
    todo: 'at most',
  },
  {
    name: 'sandbox without --domain',
    args: () => ['sandbox', '--seed', '1', '--out', 'db.json'],
    what: 'cove sandbox needs --domain',
    where: '--domain',
    todo: 'one of: retail',
  },
  {
    name: 'sandbox --domain banking (unknown)',
    args: () => ['sandbox', '--domain', 'banking', '--seed', '1', '--out', 'db.json'],
    what: /banking/,
    where: 'banking',
    todo: /retail/,
  },
  {
    name: 'mock-llm --fault-rate 2',
    args: () => ['mock-llm', '--port', '0', '--fault-rate', '2'],
    what: 'must be between 0 and 1',
    where: '--fault-rate',
    todo: "not '2'",
  },
  {
    name: 'mock-llm --faults lightning',
    args: () => [
      'mock-llm',
      '--port',
      '0',
      '--faults',
      'lightning',
      '--mode',
      'script',
      '--script',
      'x.json',
    ],
    what: "unknown fault 'lightning'",
    where: 'lightning',
    todo: 'known: 429',
  },
  {
    name: 'mock-llm --mode oracle without --tasks',
    args: () => ['mock-llm', '--port', '0'],
    what: 'needs --tasks <file>',
    where: '--mode oracle',
    todo: 'tasks made by cove',
  },
  {
    // a user following the README's "script mode (`--script FILE`)": the script is read, not --tasks asked for
    name: 'mock-llm --script without --mode reads the script',
    args: () => ['mock-llm', '--port', '0', '--script', 'x.json'],
    setup: (dir) => writeFileSync(join(dir, 'x.json'), '{"agent": 5}'),
    what: /agent/,
    where: 'x.json',
    todo: /expected/i,
  },
  {
    name: 'replay --semantics loose',
    args: () => ['replay', '--tasks', 'x.json', '--semantics', 'loose'],
    setup: (dir) => copyInto(dir, fx.tasks, 'x.json') && undefined,
    what: 'must be parity or fixed',
    where: '--semantics',
    todo: "not 'loose'",
  },
  {
    name: 'replay --ids of a task that is not there',
    args: () => ['replay', '--tasks', 'x.json', '--ids', 'nope'],
    setup: (dir) => copyInto(dir, fx.tasks, 'x.json') && undefined,
    what: "no task with id 'nope'",
    where: '--ids',
    todo: 'x.json',
  },
];

describe.concurrent('flags that are malformed, out of range or cannot apply', () => {
  cases.forEach((c, i) => {
    it(c.name, async () => {
      await checkBadInput(root, c, i);
    }, 600_000);
  });

  it('--n larger than a tasks file holds runs them all, with a note', async () => {
    const dir = join(root, 'n-note');
    copyInto(dir, fx.tasks, 'tasks.json');
    const r = await runCoveAsync(
      ['generate', '--tasks', 'tasks.json', '--n', '500', '--out', 'run', '--quiet'],
      {
        cwd: dir,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('note: --n 500, but tasks.json holds 3 task(s): running all 3');
  }, 600_000);
});
