import { mkdirSync } from 'node:fs';
import { writeDerived } from '../../run/generate.js';
import { openRunFolder, runPaths, writeOrCheck, writeTasksFile } from '../../run/run-folder.js';
import { lockRunFolder } from '../../run/run-lock.js';
import type { TrajectoryRecord } from '../../run/trajectory.js';
import { loadTrajectoryLog, setAsideDamaged, TrajectoryLog } from '../../run/trajectory-log.js';
import type { AgentContext } from '../../sim/agent-context.js';
import type { RunTask } from '../../tasks/task.js';

/** What a recorded service run is made of (written to `run.json`, `tasks.json`, `db.json`). */
export interface RecorderOptions {
  readonly dir: string;
  readonly runName: string;
  readonly command: readonly string[];
  readonly coveVersion: string;
  /** Settings that must match when the same folder is recorded into again. */
  readonly fingerprint: Readonly<Record<string, unknown>>;
  readonly tasks: readonly RunTask[];
  readonly tasksText: string;
  readonly sandboxText?: string;
  readonly agentContext: AgentContext;
  /** Told about repairs of an existing folder (a torn last line, damaged lines). */
  readonly onWarning?: (message: string) => void;
}

/**
 * Appends the service's finished episodes to a run folder in `cove generate`'s format (design.md §6): one
 * `trajectories.jsonl` line per episode as it finishes, and `sft.jsonl` / `summary.json` rewritten from all
 * records when the service stops ({@link close}). The folder is locked for this process (`run.lock`), and may
 * already hold a run with the same fingerprint (a restarted service records on after it).
 * @throws {ConfigError} when the folder holds another run or is locked by a live process.
 */
export class EpisodeRecorder {
  readonly #options: RecorderOptions;
  readonly #log: TrajectoryLog;
  readonly #records: TrajectoryRecord[];
  readonly #started = performance.now();
  #closed = false;
  readonly #releaseLock: () => void;

  constructor(options: RecorderOptions) {
    this.#options = options;
    const paths = runPaths(options.dir);
    mkdirSync(options.dir, { recursive: true });
    this.#releaseLock = lockRunFolder(options.dir);
    openRunFolder(paths, {
      command: options.command,
      cove_version: options.coveVersion,
      fingerprint: options.fingerprint,
    });
    if (options.sandboxText !== undefined) writeOrCheck(paths.dbJson, options.sandboxText);
    writeTasksFile(paths.tasksJson, options.tasks, options.tasksText);
    const loaded = loadTrajectoryLog(paths.trajectories);
    if (loaded.truncatedBytes > 0)
      options.onWarning?.(`${paths.trajectories}: cut off a torn last line (${loaded.truncatedBytes} bytes)`);
    if (loaded.corrupt.length > 0) {
      const { aside, lines } = setAsideDamaged(paths.trajectories, loaded.corrupt);
      options.onWarning?.(
        `${paths.trajectories}: ${loaded.corrupt.length} line(s) not readable as records: ${lines}; copied to ${aside}`,
      );
    }
    this.#records = [...loaded.records];
    this.#log = new TrajectoryLog(paths.trajectories);
  }

  /** Records one finished episode (one whole line, flushed to disk every few lines). */
  append(record: TrajectoryRecord): void {
    if (this.#closed) return;
    this.#log.append(record);
    this.#records.push(record);
  }

  /** Episodes recorded so far (those found in the folder included). */
  get count(): number {
    return this.#records.length;
  }

  /** Flushes the log and writes `sft.jsonl` and `summary.json` from every record. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#log.close();
    writeDerived(
      {
        out: this.#options.dir,
        runName: this.#options.runName,
        tasks: this.#options.tasks,
        agentContext: this.#options.agentContext,
      },
      this.#records,
      (performance.now() - this.#started) / 1000,
    );
    this.#releaseLock(); // after the derived files: another writer may take the folder only now
  }
}
