import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type BadInputCase, checkBadInput, copyInto } from '../helpers/bad-input.js';
import { type Fixtures, makeFixtures } from '../helpers/bad-input-fixtures.js';
import { RETAIL_TASKS } from '../helpers/paths.js';

/**
 * Tasks files and DBs that parse as JSON but are wrong: edited by hand, mixed, pointing at the wrong DB. Each is
 * refused before any episode runs, naming the task and the field, instead of running and blaming the agent.
 */

const root = mkdtempSync(join(tmpdir(), 'cove-bad-tasks-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let fx: Fixtures;
beforeAll(async () => {
  fx = await makeFixtures(join(root, 'fixtures'));
});

// biome-ignore lint/suspicious/noExplicitAny: the cases edit parsed JSON by hand
type Mutable = any;
const F = 'input.json';
/** Writes the fixture tasks, edited by `edit`, as `input.json` in the case folder. */
const editedTasks =
  (edit: (tasks: Mutable) => unknown) =>
  (dir: string): void => {
    const tasks: Mutable = JSON.parse(JSON.stringify(fx.tasksValue));
    const result = edit(tasks);
    writeFileSync(join(dir, F), JSON.stringify(result === undefined ? tasks : result, null, 2));
  };
const generate = () => ['generate', '--tasks', F, '--out', 'run'];
const replay = () => ['replay', '--tasks', F];
/** The first task with a gold action taking an order id, and that action's index. */
const orderAction = (tasks: Mutable[]): [number, number] => {
  for (const [i, t] of tasks.entries()) {
    const j = (t.evaluation_criteria.actions as Mutable[]).findIndex((a) => 'order_id' in a.arguments);
    if (j !== -1) return [i, j];
  }
  throw new Error('fixture has no order action');
};

const cases: BadInputCase[] = [
  {
    name: 'tasks: an object instead of a list',
    setup: editedTasks(() => ({ tasks: [] })),
    args: generate,
    what: 'expected a JSON list of tasks',
    where: `${F}: $`,
    todo: 'correct $',
  },
  {
    name: 'tasks: an empty list',
    setup: editedTasks(() => []),
    args: generate,
    what: 'no tasks',
    where: `${F}: $`,
    todo: 'correct $',
  },
  {
    name: 'tasks: a task without an id',
    setup: editedTasks((t) => {
      delete t[1].id;
    }),
    args: generate,
    what: 'missing',
    where: `${F}: $[1].id`,
    todo: 'correct $[1].id',
  },
  {
    name: 'tasks: an id that is a number',
    setup: editedTasks((t) => {
      t[0].id = 5;
    }),
    args: replay,
    what: 'expected string, got int',
    where: `${F}: $[0].id`,
    todo: 'correct',
  },
  {
    name: 'tasks: two tasks with one id',
    setup: editedTasks((t) => {
      t[2].id = t[0].id;
    }),
    args: generate,
    what: "duplicate task id 'retail-s1-0'",
    where: `${F}: $[2].id`,
    todo: 'correct',
  },
  {
    name: 'tasks: an unknown semantics in the cove block',
    setup: editedTasks((t) => {
      t[0].cove.semantics = 'loose';
    }),
    args: generate,
    what: /parity|fixed/,
    where: `${F}: $[0].cove.semantics`,
    todo: 'correct',
  },
  {
    name: 'tasks: an unknown constraint kind (edited by hand)',
    setup: editedTasks((t) => {
      t[1].cove.constraints[0].kind = 'teleport_order';
    }),
    args: generate,
    what: "unknown constraint kind 'teleport_order' (retail knows: cancel_pending_order",
    where: `${F}: $[1].cove.constraints[0].kind: task 'retail-s1-1'`,
    todo: 'make the tasks again with `cove tasks`',
  },
  {
    name: 'replay: the same unknown constraint kind',
    setup: editedTasks((t) => {
      t[2].cove.constraints[0].kind = 'teleport_order';
    }),
    args: replay,
    what: "unknown constraint kind 'teleport_order'",
    where: `${F}: $[2].cove.constraints[0].kind`,
    todo: 'make the tasks again',
  },
  {
    name: 'tasks: a gold action on an order the DB does not have',
    setup: editedTasks((t) => {
      const [i, j] = orderAction(t);
      t[i].evaluation_criteria.actions[j].arguments.order_id = '#W0000000';
    }),
    args: generate,
    what: "fails on the tasks' DB (Error: Order not found)",
    where: /\$\[\d\]\.evaluation_criteria\.actions\[\d\]: task 'retail-s1-\d'/,
    todo: 'fix the task, or make the tasks again',
  },
  {
    name: 'tasks: a gold action calling a tool that does not exist',
    setup: editedTasks((t) => {
      t[0].evaluation_criteria.actions.push({
        action_id: 'x',
        requestor: 'assistant',
        name: 'teleport',
        arguments: {},
        info: null,
        compare_args: null,
      });
    }),
    args: generate,
    what: "gold action teleport fails on the tasks' DB (Error: Tool 'teleport' not found.)",
    where: `${F}: $[0].evaluation_criteria.actions[`,
    todo: 'make the tasks again',
  },
  {
    name: 'tasks: gold arguments that are a list',
    setup: editedTasks((t) => {
      const [i, j] = orderAction(t);
      t[i].evaluation_criteria.actions[j].arguments = ['#W1'];
    }),
    args: generate,
    what: 'expected an object',
    where: /\$\[\d\]\.evaluation_criteria\.actions\[\d\]\.arguments/,
    todo: 'correct',
  },
  {
    name: 'tasks: one task names another DB (its hash edited)',
    setup: editedTasks((t) => {
      t[1].cove.db.canonical_sha256 = '0'.repeat(64);
    }),
    args: generate,
    what: "task 'retail-s1-1' names another DB than task 0",
    where: `${F}: $[1].cove.db`,
    todo: 'fix the task or split the file',
  },
  {
    name: 'tasks: one task under the other semantics',
    setup: editedTasks((t) => {
      t[2].cove.semantics = 'fixed';
    }),
    args: generate,
    what: "task 'retail-s1-2' is fixed, task 0 parity",
    where: `${F}: $[2].cove.semantics`,
    todo: 'split the file',
  },
  {
    name: 'tasks: every task made on another sandbox seed (hash mismatch)',
    setup: editedTasks((t) => {
      for (const task of t) task.cove.db.sandbox.seed = 2;
    }),
    args: generate,
    what: 'is not the DB the tasks in input.json were made from',
    where: 'the sandbox (seed 2)',
    todo: 'pass the DB they were made from with --db',
  },
  {
    name: 'tasks: run with --db of another DB',
    setup: (dir) => {
      copyInto(dir, fx.tasks, F);
      copyInto(dir, fx.db, 'other-db.json');
    },
    args: () => ['generate', '--tasks', F, '--db', 'other-db.json', '--out', 'run'],
    what: 'is not the DB the tasks in input.json were made from',
    where: 'other-db.json',
    todo: 'pass the DB they were made from with --db',
  },
  {
    name: 'tasks: the DB file they name is gone',
    setup: editedTasks((t) => {
      for (const task of t)
        task.cove.db = { path: 'gone/db.json', canonical_sha256: 'a'.repeat(64), benchmark: false };
    }),
    args: generate,
    what: 'its tasks were made from the DB gone/db.json',
    where: F,
    todo: 'pass it with --db',
  },
  {
    name: 'tasks: two domains in one file',
    setup: editedTasks((t) => {
      t[1].cove.domain = 'airline';
    }),
    args: generate,
    what: 'the tasks belong to retail and airline',
    where: F,
    todo: 'split the file',
  },
  {
    name: "tasks: τ²'s own tasks with the oracle agent",
    setup: (dir) => copyInto(dir, RETAIL_TASKS, F) && undefined,
    args: generate,
    what: "holds τ²'s own tasks (no cove block)",
    where: F,
    todo: 'run τ² tasks with --agent openai:<model> and --user openai:<model>',
  },
  {
    name: "mock-llm --tasks: τ²'s own tasks",
    setup: (dir) => copyInto(dir, RETAIL_TASKS, F) && undefined,
    args: () => ['mock-llm', '--port', '0', '--tasks', F],
    what: 'has no "cove" block',
    where: `${F}: $[0]`,
    todo: 'replay them with `cove replay`',
  },
  {
    name: 'db: a list instead of an object (--domain given)',
    setup: (dir) => writeFileSync(join(dir, F), '[]'),
    args: () => ['generate', '--domain', 'retail', '--db', F, '--out', 'run'],
    what: /expected/,
    where: `${F}: $`,
    todo: 'correct',
  },
  {
    name: 'db: an object without the collections (--domain given)',
    setup: (dir) => writeFileSync(join(dir, F), '{}'),
    args: () => ['tasks', '--domain', 'retail', '--db', F, '--n', '1', '--out', 'out.json'],
    what: 'missing',
    where: `${F}: $.products`,
    todo: 'correct $.products',
  },
  {
    name: 'db: products of the wrong type',
    setup: (dir) => writeFileSync(join(dir, F), '{"products": [], "users": {}, "orders": {}}'),
    args: () => ['generate', '--db', F, '--out', 'run'],
    what: /expected/,
    where: `${F}: $.products`,
    todo: 'correct',
  },
  {
    name: "replay: a τ² data folder whose db.json is not τ²'s",
    setup: (dir) => {
      mkdirSync(join(dir, 'tau2', 'retail'), { recursive: true });
      copyInto(dir, fx.db, 'tau2/retail/db.json');
      copyInto(dir, RETAIL_TASKS, F);
    },
    args: () => ['replay', '--tasks', F, '--tau2-data', 'tau2', '--ids', '0'],
    what: "this is not τ²'s pristine retail DB",
    where: 'tau2/retail/db.json',
    todo: 'use --db for other databases',
  },
];

describe.concurrent('tasks files and DBs that parse but are wrong', () => {
  cases.forEach((c, i) => {
    it(c.name, async () => {
      await checkBadInput(root, c, i);
    }, 600_000);
  });
});
