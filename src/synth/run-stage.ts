import { existsSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import pLimit from 'p-limit';
import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError } from '../core/errors.js';
import { canonicalSha256 } from '../core/hash.js';
import type { PyJsonInput } from '../core/py-json.js';
import { formatIssuePath } from '../core/schema-helpers.js';
import { readInputText } from '../io/read-input.js';
import type { ChatModel } from '../llm/chat-model.js';
import { appendLines, readRecords, StageRecordError, validateRecord } from './records.js';
import { type Stage, StageJsonError, type StageRecord, type StageUnit, unitPerRecord } from './stage.js';
import { createUnitContext, type StageUsage, type UnitTally, zeroUsage } from './unit-context.js';

/**
 * Runs one stage over its input files into its output file, resumably (docs/synthesis-stages.md "Resume"):
 *
 * - `<out>` gets the output records, a unit's records at a time, in the order of the units;
 * - `<out>.progress` gets one line per finished unit after its records are on disk: the unit's key, the size of
 *   `<out>` after it, its usage, counters and notes; its first line names the stage, seed, model and settings;
 * - on a rerun, `<out>` is cut back to the size the last progress line gives (a unit killed half-written is
 *   redone whole), finished units are skipped, and a record whose id is already in `<out>` is not written again;
 * - `summary.json` (`<out>` with `.jsonl` replaced by `.summary.json`) sums the progress lines.
 */

/** What `summary.json` of a stage holds. */
export interface StageSummary {
  readonly stage: string;
  readonly role: string;
  /** The model's name, endpoint and sampling settings; null when the stage ran without a model. */
  readonly model: {
    readonly name: string;
    readonly base_url: string;
    readonly temperature: number;
    readonly seed: number | null;
    readonly max_tokens: number | null;
  } | null;
  readonly seed: number;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly inputs: readonly string[];
  readonly input_records: number;
  readonly units: { readonly total: number; readonly done: number; readonly failed: number };
  /** Records in the output file. */
  readonly records: number;
  /**
   * Tokens and cost of every model call over all runs of this output file: the finished units' and
   * `interrupted_usage`.
   */
  readonly usage: StageUsage;
  /** The part of `usage` spent by units that did not finish (killed, or stopped by an endpoint failure). */
  readonly interrupted_usage: StageUsage;
  /** Stage counters summed over the units (e.g. `json_retries`, `repairs`, `dropped`). */
  readonly counts: Readonly<Record<string, number>>;
  readonly notes: readonly string[];
}

/** Options of {@link runStage}. */
export interface RunStageOptions<I extends StageRecord, O extends StageRecord> {
  readonly stage: Stage<I, O>;
  /** Input files; none for a stage that makes its records from its settings ({@link Stage.sourceRecords}). */
  readonly inputs: readonly string[];
  readonly out: string;
  /** Raw settings, validated by the stage's settings schema. */
  readonly settings: Readonly<Record<string, unknown>>;
  readonly seed: number;
  readonly model?: ChatModel;
  /** Units run at once. @defaultValue 4 */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  /** Progress lines (one per finished unit). */
  readonly log?: (line: string) => void;
}

interface ProgressHeader {
  readonly stage: string;
  readonly identity: string;
}

interface ProgressLine extends UnitTally {
  /** The run of the stage that finished the unit (absent in files of older versions). */
  readonly run?: string;
  readonly unit: string;
  readonly label: string;
  readonly end: number;
  readonly records: number;
  readonly failed: boolean;
}

/**
 * One model call, written to the progress file as soon as it returns, so that the calls of a unit that never
 * finishes are still counted.
 */
interface CallLine {
  /** The unit's key. */
  readonly call: string;
  readonly run: string;
  readonly usage: StageUsage;
}

function addUsage(to: StageUsage, u: StageUsage): void {
  for (const k of Object.keys(to) as (keyof StageUsage)[]) to[k] += u[k];
}

/** `x.jsonl` → `x.summary.json` (any other name gets `.summary.json` appended). */
export function summaryPathOf(out: string): string {
  return out.endsWith('.jsonl') ? `${out.slice(0, -'.jsonl'.length)}.summary.json` : `${out}.summary.json`;
}

/** The progress file of an output file. */
export const progressPathOf = (out: string): string => `${out}.progress`;

