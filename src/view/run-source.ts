import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { runPaths } from '../run/run-folder.js';
import type { EpisodeFacts, MalformedLine, TaskFacts } from './facts.js';
import { tasksFacts } from './facts.js';
import { type Prefix, prefixOf, samePrefix } from './file-prefix.js';
import { contentStamp, readIndexSidecar, writeIndexSidecar } from './index-cache.js';
import type { IndexBuilder, JsonlIndex } from './jsonl-index.js';
import { readSpans } from './jsonl-index.js';
import { coveDetail } from './normalize.js';
import type { Overview } from './overview.js';
import { buildIndex } from './parallel-index.js';
import { searchRecords } from './search.js';
import type { Coverage, EpisodeDetail, SourceStatus, StateDiffResult, ViewSource } from './source.js';
import { coveStateDiff, type StateDiffContext } from './state-diff.js';
import { taskPrints } from './task-print.js';

/** tasks.json files larger than this are not loaded (a JavaScript string cannot hold much more). */
const MAX_TASKS_BYTES = 256 * 1024 * 1024;

/**
 * A cove run folder (`run.json`, `tasks.json`, `db.json`, `trajectories.jsonl`) or a bare trajectories.jsonl
 * opened for viewing. Given a folder, it reads the run's files; given a file, only that file (the task and
 * state panels then say that the tasks are missing). The JSONL is indexed once, streaming, and the index is kept
 * in the user cache keyed by the file's content stamp, so opening the same file again is immediate (see
 * `index-cache.ts`); records are read by offset. When the file only grew since (a run still going), only the new
 * lines are read.
 */
export class JsonlSource implements ViewSource {
  readonly format = 'cove' as const;
  readonly kind: 'run' | 'jsonl';
  readonly path: string;
  readonly label: string;
  readonly files: string[] = [];
  readonly notes: string[] = [];
  readonly #jsonl: string;
  readonly #tasksFile: string | undefined;
  #tasks: unknown[] | undefined;
  #prints: Map<string, string> | undefined;
  #taskFacts: (TaskFacts | undefined)[] = [];
  #index: JsonlIndex | undefined;
  #status: SourceStatus;
  #ready: Promise<void>;
  /** The index being built (its part so far), while indexing. */
  #builder: IndexBuilder | undefined;
  /** Callers of {@link JsonlSource.indexed} waiting for more episodes. */
  #waiters: { episodes: number; resolve: () => void }[] = [];
  #searches = new Map<string, Promise<ReadonlySet<number>>>();
  #diffContext: Promise<StateDiffContext> | undefined;
  /** {@link JsonlSource.#stamp} of the file the index was built from. */
  #snapshot = '';
  /** What the indexed bytes were, to tell a file that only grew from one rewritten. */
  #prefix: Prefix | undefined;
  /** The overview stored with the index sidecar the current index was read from. */
  #storedOverview: Overview | undefined;

  readonly #buildIndex: typeof buildIndex;

