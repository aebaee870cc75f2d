import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { REPO } from '../helpers/cli.js';
import {
  playOracle,
  referenceRecord,
  startServe,
  startService,
  writeTasksFile,
} from '../helpers/rl-service.js';

const EXAMPLES = join(REPO, 'examples');
const TOKEN = 'python-test-token';

function python(script: string, args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync('python3', ['-c', script, ...args], {
    cwd: REPO,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

const SCORE = `
import json, sys
sys.path.insert(0, "examples")
from verl_compute_score import compute_score
task_id, path = sys.argv[1], sys.argv[2]
msgs = json.load(open(path))
print(json.dumps([
    compute_score("cove", "", task_id, {"messages": msgs}),
    compute_score("cove", "", json.dumps({"task_id": task_id}), {"messages": msgs[:-1]}),
]))
`;

describe('cove serve as a process: the Python adapters and --record', () => {
  let files: Awaited<ReturnType<typeof writeTasksFile>>;
  let serve: Awaited<ReturnType<typeof startServe>>;
  /** The first task's episode with seed 3, run in process by generate's own runner. */
  let reference: TrajectoryRecord;
  const runDir = () => join(files.dir, 'run');
  beforeAll(async () => {
    files = await writeTasksFile(2);
    const local = await startService({ tasks: files.file });
    reference = await referenceRecord(local.service, files.tasks[0] as CoveTask, 3);
    await local.close();
    serve = await startServe(
      ['--tasks', files.file, '--token-env', 'COVE_TEST_TOKEN', '--record', join(files.dir, 'run')],
      {
        COVE_TEST_TOKEN: TOKEN,
      },
    );
  });
  afterAll(() => {
    if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    files.cleanup();
  });

  it('verl compute_score (python3, standard library) gets the in-process evaluator’s reward over HTTP', async () => {
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const task = files.tasks[0] as CoveTask;
    const played = await playOracle(serve.url, task, 3, { authorization: `Bearer ${TOKEN}` });
    expect(played.reward.reward).toBe(1);
    const path = join(files.dir, 'messages.json');
    writeFileSync(path, JSON.stringify(reference.messages));
    const r = python(SCORE, [task.id, path], { COVE_URL: serve.url, COVE_TOKEN: TOKEN });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const [full, open] = JSON.parse(r.stdout) as { score: number; tool_output_differences: number }[];
    expect(full).toEqual({ score: 1, not_evaluated: 0, unreadable: 0, tool_output_differences: 0 });
    expect(open?.score).toBe(0); // no user stop: the termination gate
    const denied = python(SCORE, [task.id, path], { COVE_URL: serve.url, COVE_TOKEN: 'wrong' });
    expect(denied.status).not.toBe(0);
    expect(denied.stderr).toMatch(/cove serve answered 401: wrong bearer token/);
  });

  it('the other examples byte-compile', () => {
    const scripts = readdirSync(EXAMPLES).filter((f) => f.endsWith('.py'));
    expect(scripts).toEqual(
      expect.arrayContaining([
        'cove_client.py',
        'verl_agent_loop.py',
        'verl_compute_score.py',
        'make_rl_dataset.py',
      ]),
    );
    const check = `import ast, sys\nfor p in sys.argv[1:]:\n    compile(open(p).read(), p, "exec")\nprint("ok")`;
    const r = python(
      check,
      scripts.map((s) => join(EXAMPLES, s)),
      {},
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('ok');
  });

  it('--record: finished episodes land in a run folder in generate’s format; derived files at shutdown', async () => {
    serve.child.kill('SIGTERM');
    await new Promise<void>((done) => serve.child.once('exit', () => done()));
    const lines = readFileSync(join(runDir(), 'trajectories.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(Object.keys(record).sort()).toEqual(Object.keys(reference).sort());
    expect(record.messages).toEqual(reference.messages);
    expect(record.agent).toBe('external');
    expect(record.user).toBe('scripted');
    expect(record.evaluation).toEqual(reference.evaluation);
    expect(record.verification).toEqual(reference.verification);
    for (const f of ['run.json', 'tasks.json', 'db.json', 'sft.jsonl', 'summary.json'])
      expect(existsSync(join(runDir(), f)), f).toBe(true);
    expect(readFileSync(join(runDir(), 'sft.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(runDir(), 'summary.json'), 'utf8')).episodes).toBe(1);
    expect(existsSync(join(runDir(), 'run.lock'))).toBe(false);
  });
});
