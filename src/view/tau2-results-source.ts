import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { ConfigError, InputFileError } from '../core/errors.js';
import { loadDbFile } from '../domains/load-db.js';
import { getDomain } from '../domains/registry.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import { resolveTau2DomainDir } from '../tau2/data-dir.js';
import type { EpisodeFacts, MalformedLine } from './facts.js';
import { tau2Facts, tau2Messages } from './normalize.js';
import { textMatches } from './search.js';
import type { Coverage, EpisodeDetail, SourceStatus, StateDiffResult, ViewSource } from './source.js';
import { diffAgainstGold, recordedCalls, tau2GoldState } from './state-diff.js';
import { taskPrints } from './task-print.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});

/** True when a parsed JSON value looks like τ²'s `Results` (`tau2-spec.md` §7.4): `simulations` and `tasks` lists. */
export function isTau2Results(value: unknown): boolean {
  const v = obj(value);
  return Array.isArray(v.simulations) && Array.isArray(v.tasks);
}

/**
 * A τ² results.json (`Results.save`: `{timestamp, info, tasks, simulations}`) opened for viewing. The file is one
 * JSON document, so it is parsed whole; each simulation becomes an episode (reward from `reward_info`). State
 * diffs replay the simulation's tool calls on τ²'s DB from the τ² data directory (`--tau2-data`,
 * `$COVE_TAU2_DATA`, or an ancestor of the results file), for domains cove has.
 */
export class Tau2ResultsSource implements ViewSource {
  readonly format = 'tau2' as const;
  readonly kind = 'results' as const;
  readonly path: string;
  readonly label: string;
  readonly files: string[];
  readonly notes: string[] = [];
  readonly #simulations: Obj[];
  readonly #tasks = new Map<string, Obj>();
  #prints: Map<string, string> | undefined;
  readonly #facts: EpisodeFacts[] = [];
  readonly #malformed: MalformedLine[] = [];
  readonly #domain: string;
  readonly #tau2Data: string | undefined;
  #base: EnvironmentBase | undefined;

  /**
   * @param value the parsed file (see {@link isTau2Results}).
   * @param tau2Data `--tau2-data`, else `$COVE_TAU2_DATA` (the caller passes it).
   */
  constructor(path: string, value: unknown, tau2Data?: string) {
    this.path = resolve(path);
    this.label = basename(this.path);
    this.files = [this.path];
    this.#tau2Data = tau2Data;
    const v = obj(value);
    const info = obj(v.info);
    this.#domain = String(obj(info.environment_info).domain_name ?? '');
    for (const t of v.tasks as unknown[]) {
      const task = obj(t);
      if (typeof task.id === 'string') this.#tasks.set(task.id, task);
    }
    const agent = String(obj(info.agent_info).llm ?? '');
    const user = String(obj(info.user_info).llm ?? '');
    this.#simulations = (v.simulations as unknown[]).map(obj);
    this.#simulations.forEach((s, i) => {
      if (!Array.isArray(s.messages) || typeof s.task_id !== 'string') {
        this.#malformed.push({ line: i, reason: `simulations[${i}]: no messages list or task_id` });
        return;
      }
      const facts = tau2Facts(i, s, this.#tasks.get(s.task_id));
      this.#facts.push({ ...facts, agent, user, domain: this.#domain || facts.domain });
    });
    this.notes.push(
      `τ² results (git commit ${String(info.git_commit ?? 'unknown')}), agent ${agent}, user ${user}`,
    );
  }

  taskPrints(): ReadonlyMap<string, string> {
    this.#prints ??= taskPrints([...this.#tasks.values()]);
    return this.#prints;
  }

  /**
   * Reads and recognises a results file.
   * @throws {InputFileError} when it is not JSON or not τ² results.
   */
  static read(path: string, tau2Data?: string): Tau2ResultsSource {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      throw new InputFileError(path, '$', `not readable JSON (${(e as Error).message})`);
    }
    if (!isTau2Results(value))
      throw new InputFileError(path, '$', 'not a τ² results file (expected "tasks" and "simulations" lists)');
    return new Tau2ResultsSource(path, value, tau2Data);
  }

  status(): SourceStatus {
    return { state: 'ready', bytesDone: 0, bytesTotal: 0 };
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  /** The file is parsed whole when the source is made: always complete. */
  indexed(): Promise<void> {
    return Promise.resolve();
  }

  coverage(): Coverage {
    return { complete: true, bytes: 0, bytesTotal: 0, lines: this.#simulations.length };
  }

  facts(): readonly EpisodeFacts[] {
    return this.#facts;
  }

  malformed(): readonly MalformedLine[] {
    return this.#malformed;
  }

  superseded(): number {
    return 0;
  }

  #simulation(line: number): Obj {
    const s = this.#simulations[line];
    if (s === undefined) throw new RangeError(`no simulation ${line}`);
    return s;
  }

  async episode(line: number): Promise<EpisodeDetail> {
    const s = this.#simulation(line);
    const bad = this.#malformed.find((m) => m.line === line);
    if (bad !== undefined) {
      return {
        line,
        format: 'tau2',
        malformed: { reason: bad.reason, text: JSON.stringify(s).slice(0, 4000) },
        stateDiff: { available: false, reason: 'the simulation is not readable' },
      };
    }
    const task = this.#tasks.get(String(s.task_id));
    const { messages: _m, ...record } = s;
    return {
      line,
      format: 'tau2',
      ...(this.#facts.find((f) => f.line === line) === undefined
        ? {}
        : { facts: this.#facts.find((f) => f.line === line) as EpisodeFacts }),
      record,
      messages: tau2Messages(s),
      ...(task === undefined
        ? { taskNote: `task ${String(s.task_id)} is not in the results file` }
        : { task }),
      stateDiff: { available: true },
    };
  }

  async previews(lines: readonly number[], chars: number): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (const line of lines) {
      const s = this.#simulations[line];
      const first = (Array.isArray(s?.messages) ? s.messages : []).map(obj).find((m) => m.role === 'user');
      if (typeof first?.content === 'string') out.set(line, first.content.slice(0, chars));
    }
    return out;
  }

  async search(text: string): Promise<ReadonlySet<number>> {
    const hits = new Set<number>();
    this.#simulations.forEach((s, i) => {
      if (textMatches(JSON.stringify(s.messages ?? []), text)) hits.add(i);
    });
    return hits;
  }

  async stateDiff(line: number): Promise<StateDiffResult> {
    const none = (why: string): StateDiffResult => ({
      available: false,
      notes: [why],
      entities: [],
      divergences: [],
    });
    const s = this.#simulation(line);
    const task = this.#tasks.get(String(s.task_id));
    if (task === undefined) return none(`task ${String(s.task_id)} is not in the results file`);
    try {
      if (this.#base === undefined) {
        const domain = getDomain(this.#domain);
        const dir = resolveTau2DomainDir(this.#domain, { explicit: this.#tau2Data, tasksFile: this.path });
        this.#base = loadDbFile(domain, `${dir}/db.json`, { expectTau2Pristine: true }).base;
        this.files.push(`${dir}/db.json`);
      }
    } catch (e) {
      if (e instanceof ConfigError || e instanceof InputFileError) return none(`no state diff: ${e.message}`);
      throw e;
    }
    return diffAgainstGold(this.#base, 'parity', tau2GoldState(this.#base, task), recordedCalls(s.messages));
  }
}
