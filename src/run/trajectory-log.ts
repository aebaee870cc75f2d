import { isUtf8 } from 'node:buffer';
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, truncateSync, writeSync } from 'node:fs';
import { firstInvalidUtf8, MAX_JSON_DEPTH } from '../io/read-input.js';
import { jsonNestingExceeds, MAX_LINE_BYTES, readJsonlLines } from '../io/read-jsonl.js';
import type { TrajectoryRecord } from './trajectory.js';

/** What was found in an existing `trajectories.jsonl`. */
export interface LoadedLog {
  readonly records: TrajectoryRecord[];
  /** Bytes of a torn last line that were cut off (a crash in the middle of a write). */
  readonly truncatedBytes: number;
  /** Lines whose id had already appeared: the later line replaces the earlier (a retried episode). */
  readonly duplicates: number;
  /**
   * Complete lines (newline-terminated) that are not a record — not valid UTF-8, nested deeper than
   * {@link MAX_JSON_DEPTH}, not JSON, or JSON without a record's fields — e.g. damaged on disk or by hand:
   * skipped, so the records after them are kept; their episodes run again. 1-based line numbers; `text` is the
   * line as read (bytes that are not UTF-8 shown as U+FFFD), `raw` its bytes, `reason` what is wrong.
   */
  readonly corrupt: readonly DamagedLine[];
}

/** A complete line of `trajectories.jsonl` that is not a record. */
export interface DamagedLine {
  readonly line: number;
  readonly text: string;
  readonly raw: Buffer;
  readonly reason: string;
}

/**
 * Reads `trajectories.jsonl` for a resume, a line at a time (any file size; a line of at most
 * {@link MAX_LINE_BYTES}): every complete line is a record, and a later line with the same id replaces the earlier
 * one (an episode that failed on infrastructure and was run again); a torn last line (no newline: a crash in the
 * middle of a write) is cut off the file so appending can go on cleanly. A complete line that is not a record is
 * skipped and reported (with the byte offset of a byte that is not UTF-8), never a reason to drop the lines after
 * it. @throws {InputFileError} for a file that cannot be read or a line over the limit.
 */
export function loadTrajectoryLog(file: string): LoadedLog {
  if (!existsSync(file)) return { records: [], truncatedBytes: 0, duplicates: 0, corrupt: [] };
  const byId = new Map<string, TrajectoryRecord>();
  let duplicates = 0;
  const corrupt: DamagedLine[] = [];
  const { size, completeBytes } = readJsonlLines(
    file,
    ({ line, offset, bytes }) => {
      const text = bytes.toString('utf8');
      const damaged = (reason: string): void => {
        corrupt.push({ line, text, raw: bytes, reason });
      };
      if (!isUtf8(bytes)) return damaged(`not valid UTF-8 at byte ${offset + firstInvalidUtf8(bytes)}`);
      if (jsonNestingExceeds(text)) return damaged(`nests deeper than ${MAX_JSON_DEPTH} levels`);
      const record = parseRecord(text);
      if (record === undefined) return damaged('not a trajectory record');
      if (byId.has(record.id)) {
        duplicates++;
        byId.delete(record.id); // re-inserted last: completion order of the latest run
      }
      byId.set(record.id, record);
    },
    { what: 'the run’s trajectories' },
  );
  const truncatedBytes = size - completeBytes;
  if (truncatedBytes > 0) truncateSync(file, completeBytes);
  return { records: [...byId.values()], truncatedBytes, duplicates, corrupt };
}

/**
 * Appends damaged lines, byte for byte, to `<file>.damaged` (kept aside, never silently dropped) and describes
 * them for a warning: "line 2 (not valid UTF-8 at byte 1234), line 5 (not a trajectory record)" — the first five.
 */
export function setAsideDamaged(
  file: string,
  damaged: readonly DamagedLine[],
): { aside: string; lines: string } {
  const aside = `${file}.damaged`;
  appendFileSync(aside, Buffer.concat(damaged.flatMap((d) => [d.raw, Buffer.from('\n')])));
  const lines = damaged
    .slice(0, 5)
    .map((d) => `line ${d.line} (${d.reason})`)
    .join(', ');
  return { aside, lines: damaged.length > 5 ? `${lines}, …` : lines };
}

/**
 * A line's record, or undefined when the line is not JSON or lacks what a resume reads (`id`, `task_index`,
 * `termination_reason`, `usage` with its numbers, a verdict — `verification` or `evaluation` — and `messages`).
 */
function parseRecord(line: string): TrajectoryRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  const usage = r.usage as Record<string, unknown> | null | undefined;
  const ok =
    typeof r.id === 'string' &&
    typeof r.task_index === 'number' &&
    typeof r.termination_reason === 'string' &&
    ((typeof r.verification === 'object' && r.verification !== null) ||
      (typeof r.evaluation === 'object' && r.evaluation !== null)) &&
    Array.isArray(r.messages) &&
    typeof usage === 'object' &&
    usage !== null &&
    ['prompt_tokens', 'completion_tokens', 'cost_usd'].every((k) => typeof usage[k] === 'number');
  return ok ? (value as TrajectoryRecord) : undefined;
}

/** Appends records to `trajectories.jsonl`, one whole line per `write`, flushed to disk every few lines. */
export class TrajectoryLog {
  readonly #fd: number;
  #unsynced = 0;

  constructor(file: string) {
    this.#fd = openSync(file, 'a');
  }

  append(record: TrajectoryRecord): void {
    writeSync(this.#fd, `${JSON.stringify(record)}\n`);
    if (++this.#unsynced >= 32) this.sync();
  }

  sync(): void {
    fsyncSync(this.#fd);
    this.#unsynced = 0;
  }

  close(): void {
    this.sync();
    closeSync(this.#fd);
  }
}