/**
 * Runs `stage` (see the file comment). Infrastructure errors (a model endpoint failing after its retries) stop the
 * stage after the units in flight; a unit whose reply stays unusable JSON is recorded as failed (no records) and
 * not retried on resume.
 * @throws {StageRecordError} for a bad input or output record; {@link ConfigError} for bad settings or an output
 *   file made with other settings.
 */
export async function runStage<I extends StageRecord, O extends StageRecord>(
  options: RunStageOptions<I, O>,
): Promise<StageSummary> {
  const { stage, out } = options;
  const parsed = stage.settings.safeParse(options.settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `stage ${stage.name}: settings ${formatIssuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const settings = parsed.data;
  const records: I[] = [];
  for (const file of options.inputs) {
    for (const r of readRecords(stage.name, file, stage.input)) records.push(r.value);
  }
  if (options.inputs.length === 0) {
    if (stage.sourceRecords === undefined)
      throw new ConfigError(`stage ${stage.name} needs input records: give --in <file>`);
    records.push(...stage.sourceRecords(settings));
  }
  const units: StageUnit<I>[] = (stage.units ?? unitPerRecord)(records);
  const model = options.model;
  const modelInfo =
    model === undefined
      ? null
      : {
          name: model.config.model,
          base_url: model.config.base_url,
          temperature: model.config.temperature,
          seed: model.config.seed ?? null,
          max_tokens: model.config.max_tokens ?? null,
        };
  const identity = canonicalSha256({
    stage: stage.name,
    seed: options.seed,
    settings,
    model: modelInfo === null ? null : { ...modelInfo, base_url: null },
  } as unknown as PyJsonInput);
  const progress = openProgress(stage.name, out, identity);
  const done = new Map(progress.lines.map((p) => [p.unit, p]));
  const seen = readIds(stage.name, out, stage.output);

  // names this run in the progress file: the calls of a unit it does not finish are told from those it does
  const run = `${process.pid}-${Date.now()}`;
  const summary = (): StageSummary => {
    const usage = zeroUsage();
    const counts: Record<string, number> = {};
    const notes: string[] = [];
    let failed = 0;
    const finished = new Set(progress.lines.map((p) => `${p.unit}\u0000${p.run ?? ''}`));
    const interrupted = zeroUsage();
    for (const c of progress.calls) {
      if (!finished.has(`${c.call}\u0000${c.run}`)) addUsage(interrupted, c.usage);
    }
    interrupted.cost_usd = Math.round(interrupted.cost_usd * 1e9) / 1e9;
    addUsage(usage, interrupted);
    for (const p of progress.lines) {
      addUsage(usage, p.usage);
      for (const [k, v] of Object.entries(p.counts)) counts[k] = (counts[k] ?? 0) + v;
      notes.push(...p.notes);
      if (p.failed) failed++;
    }
    usage.cost_usd = Math.round(usage.cost_usd * 1e9) / 1e9;
    return {
      stage: stage.name,
      role: stage.role ?? 'synth',
      model: modelInfo,
      seed: options.seed,
      settings,
      inputs: options.inputs,
      input_records: records.length,
      units: { total: units.length, done: units.filter((u) => done.has(u.key)).length, failed },
      records: seen.size,
      usage,
      interrupted_usage: interrupted,
      counts: Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1))),
      notes,
    };
  };
  const writeSummary = () => writeFileAtomic(summaryPathOf(out), `${JSON.stringify(summary(), null, 2)}\n`);

  const todo = units.filter((u) => !done.has(u.key));
  const results = new Map<number, { records: readonly O[]; tally: UnitTally; failed: boolean }>();
  let next = 0;
  let outLine = countLines(out);
  const flush = () => {
    for (;;) {
      const r = results.get(next);
      const unit = todo[next];
      if (r === undefined || unit === undefined) return;
      results.delete(next);
      next++;
      const lines: string[] = [];
      for (const rec of r.records) {
        validateRecord(stage.name, out, outLine + lines.length + 1, rec, stage.output);
        if (seen.has(rec.id)) {
          r.tally.counts.duplicates_skipped = (r.tally.counts.duplicates_skipped ?? 0) + 1;
          continue;
        }
        seen.add(rec.id);
        lines.push(JSON.stringify(rec));
      }
      appendLines(out, lines);
      outLine += lines.length;
      const line: ProgressLine = {
        run,
        unit: unit.key,
        label: unit.label,
        end: existsSync(out) ? statSync(out).size : 0,
        records: lines.length,
        failed: r.failed,
        ...r.tally,
      };
      appendLines(progress.file, [JSON.stringify(line)]);
      progress.lines.push(line);
      done.set(unit.key, line);
      options.log?.(`${stage.name}: ${unit.label}: ${lines.length} record(s)${r.failed ? ' (failed)' : ''}`);
      writeSummary();
    }
  };

  const limit = pLimit(options.concurrency ?? 4);
  let stop: unknown;
  await Promise.all(
    todo.map((unit, i) =>
      limit(async () => {
        if (stop !== undefined || options.signal?.aborted === true) return;
        const ctx = createUnitContext({
          stage: stage.name,
          settings,
          seed: options.seed,
          unitKey: unit.key,
          label: unit.label,
          model,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          onCall: (usage) => {
            const line: CallLine = { call: unit.key, run, usage };
            appendLines(progress.file, [JSON.stringify(line)]);
            progress.calls.push(line);
          },
        });
        try {
          const recs = await stage.run(unit, ctx);
          results.set(i, { records: recs, tally: ctx.tally, failed: false });
        } catch (e) {
          if (!(e instanceof StageJsonError)) {
            stop ??= e;
            return;
          }
          ctx.count('failed_units');
          ctx.note(e.message);
          results.set(i, { records: [], tally: ctx.tally, failed: true });
        }
        flush(); // units stop being written at the first one that did not finish
      }),
    ),
  );
  writeSummary();
  if (stop !== undefined) throw stop;
  return summary();
}

function countLines(file: string): number {
  if (!existsSync(file)) return 0;
  const text = readInputText(file);
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The ids of the records already in the output file (validated: a hand-edited bad line is reported). */
function readIds(stage: string, out: string, schema: Stage['output']): Set<string> {
  if (!existsSync(out)) return new Set();
  return new Set(readRecords(stage, out, schema).map((r) => r.value.id));
}

/**
 * Opens (or starts) the progress file of `out`: checks it was made by the same stage, seed, model and settings,
 * cuts a torn last line, and cuts `out` back to the end of the last finished unit.
 */
function openProgress(
  stage: string,
  out: string,
  identity: string,
): { file: string; lines: ProgressLine[]; calls: CallLine[] } {
  const file = progressPathOf(out);
  const header: ProgressHeader = { stage, identity };
  if (!existsSync(file)) {
    if (existsSync(out) && statSync(out).size > 0) {
      throw new ConfigError(
        `${out} exists but has no ${file}: it was not written by this stage; remove it or give another --out`,
      );
    }
    writeFileSync(out, '');
    appendLines(file, [JSON.stringify(header)]);
    return { file, lines: [], calls: [] };
  }
  const text = readInputText(file);
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) truncateSync(file, Buffer.byteLength(text.slice(0, end), 'utf8'));
  const raw = text.slice(0, end).split('\n').slice(0, -1);
  const parse = (line: string, n: number): unknown => {
    try {
      return JSON.parse(line);
    } catch {
      throw new StageRecordError(
        stage,
        file,
        n,
        '$',
        'is not JSON (damaged by hand?); remove it and the output',
      );
    }
  };
  const first = parse(raw[0] ?? '{}', 1) as Partial<ProgressHeader>;
  if (first.stage !== stage || first.identity !== identity) {
    throw new ConfigError(
      `${out} was written by ${first.stage === stage ? 'this stage with other settings, seed or model' : `stage ${String(first.stage)}`}; give another --out, or remove ${out} and ${file} to start over`,
    );
  }
  const all = raw.slice(1).map((l, i) => parse(l, i + 2) as ProgressLine | CallLine);
  const lines = all.filter((l): l is ProgressLine => 'unit' in l);
  const calls = all.filter((l): l is CallLine => 'call' in l);
  const keep = lines.at(-1)?.end ?? 0;
  if (!existsSync(out)) writeFileSync(out, '');
  if (statSync(out).size > keep) truncateSync(out, keep); // records of a unit cut short by a kill
  if (statSync(out).size < keep) {
    throw new ConfigError(
      `${out} is shorter than ${file} says (${keep} bytes); it was edited: remove both to start over`,
    );
  }
  return { file, lines, calls };
}
