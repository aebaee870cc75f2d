import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import type { TrajectoryRecord } from './trajectory.js';

/** What was found in an existing `trajectories.jsonl`. */
export interface LoadedLog {
  readonly records: TrajectoryRecord[];
  /** Bytes of a torn last line that were cut off (a crash in the middle of a write). */
  readonly truncatedBytes: number;
  /** Lines whose id had already appeared: the later line replaces the earlier (a retried episode). */
  readonly duplicates: number;
}

/**
 * Reads `trajectories.jsonl` for a resume: every complete line is a record, and a later line with the same id
 * replaces the earlier one (an episode that failed on infrastructure and was run again); a torn last line — no
 * newline, or not JSON — is cut off the file so appending can go on cleanly.
 */
export function loadTrajectoryLog(file: string): LoadedLog {
  if (!existsSync(file)) return { records: [], truncatedBytes: 0, duplicates: 0 };
  const buffer = readFileSync(file);
  const text = buffer.toString('utf8');
  const byId = new Map<string, TrajectoryRecord>();
  let duplicates = 0;
  let validBytes = 0;
  let offset = 0;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    if (end === -1) break;
    const line = text.slice(offset, end);
    let record: TrajectoryRecord;
    try {
      record = JSON.parse(line) as TrajectoryRecord;
    } catch {
      break;
    }
    offset = end + 1;
    validBytes += Buffer.byteLength(line, 'utf8') + 1;
    if (byId.has(record.id)) {
      duplicates++;
      byId.delete(record.id); // re-inserted last: completion order of the latest run
    }
    byId.set(record.id, record);
  }
  const truncatedBytes = buffer.length - validBytes;
  if (truncatedBytes > 0) truncateSync(file, validBytes);
  return { records: [...byId.values()], truncatedBytes, duplicates };
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
