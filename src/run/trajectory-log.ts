import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import type { TrajectoryRecord } from './trajectory.js';

/** What was found in an existing `trajectories.jsonl`. */
export interface LoadedLog {
  readonly records: TrajectoryRecord[];
  /** Bytes of a torn last line that were cut off (a crash in the middle of a write). */
  readonly truncatedBytes: number;
  /** Lines whose id had already appeared: the later line replaces the earlier (a retried episode). */
  readonly duplicates: number;
  /**
   * Complete lines (newline-terminated) that are not a JSON record, e.g. damaged on disk or by hand: skipped, so
   * the records after them are kept; their episodes run again. 1-based line numbers.
   */
  readonly corrupt: readonly { readonly line: number; readonly text: string }[];
}

/**
 * Reads `trajectories.jsonl` for a resume: every complete line is a record, and a later line with the same id
 * replaces the earlier one (an episode that failed on infrastructure and was run again); a torn last line (no
 * newline: a crash in the middle of a write) is cut off the file so appending can go on cleanly. A complete line
 * that is not a record is skipped and reported, never a reason to drop the lines after it.
 */
export function loadTrajectoryLog(file: string): LoadedLog {
  if (!existsSync(file)) return { records: [], truncatedBytes: 0, duplicates: 0, corrupt: [] };
  const buffer = readFileSync(file);
  const text = buffer.toString('utf8');
  const byId = new Map<string, TrajectoryRecord>();
  let duplicates = 0;
  const corrupt: { line: number; text: string }[] = [];
  let validBytes = 0;
  let offset = 0;
  let lineNo = 0;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    if (end === -1) break;
    const line = text.slice(offset, end);
    offset = end + 1;
    validBytes += Buffer.byteLength(line, 'utf8') + 1;
    lineNo++;
    const record = parseRecord(line);
    if (record === undefined) {
      corrupt.push({ line: lineNo, text: line });
      continue;
    }
    if (byId.has(record.id)) {
      duplicates++;
      byId.delete(record.id); // re-inserted last: completion order of the latest run
    }
    byId.set(record.id, record);
  }
  const truncatedBytes = buffer.length - validBytes;
  if (truncatedBytes > 0) truncateSync(file, validBytes);
  return { records: [...byId.values()], truncatedBytes, duplicates, corrupt };
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