  /**
   * @param path a run folder or a trajectories.jsonl file.
   * @param options.buildIndex what builds the index (`parallel-index.ts`; a test passes one that goes in steps).
   * @throws {Error} when neither exists (the CLI checks first and names the path).
   */
  constructor(path: string, options: { buildIndex?: typeof buildIndex } = {}) {
    this.#buildIndex = options.buildIndex ?? buildIndex;
    const full = resolve(path);
    const isDir = statSync(full).isDirectory();
    this.kind = isDir ? 'run' : 'jsonl';
    this.path = full;
    const paths = runPaths(isDir ? full : dirname(full));
    this.#jsonl = isDir ? paths.trajectories : full;
    this.files.push(this.#jsonl);
    this.label = basename(full);
    if (isDir) {
      if (existsSync(paths.runJson)) {
        this.files.push(paths.runJson);
        try {
          const run = JSON.parse(readFileSync(paths.runJson, 'utf8')) as { command?: unknown };
          if (Array.isArray(run.command)) this.notes.push(`command: ${run.command.join(' ')}`);
        } catch {
          this.notes.push(`${paths.runJson} is not readable JSON`);
        }
      }
      if (existsSync(paths.tasksJson)) {
        this.#tasksFile = paths.tasksJson;
        this.files.push(paths.tasksJson);
      } else this.notes.push('no tasks.json in the folder: no task panel, difficulty or state diff');
      if (existsSync(paths.dbJson)) this.files.push(paths.dbJson);
    } else {
      this.notes.push(
        'a trajectories file was given alone: pass its run folder to see tasks, difficulty and state diffs',
      );
    }
    this.#loadTasks();
    this.#status = { state: 'indexing', bytesDone: 0, bytesTotal: 0 };
    this.#ready = this.#start();
  }

  /** Identity of the JSONL's current content: inode, size and modification time. */
  #stamp(): string {
    try {
      const s = statSync(this.#jsonl);
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return 'missing';
    }
  }

  #start(): Promise<void> {
    this.#snapshot = this.#stamp();
    this.#builder = undefined;
    this.#searches.clear();
    const bytesTotal = existsSync(this.#jsonl) ? statSync(this.#jsonl).size : 0;
    this.#status = { state: 'indexing', bytesDone: 0, bytesTotal };
    const ready = this.#build(bytesTotal);
    ready.catch(() => undefined);
    return ready;
  }

  async #build(bytesTotal: number): Promise<void> {
    try {
      if (!existsSync(this.#jsonl)) {
        this.notes.push(`${this.#jsonl} does not exist yet: no episodes`);
        this.#index = undefined;
        this.#storedOverview = undefined;
      } else {
        // a sidecar stored by an earlier open of the same content saves the pass over the file
        const stamp = contentStamp(this.#jsonl, this.#tasks === undefined ? undefined : this.#tasksFile);
        const cached = stamp === undefined ? undefined : readIndexSidecar(stamp);
        this.#storedOverview = cached?.overview;
        if (cached !== undefined) this.#index = cached;
        else {
          // a file that only grew (a run still going) is indexed from where the last index ended
          const earlier = this.#index;
          const grown =
            earlier !== undefined && this.#prefix !== undefined && samePrefix(this.#jsonl, this.#prefix)
              ? earlier
              : undefined;
          const index = await this.#buildIndex(this.#jsonl, this.#taskFacts, {
            onProgress: (bytes, builder) => {
              this.#status = { state: 'indexing', bytesDone: bytes, bytesTotal };
              this.#builder = builder;
              this.#wake(builder.episodes);
            },
            ...(grown === undefined ? {} : { from: grown }),
          });
          this.#index = index;
          // stored after the first answers: the page need not wait for the cache
          if (stamp !== undefined) setImmediate(() => writeIndexSidecar(stamp, index));
        }
      }
      this.#prefix = this.#index === undefined ? undefined : prefixOf(this.#jsonl, this.#index.bytes);
      this.#status = { state: 'ready', bytesDone: bytesTotal, bytesTotal };
    } catch (e) {
      this.#status = { state: 'failed', bytesDone: 0, bytesTotal, error: (e as Error).message };
      throw e;
    } finally {
      this.#builder = undefined;
      this.#wake(Number.POSITIVE_INFINITY);
    }
  }

  /** Lets the callers of {@link JsonlSource.indexed} waiting for at most `episodes` episodes go on. */
  #wake(episodes: number): void {
    if (this.#waiters.length === 0) return;
    const waiting = this.#waiters;
    this.#waiters = waiting.filter((w) => w.episodes > episodes);
    for (const w of waiting) if (w.episodes <= episodes) w.resolve();
  }

