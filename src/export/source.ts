import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { ConfigError, InputFileError } from '../core/errors.js';
import { formatIssuePath } from '../core/schema-helpers.js';
import { MAX_JSON_DEPTH } from '../io/read-input.js';
import { jsonNestingExceeds } from '../io/read-jsonl.js';
import { readTau2Results, type Tau2Results, type Tau2Simulation } from '../tau2/results-file.js';
import { fileLines } from './lines.js';
import { type DropReason, dropReason, type ExportRecord, type SelectOptions } from './select.js';

/** What `--in` named, resolved. */
export type ExportInput =
  | { readonly kind: 'trajectories'; readonly file: string; readonly runDir?: string }
  | { readonly kind: 'tau2'; readonly file: string };

/**
 * Resolves `--in`: a run folder (its `trajectories.jsonl`), a `trajectories.jsonl` (with its folder as the run
 * folder when `run.json` is there), or a τ² results file (`.json` holding `simulations`).
 * @throws {ConfigError} when the path is none of these
 */
export function resolveInput(path: string): ExportInput {
  if (!existsSync(path)) throw new ConfigError(`--in ${path} does not exist`);
  if (statSync(path).isDirectory()) {
    const file = join(path, 'trajectories.jsonl');
    if (!existsSync(file))
      throw new ConfigError(`--in ${path} is a folder without trajectories.jsonl (not a cove run folder)`);
    return { kind: 'trajectories', file, runDir: path };
  }
  if (path.endsWith('.jsonl')) {
    const dir = dirname(path);
    return existsSync(join(dir, 'run.json'))
      ? { kind: 'trajectories', file: path, runDir: dir }
      : { kind: 'trajectories', file: path };
  }
  if (path.endsWith('.json')) return { kind: 'tau2', file: path };
  throw new ConfigError(
    `--in ${path}: expected a run folder, a trajectories.jsonl or a τ² results .json file`,
  );
}

const ROLES = new Set<unknown>(['system', 'user', 'assistant', 'tool']);

/** The fields of a record that export relies on (the rest is carried as read). */
const recordSchema = z.looseObject({
  id: z.string(),
  task_id: z.string(),
  task_index: z.number(),
  domain: z.string(),
  trial: z.number(),
  attempt: z.number(),
  settings: z.looseObject({ text: z.enum(['cove', 'tau2']) }),
  messages: z.array(
    z.custom<object>(
      (m) => typeof m === 'object' && m !== null && ROLES.has((m as { role?: unknown }).role),
      { message: 'expected a message with role system, user, assistant or tool' },
    ),
  ),
  tools: z.array(
    z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
  ),
  termination_reason: z.string(),
  verification: z
    .looseObject({
      score: z.number(),
      stateMatch: z.boolean(),
      constraints: z.array(z.looseObject({ kind: z.string() })),
    })
    .optional(),
  invalid_tool_arguments: z.number(),
  leaks: z.number(),
  benchmark_data: z.boolean(),
  evaluation: z.looseObject({ evaluator: z.string(), reward: z.number().nullable() }).optional(),
});

/**
 * Parses and (unless `check` is false: a line already checked in the first pass) checks one line of
 * `trajectories.jsonl`.
 * @throws {InputFileError} naming the file, the line and the field
 */
export function parseRecordLine(file: string, line: number, text: string, check = true): ExportRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InputFileError(file, `line ${line}`, `not JSON (${(e as Error).message})`);
  }
  if (!check) return value as ExportRecord;
  if (jsonNestingExceeds(text)) {
    throw new InputFileError(
      file,
      `line ${line}`,
      `lists and objects nest deeper than ${MAX_JSON_DEPTH} levels, the most cove reads; the line is damaged: remove it`,
    );
  }
  const result = recordSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new InputFileError(
      file,
      `line ${line}: ${formatIssuePath(issue?.path ?? [])}`,
      issue?.message ?? 'invalid',
    );
  }
  return value as ExportRecord;
}

/** Where a selected record sits in the file, and what ordering and splitting need. */
export interface IndexEntry {
  readonly offset: number;
  readonly bytes: number;
  readonly line: number;
  readonly id: string;
  readonly taskKey: string;
  readonly taskIndex: number;
  readonly trial: number;
  readonly attempt: number;
}

/** Pass 1 over `trajectories.jsonl`: the selected records (latest line per id), in training order. */
export interface TrajectoryIndex {
  readonly selected: IndexEntry[];
  readonly total: number;
  readonly dropped: Partial<Record<DropReason, number>>;
  /** Damaged lines skipped (1-based), e.g. a torn last line of an interrupted run. */
  readonly damaged: number[];
  readonly superseded: number;
}

