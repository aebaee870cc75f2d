import { isUtf8 } from 'node:buffer';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, InputFileError } from '../core/errors.js';
import { JsonSyntaxError, parsePyJson } from '../core/py-json-parse.js';
import { type PyValue, toPyValue } from '../core/py-value.js';
import { loadDbFile, readJsonFile } from '../domains/load-db.js';
import { getDomain } from '../domains/registry.js';
import { firstInvalidUtf8, MAX_JSON_DEPTH } from '../io/read-input.js';
import { jsonNestingExceeds, readJsonlLines } from '../io/read-jsonl.js';
import type { TrajectoryRecord } from '../run/trajectory.js';
import type { RunTask } from '../tasks/task.js';
import { resolveTau2DomainDir } from '../tau2/data-dir.js';
import { type GradedFile, type GradeFileOptions, gradeSummary } from './grade-file.js';
import { criteriaTasks, gradeSimulation } from './grade-tau2.js';
import { tau2RewardInfo } from './reward-info.js';
import { pyGet, type RecordedCall, type Tau2SimView } from './tau2-sim.js';

/** The tool calls of a record's OpenAI-shaped messages, each with its tool message, arguments read losslessly. */
function recordCalls(r: TrajectoryRecord): RecordedCall[] {
  const answers = new Map<string, string>();
  for (const m of r.messages) if (m.role === 'tool') answers.set(m.tool_call_id, m.content);
  const calls: RecordedCall[] = [];
  for (const m of r.messages) {
    if (m.role !== 'assistant' || m.tool_calls === undefined) continue;
    for (const c of m.tool_calls) {
      let args: PyValue;
      try {
        args = parsePyJson(c.function.arguments);
      } catch (e) {
        if (!(e instanceof JsonSyntaxError)) throw e;
        args = c.function.arguments;
      }
      const content = answers.get(c.id) ?? '';
      calls.push({
        name: c.function.name,
        arguments: args,
        content,
        error: content.startsWith('Error: '),
        requestor: 'assistant',
      });
    }
  }
  return calls;
}

/**
 * Re-grades the τ²-graded records of a cove `trajectories.jsonl` (from `cove eval`, or `cove generate --tasks`
 * with τ²'s tasks) the way `gradeResultsFile` re-grades a results file; the recorded reward is the one written at
 * generation time (`evaluation.reward`). The tasks come from the folder's `tasks.json` (generate) or
 * `results.json` (eval). Records graded by CoVe's verifier are counted in `skipped`, not re-graded.
 * @throws {InputFileError} for a line that is not JSON (other than a torn last line) or a missing task;
 *   {@link ConfigError} when the folder has no tasks or no τ² data directory is found.
 */
export function gradeTrajectoriesFile(
  file: string,
  options: GradeFileOptions = {},
): GradedFile & { skipped: number } {
  const byId = new Map<string, TrajectoryRecord>();
  // a line at a time, with the input checks (UTF-8, depth, a bound per line); bytes after the last newline are a
  // torn last line, ignored as generate treats it
  readJsonlLines(file, ({ line, offset, bytes }) => {
    if (!isUtf8(bytes)) {
      const at = offset + firstInvalidUtf8(bytes);
      throw new InputFileError(
        file,
        `line ${line} (byte ${at})`,
        'not valid UTF-8; the line is damaged: remove it',
      );
    }
    const text = bytes.toString('utf8');
    if (text.trim() === '') return;
    if (jsonNestingExceeds(text)) {
      throw new InputFileError(
        file,
        `line ${line}`,
        `nests deeper than ${MAX_JSON_DEPTH} levels; the line is damaged`,
      );
    }
    try {
      const r = JSON.parse(text) as TrajectoryRecord;
      byId.set(r.id, r);
    } catch (e) {
      throw new InputFileError(file, `line ${line}`, `not JSON (${(e as Error).message})`);
    }
  });
  const records = [...byId.values()];
  const first = records[0];
  if (first === undefined) throw new InputFileError(file, '$', 'no trajectory records');
  const domain = getDomain(first.domain);
  const folder = dirname(file);
  const tasksFile = [join(folder, 'tasks.json'), join(folder, 'results.json')].find(existsSync);
  if (tasksFile === undefined) {
    throw new ConfigError(
      `${folder} has neither tasks.json nor results.json: cannot tell the tasks of ${file}`,
    );
  }
  const raw = readJsonFile(tasksFile);
  const taskList = Array.isArray(raw) ? raw : (pyGet(raw, 'tasks') ?? []);
  const tasks = criteriaTasks(taskList);
  const plainTasks = new Map(
    (Array.isArray(taskList) ? taskList : []).map((t) => [
      String(pyGet(t, 'id')),
      JSON.parse(
        JSON.stringify(t, (_k, v) =>
          typeof v === 'bigint' ? Number(v) : v instanceof Map ? Object.fromEntries(v) : v,
        ),
      ) as RunTask,
    ]),
  );
  const dir = resolveTau2DomainDir(domain.name, {
    explicit: options.tau2Data,
    fromEnv: options.env,
    tasksFile: file,
  });
  const loaded = loadDbFile(domain, join(dir, 'db.json'), { expectTau2Pristine: true });
  const ctx = {
    base: loaded.base,
    tasks: new Map(tasks.map((t) => [t.id, t])),
    reference: criteriaTasks(readJsonFile(join(dir, 'tasks.json'))),
    gitCommit: `cove-${first.cove_version}`,
    goldHashes: new Map<string, string>(),
  };
  let skipped = 0;
  const grades = records.flatMap((r, index) => {
    const task = plainTasks.get(r.task_id);
    if (task === undefined)
      throw new InputFileError(file, `record ${r.id}`, `task '${r.task_id}' is not in ${tasksFile}`);
    if (r.evaluation?.evaluator !== 'tau2') {
      skipped++;
      return [];
    }
    const view: Tau2SimView = {
      index,
      id: r.id,
      taskId: r.task_id,
      termination: r.termination_reason,
      trial: r.trial,
      calls: recordCalls(r),
      agentTexts: r.messages.flatMap((m) =>
        m.role === 'assistant' && typeof m.content === 'string' ? [m.content] : [],
      ),
      transcript: r.messages.map((m) => ({ role: m.role, content: m.content })),
      rewardInfo: toPyValue(tau2RewardInfo(r, task)) as Map<string, PyValue>,
    };
    return [gradeSimulation(view, ctx)];
  });
  loaded.base.close();
  return {
    file,
    domain: domain.name,
    gitCommit: ctx.gitCommit,
    skipped,
    summary: gradeSummary(grades),
    divergences: grades.flatMap((g) => (g.divergence === null ? [] : [g.divergence])),
    grades,
  };
}
