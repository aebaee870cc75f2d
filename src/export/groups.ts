import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { Tau2ResultsTask, Tau2Simulation, writeTau2Results } from '../tau2/results-file.js';
import type { ExportConversation } from './conversation.js';
import { recordConversation, simulationConversation } from './convert.js';
import type { ExportOptions } from './export.js';
import { recordInfo } from './formats/tau2.js';
import { promptResolver, tau2ResultsContext } from './prompts.js';
import type { ExportRecord } from './select.js';
import { type ExportInput, indexTrajectories, readEntries, readRunManifest, selectTau2 } from './source.js';
import { assignSplits } from './split.js';

/** A selected conversation with what it came from (the τ² format needs the original). */
export interface Item {
  readonly conv: ExportConversation;
  readonly record?: ExportRecord;
  readonly sim?: Tau2Simulation;
}

/** A group of items written to one file. */
export interface Group {
  readonly split: string;
  readonly name: string;
  readonly items: () => AsyncIterable<Item> | Iterable<Item>;
  readonly taskIds: readonly string[];
  /** Highest trial number + 1 (τ²'s `num_trials`). */
  readonly numTrials: number;
}

/** What the input gave: groups to write and facts for the card and τ²'s Info. */
export interface Built {
  readonly groups: Group[];
  readonly total: number;
  readonly selected: number;
  readonly dropped: Partial<Record<string, number>>;
  readonly damaged: number;
  readonly sourceDb: string;
  readonly benchmarkData: boolean;
  readonly run?: Record<string, unknown> | undefined;
  /** τ² format: the Info and tasks of each group. */
  readonly tau2?: (
    g: Group,
    first: Item,
  ) => {
    info: Parameters<typeof writeTau2Results>[1]['info'];
    tasks: readonly Record<string, unknown>[];
    timestamp: string;
  };
}

/** One group (`data.<ext>`, split `train`) without `--split`; else one per split, whole tasks each. */
function splitGroups<T>(
  entries: readonly T[],
  key: (e: T) => string,
  o: ExportOptions,
  ext: string,
): { split: string; name: string; entries: T[] }[] {
  if (o.splits === undefined) return [{ split: 'train', name: `data.${ext}`, entries: [...entries] }];
  const assigned = assignSplits(entries.map(key), o.splits, o.seed);
  return o.splits.map((s) => ({
    split: s.name,
    name: `${s.name}.${ext}`,
    entries: entries.filter((e) => assigned.get(key(e)) === s.name),
  }));
}

/**
 * The groups of a `trajectories.jsonl` (pass 1 done here; pass 2 runs when a group's items are iterated), with
 * the run's manifest for the card and, for `--format tau2`, τ²'s Info and the tasks from the run's `tasks.json`.
 * @throws {ConfigError} for `--format tau2` without the run's tasks.json; {@link InputFileError} for bad records
 */