/** Orders rows as sft.jsonl does: task index, trial, attempt (then id, for a total order). */
export function trainingOrder(a: IndexEntry, b: IndexEntry): number {
  return (
    a.taskIndex - b.taskIndex ||
    a.trial - b.trial ||
    a.attempt - b.attempt ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * Streams `trajectories.jsonl` once, line by line, keeping per record only its position and sort keys: a later
 * line with the same id replaces an earlier one (as `cove generate` resumes), a line that is not JSON is skipped
 * and reported (a torn last line after a crash), a JSON line without the fields export needs is an error.
 * @throws {InputFileError} naming the file, line and field of a malformed record
 */
export async function indexTrajectories(file: string, select: SelectOptions): Promise<TrajectoryIndex> {
  const byId = new Map<string, IndexEntry | DropReason>();
  const damaged: number[] = [];
  let superseded = 0;
  for await (const line of fileLines(file)) {
    if (line.text.trim() === '') continue;
    let record: ExportRecord;
    try {
      record = parseRecordLine(file, line.number, line.text);
    } catch (e) {
      if (e instanceof InputFileError && e.reason.startsWith('not JSON')) {
        damaged.push(line.number);
        continue;
      }
      throw e;
    }
    if (byId.delete(record.id)) superseded++;
    const reason = dropReason(record, select);
    byId.set(
      record.id,
      reason ?? {
        offset: line.offset,
        bytes: line.bytes,
        line: line.number,
        id: record.id,
        taskKey: `${record.domain}/${record.task_id}`,
        taskIndex: record.task_index,
        trial: record.trial,
        attempt: record.attempt,
      },
    );
  }
  const selected: IndexEntry[] = [];
  const dropped: Partial<Record<DropReason, number>> = {};
  for (const v of byId.values()) {
    if (typeof v === 'string') dropped[v] = (dropped[v] ?? 0) + 1;
    else selected.push(v);
  }
  selected.sort(trainingOrder);
  return { selected, total: byId.size, dropped, damaged, superseded };
}

/** Reads the selected records again, one at a time, in the order given (positioned reads; nothing else kept). */
export function* readEntries(file: string, entries: Iterable<IndexEntry>): Generator<ExportRecord> {
  const fd = openSync(file, 'r');
  try {
    let buffer = Buffer.alloc(1 << 16);
    for (const e of entries) {
      if (buffer.length < e.bytes) buffer = Buffer.alloc(e.bytes);
      const read = readSync(fd, buffer, 0, e.bytes, e.offset);
      yield parseRecordLine(file, e.line, buffer.toString('utf8', 0, read), false);
    }
  } finally {
    closeSync(fd);
  }
}

/** A τ² results file with its simulations selected. */
export interface Tau2Selection {
  readonly results: Tau2Results;
  readonly selected: { sim: Tau2Simulation; taskIndex: number }[];
  readonly total: number;
  readonly dropped: Partial<Record<DropReason, number>>;
}

/**
 * Loads a τ² results file (one JSON document, read whole) and selects its simulations: not lost to the
 * infrastructure, τ² reward ≥ `minScore`, domain among `domains`; ordered by task position in the file, then trial.
 */
export function selectTau2(file: string, select: SelectOptions): Tau2Selection {
  const results = readTau2Results(file);
  const domain = results.info.environment_info.domain_name;
  const taskIndex = new Map(results.tasks.map((t, i) => [t.id, i]));
  const dropped: Partial<Record<DropReason, number>> = {};
  const selected: Tau2Selection['selected'] = [];
  for (const sim of results.simulations) {
    const reason: DropReason | undefined =
      select.domains !== undefined && !select.domains.includes(domain)
        ? 'domain'
        : sim.termination_reason === 'infrastructure_error'
          ? 'infrastructure_error'
          : (sim.reward_info?.reward ?? 0) < select.minScore
            ? 'tau2_reward_below_min'
            : undefined;
    if (reason === undefined) selected.push({ sim, taskIndex: taskIndex.get(sim.task_id) ?? 0 });
    else dropped[reason] = (dropped[reason] ?? 0) + 1;
  }
  selected.sort((a, b) => a.taskIndex - b.taskIndex || (a.sim.trial ?? 0) - (b.sim.trial ?? 0));
  return { results, selected, total: results.simulations.length, dropped };
}

/** run.json of a run folder, when there is one (seed, command and start time for the card and τ²'s Info). */
export function readRunManifest(runDir: string | undefined): Record<string, unknown> | undefined {
  if (runDir === undefined) return undefined;
  const file = join(runDir, 'run.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new InputFileError(file, '$', `not JSON (${(e as Error).message})`);
  }
}

/** A short name for the input in the card. */
export function inputName(input: ExportInput): string {
  return input.kind === 'trajectories' && input.runDir !== undefined
    ? basename(input.runDir)
    : basename(input.file);
}
