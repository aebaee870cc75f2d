import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import {
  call,
  playOracle,
  referenceRecord,
  startServe,
  startService,
  writeTasksFile,
} from '../helpers/rl-service.js';

const TASKS = 100;
const SEEDS = 5; // 500 episodes, all live at once; the five of a task write the same rows

describe('cove serve at scale: 500 concurrent episodes from one client on 127.0.0.1', () => {
  let files: Awaited<ReturnType<typeof writeTasksFile>>;
  let serve: Awaited<ReturnType<typeof startServe>>;
  beforeAll(async () => {
    files = await writeTasksFile(TASKS);
    serve = await startServe(['--tasks', files.file, '--max-episodes', '600'], {});
  });
  afterAll(() => {
    if (serve.child.exitCode === null) serve.child.kill('SIGTERM');
    files.cleanup();
  });

  it('every episode equals its in-process run (so none saw another’s writes) and every reward matches', async () => {
    const jobs = files.tasks.flatMap((task) =>
      Array.from({ length: SEEDS }, (_, s) => ({ task: task as CoveTask, seed: 1000 + s })),
    );
    // open all 500 first, so that they are live at the same time
    const played = await Promise.all(jobs.map((j) => playOracle(serve.url, j.task, j.seed)));
    const health = await call(`${serve.url}/health`, 'GET');
    expect(health.body.live_episodes).toBe(jobs.length);
    const local = await startService({ tasks: files.file });
    try {
      let mismatches = 0;
      for (const [i, job] of jobs.entries()) {
        const reference: TrajectoryRecord = await referenceRecord(local.service, job.task, job.seed);
        const mine = played[i] as (typeof played)[number];
        if (JSON.stringify(mine.messages) !== JSON.stringify(reference.messages)) mismatches++;
        expect(mine.reward.reward).toBe(reference.evaluation?.reward);
        expect(mine.reward.reward).toBe(1);
      }
      expect(mismatches).toBe(0);
    } finally {
      await local.close();
    }
    // the server still serves, and frees every episode on delete
    await Promise.all(played.map((p) => call(`${serve.url}/episodes/${p.id}`, 'DELETE')));
    expect((await call(`${serve.url}/health`, 'GET')).body.live_episodes).toBe(0);
  });
});
