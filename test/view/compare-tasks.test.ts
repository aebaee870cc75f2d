import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskPrint } from '../../src/view/task-print.js';
import { runCoveAsync } from '../helpers/cli.js';
import { startView } from '../helpers/view-process.js';

// `cove view <runA> <runB>` pairs tasks by id only when the id names the same task in both runs. Two real runs
// made here: `generate --n 6 --seed 1` twice (the same tasks) and once with `--difficulty hard` (the same ids,
// retail-s1-0 … retail-s1-5, for other tasks). Expected numbers come from the runs' own tasks.json files.

const N = 6;
let root: string;
const run = (name: string) => join(root, name);

interface CompareJson {
  counts: Record<string, number>;
  basis: string;
  note: string | null;
  rows: { taskId: string; status: string; sameTask: boolean | null }[];
}

async function compare(a: string, b: string): Promise<CompareJson> {
  const view = await startView([a, b]);
  try {
    return await view.json<CompareJson>('/api/compare');
  } finally {
    await view.close();
  }
}

interface TaskFile {
  id: string;
  cove: { constraints: { kind: string }[] };
}
const tasksOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'tasks.json'), 'utf8')) as TaskFile[];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cove-compare-tasks-'));
  for (const [name, extra] of [
    ['a', []],
    ['same', []],
    ['hard', ['--difficulty', 'hard']],
  ] as const) {
    const r = await runCoveAsync([
      'generate',
      '--n',
      String(N),
      '--seed',
      '1',
      '--quiet',
      '--out',
      run(name),
      ...extra,
    ]);
    if (r.status !== 0) throw new Error(`cove generate failed: ${r.stderr}`);
  }
}, 300_000);

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe('compare checks that a shared id is the same task', () => {
  it('the runs hold the same ids: in `same` for equal tasks, in `hard` for different ones', () => {
    const a = tasksOf(run('a'));
    expect(tasksOf(run('hard')).map((t) => t.id)).toEqual(a.map((t) => t.id));
    expect(tasksOf(run('same'))).toEqual(a);
    expect(tasksOf(run('hard')).filter((t, i) => JSON.stringify(t) === JSON.stringify(a[i]))).toEqual([]);
  });

  it('two runs of the same tasks: every task paired, all passed (oracle), nothing to warn of', async () => {
    const c = await compare(run('a'), run('same'));
    expect(c.basis).toBe('tasks');
    expect(c.counts).toEqual({ both: N, only_a: 0, only_b: 0, neither: 0, different: 0, missing: 0 });
    expect(c.rows.every((r) => r.sameTask === true)).toBe(true);
    expect(c.note).toBeNull();
  });

  it('same ids over different tasks: not counted as passed by both, and "no task in common" said plainly', async () => {
    const c = await compare(run('a'), run('hard'));
    expect(c.basis).toBe('tasks');
    expect(c.counts).toEqual({ both: 0, only_a: 0, only_b: 0, neither: 0, different: N, missing: 0 });
    expect(c.rows.map((r) => r.sameTask)).toEqual(Array(N).fill(false));
    expect(c.note).toMatch(/^these runs have no task in common: all 6 shared task ids name different tasks/);
  });

  it('bare trajectories files (no tasks.json) are compared by what the records carry', async () => {
    const c = await compare(join(run('a'), 'trajectories.jsonl'), join(run('hard'), 'trajectories.jsonl'));
    expect(c.basis).toBe('records');
    // the records carry each task's constraint kinds (verification): tasks whose kinds differ are told apart
    const hard = tasksOf(run('hard'));
    const kinds = (t: TaskFile | undefined) =>
      [...new Set((t?.cove.constraints ?? []).map((x) => x.kind))].sort().join(',') +
      `/${t?.cove.constraints.length}`;
    const expected = tasksOf(run('a')).map((t, i) => kinds(t) === kinds(hard[i]));
    expect(expected).toContain(false);
    expect(c.rows.map((r) => r.sameTask)).toEqual(expected);
    expect(c.counts.different).toBe(expected.filter((x) => !x).length);
  });
});

describe('taskPrint', () => {
  const task = {
    id: 't1',
    user_scenario: { instructions: 'x' },
    cove: { seed: 1, index: 3, cove_version: '0.1.0' },
  };
  it('does not depend on key order, the cove version or the task position', () => {
    const moved = {
      cove: { cove_version: '9.9.9', index: 0, seed: 1 },
      user_scenario: { instructions: 'x' },
      id: 't1',
    };
    expect(taskPrint(moved)).toBe(taskPrint(task));
  });
  it('differs when the task does', () => {
    expect(taskPrint({ ...task, user_scenario: { instructions: 'y' } })).not.toBe(taskPrint(task));
    expect(taskPrint({ ...task, cove: { ...task.cove, seed: 2 } })).not.toBe(taskPrint(task));
  });
});
