import { existsSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { ConfigError, InputFileError } from '../core/errors.js';
import { sha256Hex } from '../core/hash.js';
import { readPlainJson } from '../io/read-input.js';
import { runPaths } from './run-folder.js';
import type { RunSummary } from './summary.js';

/** One run of a comparison (`cove runs compare`): how it was made and what it gave, per graded episode. */
export interface ComparedRun {
  /** The run folder's name (or the label given). */
  readonly label: string;
  readonly dir: string;
  /** Who played the user: `scripted`, or the model with its style (`openai:m (json)`). */
  readonly user: string;
  readonly agent: string;
  /** `execute` (the database ran the calls) or `model` (a model played the tool outputs). */
  readonly tools: 'execute' | 'model';
  /** Whether the yield is verified against the database (false with model-played tool outputs). */
  readonly verified: boolean;
  readonly episodes: number;
  readonly graded_episodes: number;
  /** Trajectories in sft.jsonl ÷ graded episodes. */
  readonly yield: number;
  readonly task_yield: number;
  /** Messages per episode (user, assistant and tool messages: the paper's "turns"), mean. */
  readonly turns: number;
  /** User messages per episode, mean. */
  readonly user_turns: number;
  /** Tool calls per episode, mean. */
  readonly tool_calls: number;
  /** Prompt + completion tokens of all model calls, per episode (mean) and in total. */
  readonly tokens_per_episode: number;
  readonly tokens: number;
  readonly cost_usd: number;
  /** sha256 of the run's tasks.json (runs compared on the same tasks share it). */
  readonly tasks_sha256: string;
}

interface Fingerprint {
  readonly agent?: string;
  readonly user?: string;
  readonly user_style?: string;
  readonly tool_outputs?: string;
}

/**
 * Reads one run folder's summary.json, run.json and tasks.json into a {@link ComparedRun}.
 * @throws {InputFileError} naming the file when one is missing or not a finished run's.
 */
export function comparedRun(dir: string, label?: string): ComparedRun {
  const paths = runPaths(dir);
  for (const file of [paths.summary, paths.runJson, paths.tasksJson]) {
    if (!existsSync(file))
      throw new InputFileError(
        file,
        '$',
        'missing: not a run folder of `cove generate` (or the run has not finished once)',
      );
  }
  const s = readPlainJson(paths.summary, { what: 'the run summary' }) as RunSummary;
  const run = readPlainJson(paths.runJson, { what: 'run.json' }) as { fingerprint?: Fingerprint };
  if (typeof s.graded_episodes !== 'number' || s.per_episode === undefined || s.usage === undefined)
    throw new InputFileError(
      paths.summary,
      '$',
      'not a summary of `cove generate` (no graded_episodes, per_episode or usage)',
    );
  const f = run.fingerprint ?? {};
  const tools = (s.tool_outputs?.model ?? 0) > 0 || f.tool_outputs === 'model' ? 'model' : 'execute';
  const tokens = s.usage.prompt_tokens + s.usage.completion_tokens;
  const round = (x: number, digits = 2) => Number(x.toFixed(digits));
  return {
    label: label ?? basename(dir),
    dir,
    user:
      f.user === undefined
        ? '?'
        : f.user === 'scripted'
          ? 'scripted'
          : `${f.user} (${f.user_style ?? 'stop-token'})`,
    agent: f.agent ?? '?',
    tools,
    verified: tools === 'execute',
    episodes: s.episodes,
    graded_episodes: s.graded_episodes,
    yield: s.graded_episodes === 0 ? 0 : round(s.sft_trajectories / s.graded_episodes, 4),
    task_yield: s.task_yield,
    turns: s.per_episode.messages.mean,
    user_turns: s.per_episode.user_turns.mean,
    tool_calls: s.per_episode.tool_calls.mean,
    tokens_per_episode: s.episodes === 0 ? 0 : round(tokens / s.episodes, 1),
    tokens,
    cost_usd: s.usage.cost_usd,
    tasks_sha256: sha256Hex(readFileSync(paths.tasksJson, 'utf8')),
  };
}

/**
 * The runs of a comparison, in the order given. Entries are `DIR` or `LABEL=DIR`.
 * @throws {ConfigError} with fewer than one run; {@link InputFileError} for a folder that is not a finished run.
 */
export function compareRuns(entries: readonly string[]): ComparedRun[] {
  if (entries.length === 0) throw new ConfigError('give the run folders to compare');
  return entries.map((entry) => {
    const eq = entry.indexOf('=');
    return eq > 0
      ? comparedRun(resolve(entry.slice(eq + 1)), entry.slice(0, eq))
      : comparedRun(resolve(entry));
  });
}

/** True when every run ran the same tasks (the same tasks.json). */
export function sameTasks(runs: readonly ComparedRun[]): boolean {
  return new Set(runs.map((r) => r.tasks_sha256)).size <= 1;
}

const COLUMNS: readonly [string, (r: ComparedRun) => string][] = [
  ['run', (r) => r.label],
  ['user', (r) => r.user],
  ['tools', (r) => r.tools],
  ['episodes', (r) => String(r.graded_episodes)],
  ['yield', (r) => `${(r.yield * 100).toFixed(1)}%${r.verified ? '' : '*'}`],
  ['turns', (r) => r.turns.toFixed(2)],
  ['user turns', (r) => r.user_turns.toFixed(2)],
  ['tool calls', (r) => r.tool_calls.toFixed(2)],
  ['tokens/episode', (r) => r.tokens_per_episode.toFixed(0)],
  ['cost USD', (r) => r.cost_usd.toFixed(4)],
];

/**
 * The comparison as a Markdown table, one row per run, then the notes: a `*` yield is not verified (model-played
 * tool outputs: the share of graded episodes in sft.jsonl, which with `--allow-simulated-tools` are those that
 * ended normally and cleanly), and a warning when the runs did not run the same tasks.
 */
export function comparisonTable(runs: readonly ComparedRun[]): string {
  const rows = runs.map((r) => COLUMNS.map(([, cell]) => cell(r)));
  const widths = COLUMNS.map(([name], i) =>
    Math.max(name.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const out = [
    line(COLUMNS.map(([name]) => name)),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
  ];
  if (runs.some((r) => !r.verified))
    out.push(
      '',
      '* not verified: a model played the tool outputs, so the state never changed; the yield counts the episodes in sft.jsonl (with --allow-simulated-tools: those that ended normally and cleanly)',
    );
  if (!sameTasks(runs)) out.push('', 'note: the runs did not run the same tasks (their tasks.json differ)');
  return `${out.join('\n')}\n`;
}
