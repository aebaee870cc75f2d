import { mkdirSync } from 'node:fs';
import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError } from '../core/errors.js';
import { writeDerived } from '../run/generate.js';
import { runPaths } from '../run/run-folder.js';
import type { RunTask } from '../tasks/task.js';
import type { RunDefinition } from './run-definition.js';
import { RecordStore } from './store.js';

/**
 * `cove runs export`: writes a stored run's folder (`trajectories.jsonl`, `tasks.json`, `sft.jsonl`,
 * `summary.json`) from PostgreSQL. Records are ordered by (task index, trial, attempt), so `sft.jsonl` is
 * byte-identical to the single-process run's; the summary has no do-nothing baseline (it needs the run's DB).
 * @throws {ConfigError} when the store has no such run or cannot be reached.
 */
export async function exportRun(
  storeUrl: string,
  runId: string,
  out: string,
): Promise<{ readonly records: number; readonly sft: number; readonly status: string }> {
  const store = new RecordStore(storeUrl);
  try {
    const run = await store.run(runId);
    if (run === undefined) {
      throw new ConfigError(
        `the store has no run ${runId} (give the id that \`cove generate --queue\` printed)`,
      );
    }
    const definition = JSON.parse(run.definition) as RunDefinition;
    const records = (await store.records(runId)).sort(
      (a, b) => a.task_index - b.task_index || a.trial - b.trial || a.attempt - b.attempt,
    );
    const tasks = run.tasks === null ? [] : (JSON.parse(run.tasks) as RunTask[]);
    mkdirSync(out, { recursive: true });
    const paths = runPaths(out);
    writeFileAtomic(paths.trajectories, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    if (run.tasks !== null) writeFileAtomic(paths.tasksJson, run.tasks);
    const summary = writeDerived(
      { out, runName: definition.run_name, tasks, agentContext: definition.agent_context },
      records,
      0,
    );
    return { records: records.length, sft: summary.sft_trajectories, status: run.status };
  } finally {
    await store.close();
  }
}
