import type { EpisodeFacts, MalformedLine } from './facts.js';
import type { Overview } from './overview.js';

/** One message as the page shows it: OpenAI chat shape, with τ²'s tool error flag where known. */
export interface ViewMessage {
  readonly role: string;
  readonly content: string | null;
  readonly tool_calls?: readonly { id: string; name: string; arguments: string }[];
  readonly tool_call_id?: string;
  readonly name?: string;
  /** The tool call failed (τ²'s flag; for cove records, a tool text starting with `Error:`). */
  readonly error?: boolean;
  readonly reasoning_content?: string;
  /** Tokens and cost of the model call that produced the message. */
  readonly usage?: Readonly<Record<string, number>>;
}

/** An episode as the page shows it. */
export interface EpisodeDetail {
  readonly line: number;
  readonly format: 'cove' | 'tau2';
  /** Set when the line is not a readable record: the reason and the start of its text. */
  readonly malformed?: { readonly reason: string; readonly text: string };
  readonly facts?: EpisodeFacts;
  /** The record's fields but `messages` and `tools` (verification, evaluation, usage, τ²'s reward_info, …). */
  readonly record?: Readonly<Record<string, unknown>>;
  readonly messages?: readonly ViewMessage[];
  /** The task of the episode (τ² fields and the `cove` block), when the source has its tasks. */
  readonly task?: unknown;
  /** Why there is no task, when there is none. */
  readonly taskNote?: string;
  /** Whether a state diff can be computed, or why not. */
  readonly stateDiff: { readonly available: true } | { readonly available: false; readonly reason: string };
}

/** Progress of a source's index. */
export interface SourceStatus {
  readonly state: 'indexing' | 'ready' | 'failed';
  readonly bytesDone: number;
  readonly bytesTotal: number;
  readonly error?: string;
}

/**
 * What a source's facts, malformed lines and counts cover right now. While a large file is being indexed, the
 * answers cover its first `bytes` bytes only (`complete: false`): counts are then those of that part, not of the
 * run, and the page says so.
 */
export interface Coverage {
  /** The index is complete: counts are the run's. */
  readonly complete: boolean;
  /** Bytes of the file, from its start, that the answers cover; and the file's size when indexing began. */
  readonly bytes: number;
  readonly bytesTotal: number;
  /** Lines of the file covered (episodes, malformed and blank lines). */
  readonly lines: number;
}

/** One entity of a state diff: its text in the base, after the episode, and after the gold actions. */
export interface EntityStateDiff {
  readonly collection: string;
  readonly key: string;
  /** τ²-hash style JSON text of the entity (`null`: absent). */
  readonly base: string | null;
  readonly final: string | null;
  readonly gold: string | null;
  /** The episode left it as the gold actions do. */
  readonly match: boolean;
  /** Ids of the episode's tool calls that changed it. */
  readonly changedBy: readonly string[];
}

/** What the state-diff panel shows. */
export interface StateDiffResult {
  readonly available: boolean;
  /** Why not available, or a note (e.g. where a replayed tool output differed from the recorded one). */
  readonly notes: readonly string[];
  readonly entities: readonly EntityStateDiff[];
  /** Replayed calls whose output differed from the recorded tool message (the diff is then unreliable). */
  readonly divergences: readonly { call_id: string; tool: string }[];
}

/**
 * A run, a trajectories file or a τ² results file opened for viewing. Facts are in memory; records are read
 * when asked for.
 */
export interface ViewSource {
  readonly format: 'cove' | 'tau2';
  /** What was given: `run` folder, `jsonl` file or τ² `results` file. */
  readonly kind: 'run' | 'jsonl' | 'results';
  readonly path: string;
  readonly label: string;
  /** The files the source reads (absolute paths); nothing else is read. */
  readonly files: readonly string[];
  /** Things the page should say about the source (missing tasks, …). */
  readonly notes: readonly string[];
  status(): SourceStatus;
  /** Resolves when the index is complete. @throws what building it threw. */
  ready(): Promise<void>;
  /**
   * Resolves when the index is complete, or when the part indexed so far holds at least `episodes` episodes:
   * `facts()` and the rest may then cover a first part of the file only (see {@link ViewSource.coverage}).
   * @throws what building the index threw.
   */
  indexed(episodes: number): Promise<void>;
  /** What `facts()`, `malformed()` and `superseded()` cover now. */
  coverage(): Coverage;
  /** The facts of the episodes indexed so far (all of them once the index is complete), in file order. */
  facts(): readonly EpisodeFacts[];
  malformed(): readonly MalformedLine[];
  /** Lines left out because a later line had the same id. */
  superseded(): number;
  /**
   * Task id → fingerprint of the task definition (see `task-print.ts`), when the source holds its tasks
   * (a run folder's tasks.json, a τ² results file's tasks); `undefined` when it does not.
   */
  taskPrints?(): ReadonlyMap<string, string> | undefined;
  /** The overview of the current index when it was stored with it (an index sidecar), else `undefined`. */
  storedOverview?(): Overview | undefined;
  /** The episode at `line` (waits for the index to reach it). @throws {RangeError} when there is no such line. */
  episode(line: number): Promise<EpisodeDetail>;
  /** Lines whose messages contain `text` (case-insensitive for ASCII letters). */
  search(text: string): Promise<ReadonlySet<number>>;
  stateDiff(line: number): Promise<StateDiffResult>;
  /** First user message of some lines (for the list), at most `chars` characters each. */
  previews(lines: readonly number[], chars: number): Promise<Map<number, string>>;
}