export async function trajectoryGroups(
  input: Extract<ExportInput, { kind: 'trajectories' }>,
  o: ExportOptions,
  ext: string,
): Promise<Built> {
  const index = await indexTrajectories(input.file, o.select);
  const manifest = readRunManifest(input.runDir);
  const prompts = promptResolver({ ...o.tau2, near: o.tau2.near ?? input.file });
  const fingerprint = (manifest?.fingerprint ?? {}) as Record<string, unknown>;
  let benchmark = false;
  const groups = splitGroups(index.selected, (e) => e.taskKey, o, ext).map(
    (g): Group => ({
      split: g.split,
      name: g.name,
      taskIds: [...new Set(g.entries.map((e) => e.taskKey.slice(e.taskKey.indexOf('/') + 1)))],
      numTrials: g.entries.reduce((a, e) => Math.max(a, e.trial + 1), 0),
      items: function* () {
        for (const record of readEntries(input.file, g.entries)) {
          benchmark ||= record.benchmark_data;
          yield { conv: recordConversation(record, prompts(record.domain, record.settings.text)), record };
        }
      },
    }),
  );
  const source =
    typeof fingerprint.source === 'string'
      ? fingerprint.source
      : 'unknown (no run.json beside the trajectories)';
  return {
    groups,
    total: index.total,
    selected: index.selected.length,
    dropped: index.dropped,
    damaged: index.damaged.length,
    get sourceDb() {
      return source;
    },
    get benchmarkData() {
      return benchmark;
    },
    run: manifest === undefined ? undefined : { fingerprint, cove_version: manifest.cove_version ?? null },
    tau2: (g, first) => {
      const record = first.record as ExportRecord;
      const tasksFile = input.runDir === undefined ? undefined : join(input.runDir, 'tasks.json');
      if (tasksFile === undefined || !existsSync(tasksFile)) {
        throw new ConfigError(
          `--format tau2 needs the run's tasks.json beside ${input.file} (give the run folder to --in)`,
        );
      }
      const wanted = new Set(g.taskIds);
      const tasks = (JSON.parse(readFileSync(tasksFile, 'utf8')) as Record<string, unknown>[]).filter((t) =>
        wanted.has(String(t.id)),
      );
      const command = Array.isArray(manifest?.command) ? (manifest.command as string[]) : [];
      const flag = (name: string, fallback: number) => {
        const i = command.indexOf(name);
        const v = i === -1 ? Number.NaN : Number(command[i + 1]);
        return Number.isInteger(v) ? v : fallback;
      };
      const started =
        typeof manifest?.started_at === 'string' ? manifest.started_at : '1970-01-01T00:00:00.000Z';
      return {
        timestamp: started.replace('Z', ''),
        tasks,
        info: recordInfo({
          record,
          numTrials: g.numTrials,
          seed: typeof fingerprint.seed === 'number' ? fingerprint.seed : null,
          maxSteps: flag('--max-steps', 200),
          maxErrors: flag('--max-errors', 10),
          policy: prompts(record.domain, record.settings.text).policy,
          tools: record.tools,
          coveVersion: o.coveVersion,
        }),
      };
    },
  };
}

/**
 * The groups of a τ² results file: selected simulations as conversations (τ²'s agent prompt and tools from the τ²
 * data directory), and the file's own Info and tasks for `--format tau2`.
 * @throws {ConfigError} when the τ² data directory is needed and not found
 */
export function tau2Groups(
  input: Extract<ExportInput, { kind: 'tau2' }>,
  o: ExportOptions,
  ext: string,
): Built {
  const sel = selectTau2(input.file, o.select);
  const { results } = sel;
  const domain = results.info.environment_info.domain_name;
  const ctx = sel.selected.length === 0 ? undefined : tau2ResultsContext(results.info, input.file, o.tau2);
  const groups = splitGroups(sel.selected, (e) => `${domain}/${e.sim.task_id}`, o, ext).map(
    (g): Group => ({
      split: g.split,
      name: g.name,
      taskIds: [...new Set(g.entries.map((e) => e.sim.task_id))],
      numTrials: results.info.num_trials,
      items: function* () {
        for (const { sim, taskIndex } of g.entries) {
          const conv = simulationConversation(sim, {
            domain,
            taskIndex,
            systemPrompt: ctx?.systemPrompt ?? '',
            tools: ctx?.tools ?? [],
          });
          if ('skip' in conv) continue;
          yield { conv, sim };
        }
      },
    }),
  );
  return {
    groups,
    total: sel.total,
    selected: sel.selected.length,
    dropped: sel.dropped,
    damaged: 0,
    sourceDb: `τ²-bench ${domain} (db.json of the run)`,
    benchmarkData: true,
    tau2: (g) => ({
      timestamp: results.timestamp ?? '',
      info: results.info,
      tasks: results.tasks.filter((t: Tau2ResultsTask) => g.taskIds.includes(t.id)),
    }),
  };
}
