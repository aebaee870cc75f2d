import { closeSync, existsSync, fsyncSync, openSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { ConfigError } from '../core/errors.js';
import { MAX_JSON_DEPTH, readInputText, readPlainJson } from '../io/read-input.js';
import { jsonNestingExceeds } from '../io/read-jsonl.js';
import type { RunTask } from '../tasks/task.js';
import type { RunPaths } from './run-folder.js';

/**
 * Synthesis checkpoint of a run folder: every synthesized task is appended to `tasks.partial.jsonl` as soon as it
 * is made (first line `{"run": "<run id>"}`, then one task per line), so a kill during synthesis loses at most the
 * task under way, and a resume reuses the tasks already in the folder (tasks.json first, then the partial file)
 * instead of synthesizing them again. Once tasks.json holds them, the partial file is removed.
 */
export interface TaskCheckpoint {
  /** Tasks 0..m-1 already made for this run, in order. */
  readonly existing: readonly RunTask[];
  /** Appends task `existing.length + k` (flushed to disk before returning). */
  save(task: RunTask): void;
}

/** Tasks of tasks.json, then of tasks.partial.jsonl beyond them; a torn last line of the partial file is cut. */
export function openTaskCheckpoint(paths: RunPaths, runId: string): TaskCheckpoint {
  const fromJson = existsSync(paths.tasksJson) ? readTasksJson(paths.tasksJson) : [];
  const fromPartial = existsSync(paths.tasksPartial) ? readPartial(paths.tasksPartial, runId) : [];
  // the partial file is appended to only when it already holds every task known (else it is written afresh)
  let headerWritten = fromPartial.length > 0 && fromPartial.length >= fromJson.length;
  const existing = headerWritten ? fromPartial : fromJson;
  if (!headerWritten && existsSync(paths.tasksPartial)) truncateSync(paths.tasksPartial, 0);
  return {
    existing,
    save(task) {
      const lines: string[] = [];
      if (!headerWritten) {
        lines.push(JSON.stringify({ run: runId }));
        // tasks already in tasks.json come first, so the partial file alone is a complete prefix
        for (const t of existing) lines.push(JSON.stringify(t));
        headerWritten = true;
      }
      lines.push(JSON.stringify(task));
      const fd = openSync(paths.tasksPartial, 'a');
      try {
        writeSync(fd, `${lines.join('\n')}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
  };
}

function readTasksJson(file: string): RunTask[] {
  let value: unknown;
  try {
    value = readPlainJson(file, { what: 'the run’s tasks' }); // bounded in size and depth, UTF-8 checked
  } catch (e) {
    throw new ConfigError(`${(e as Error).message}; the run folder is damaged: use another --out`);
  }
  if (!Array.isArray(value)) {
    throw new ConfigError(
      `${file}: $: expected a list of tasks; the run folder is damaged: use another --out`,
    );
  }
  return value as RunTask[];
}

/** The tasks of the partial file (without its header); empty when it holds nothing but a torn line. */
function readPartial(file: string, runId: string): RunTask[] {
  const text = readInputText(file);
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) truncateSync(file, Buffer.byteLength(text.slice(0, end), 'utf8')); // a torn last line
  const lines = text.slice(0, end).split('\n').slice(0, -1);
  if (lines.length === 0) return [];
  const parse = (line: string, n: number): unknown => {
    if (jsonNestingExceeds(line)) {
      throw new ConfigError(
        `${file}: line ${n} nests deeper than ${MAX_JSON_DEPTH} levels (damaged by hand?); delete ${file} to synthesize its tasks again`,
      );
    }
    try {
      return JSON.parse(line);
    } catch {
      throw new ConfigError(
        `${file}: line ${n} is not JSON (damaged by hand?); delete ${file} to synthesize its tasks again`,
      );
    }
  };
  const header = parse(lines[0] as string, 1) as { run?: unknown };
  if (header?.run !== runId) {
    throw new ConfigError(
      `${file} belongs to ${String(header?.run)}, not to this command's run ${runId}; use another --out`,
    );
  }
  return lines.slice(1).map((line, i) => parse(line, i + 2) as RunTask);
}

/** Removes the partial file once tasks.json holds all its tasks. */
export function dropTaskCheckpoint(paths: RunPaths): void {
  rmSync(paths.tasksPartial, { force: true });
}