  #loadTasks(): void {
    const file = this.#tasksFile;
    if (file === undefined) return;
    const size = statSync(file).size;
    if (size > MAX_TASKS_BYTES) {
      this.notes.push(`${file} is ${Math.round(size / 2 ** 20)} MB, too large to load: no task panel`);
      return;
    }
    try {
      const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (!Array.isArray(value)) throw new Error('not a JSON list of tasks');
      this.#tasks = value;
      this.#taskFacts = tasksFacts(value);
    } catch (e) {
      this.notes.push(`${file}: ${(e as Error).message}; no task panel`);
    }
  }

  taskPrints(): ReadonlyMap<string, string> | undefined {
    if (this.#tasks === undefined) return undefined;
    this.#prints ??= taskPrints(this.#tasks);
    return this.#prints;
  }

  status(): SourceStatus {
    return this.#status;
  }

  /**
   * Resolves when the index is built. When the file changed since (a run still going appended episodes, or a
   * finished run rewrote it), indexes it again first, so reloading the page shows the run as it is now.
   */
  ready(): Promise<void> {
    if (this.#status.state !== 'indexing' && this.#stamp() !== this.#snapshot) this.#ready = this.#start();
    return this.#ready;
  }

  indexed(episodes: number): Promise<void> {
    const ready = this.ready(); // indexes again first when the file changed
    if (this.#status.state !== 'indexing' || (this.#builder?.episodes ?? 0) >= episodes) {
      return this.#status.state === 'indexing' ? Promise.resolve() : ready;
    }
    const enough = new Promise<void>((resolve) => this.#waiters.push({ episodes, resolve }));
    return Promise.race([ready, enough]);
  }

  /** The index the answers come from: the complete one, or while indexing the part of the file so far. */
  #current(): JsonlIndex | undefined {
    if (this.#status.state !== 'indexing') return this.#index;
    return this.#builder?.snapshot();
  }

  coverage(): Coverage {
    const complete = this.#status.state !== 'indexing';
    const index = this.#current();
    return {
      complete,
      bytes: complete ? (index?.bytes ?? 0) : (this.#builder?.covered ?? 0),
      bytesTotal: complete ? (index?.bytes ?? 0) : this.#status.bytesTotal,
      lines: index?.spans.count ?? 0,
    };
  }

  facts(): readonly EpisodeFacts[] {
    return this.#current()?.facts ?? [];
  }

  malformed(): readonly MalformedLine[] {
    return this.#current()?.malformed ?? [];
  }

  superseded(): number {
    return this.#current()?.superseded ?? 0;
  }

  storedOverview(): Overview | undefined {
    return this.#status.state === 'ready' ? this.#storedOverview : undefined;
  }

  /** The facts of a line (binary search: facts are in file order). */
  #factsAt(line: number): EpisodeFacts | undefined {
    const facts = this.facts();
    let lo = 0;
    let hi = facts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const f = facts[mid] as EpisodeFacts;
      if (f.line === line) return f;
      if (f.line < line) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The index once it covers `line` (the part indexed so far, or the complete index). */
  async #covering(line: number): Promise<JsonlIndex | undefined> {
    void this.ready(); // indexes again first when the file changed
    for (;;) {
      const index = this.#current();
      if (this.#status.state !== 'indexing' || (index !== undefined && line < index.spans.count))
        return index;
      // wait for one more segment, or the end
      await this.indexed((this.#builder?.episodes ?? 0) + 1);
    }
  }

  #task(record: Record<string, unknown>): { task?: unknown; note?: string } {
    if (this.#tasks === undefined) {
      return {
        note: this.kind === 'jsonl' ? 'tasks not given (pass the run folder)' : 'tasks.json not loaded',
      };
    }
    const byIndex = typeof record.task_index === 'number' ? this.#tasks[record.task_index] : undefined;
    const matches = (t: unknown) =>
      typeof t === 'object' && t !== null && (t as { id?: unknown }).id === record.task_id;
    const task = matches(byIndex) ? byIndex : this.#tasks.find(matches);
    return task === undefined ? { note: `task ${String(record.task_id)} is not in tasks.json` } : { task };
  }

  async #line(line: number): Promise<string> {
    const index = await this.#covering(line);
    if (index === undefined) throw new RangeError(`no line ${line}`);
    const [text] = await readSpans(this.#jsonl, [index.spans.get(line)]);
    return text ?? '';
  }

  async episode(line: number): Promise<EpisodeDetail> {
    const text = await this.#line(line);
    const bad = this.malformed().find((m) => m.line === line);
    const noDiff = { available: false as const, reason: 'the record is not readable' };
    if (bad !== undefined) {
      return {
        line,
        format: 'cove',
        malformed: { reason: bad.reason, text: text.slice(0, 4000) },
        stateDiff: noDiff,
      };
    }
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(text) as Record<string, unknown>;
    } catch (e) {
      const reason = `not JSON (${(e as Error).message})`;
      return { line, format: 'cove', malformed: { reason, text: text.slice(0, 4000) }, stateDiff: noDiff };
    }
    const { task, note } = this.#task(record);
    const facts = this.#factsAt(line);
    return coveDetail(line, record, facts, task, note, this.#tasks !== undefined);
  }

  async previews(lines: readonly number[], chars: number): Promise<Map<number, string>> {
    const index = await this.#covering(Math.max(-1, ...lines));
    const out = new Map<number, string>();
    if (index === undefined) return out;
    const wanted = lines.filter((l) => l >= 0 && l < index.spans.count);
    const texts = await readSpans(
      this.#jsonl,
      wanted.map((l) => index.spans.get(l)),
    );
    wanted.forEach((line, i) => {
      try {
        const r = JSON.parse(texts[i] ?? '') as { messages?: { role?: unknown; content?: unknown }[] };
        const first = (r.messages ?? []).find((m) => m.role === 'user' && typeof m.content === 'string');
        if (first !== undefined) out.set(line, String(first.content).slice(0, chars));
      } catch {
        // malformed lines have no preview
      }
    });
    return out;
  }

  search(text: string): Promise<ReadonlySet<number>> {
    const known = this.#searches.get(text);
    if (known !== undefined) return known;
    const found = this.#search(text);
    this.#searches.set(text, found);
    if (this.#searches.size > 8) this.#searches.delete(this.#searches.keys().next().value as string);
    return found;
  }

  async #search(text: string): Promise<ReadonlySet<number>> {
    // the search reads every record: it waits for the complete index
    await this.ready();
    const index = this.#index;
    if (index === undefined || text === '') return new Set();
    return searchRecords(this.#jsonl, index, text);
  }

  async stateDiff(line: number): Promise<StateDiffResult> {
    const none = (why: string): StateDiffResult => ({
      available: false,
      notes: [why],
      entities: [],
      divergences: [],
    });
    if (this.#tasksFile === undefined || this.#tasks === undefined)
      return none('no tasks.json: the state diff needs the run folder (its tasks and DB)');
    const text = await this.#line(line);
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return none('the record is not readable');
    }
    const { task } = this.#task(record);
    if (task === undefined) return none(`task ${String(record.task_id)} is not in tasks.json`);
    const tasksFile = this.#tasksFile;
    this.#diffContext ??= Promise.resolve().then(() => ({ tasksFile, domains: new Map() }));
    const context = await this.#diffContext;
    return coveStateDiff(context, record, task);
  }
}
