import type { z } from 'zod';
import type { Rng } from '../core/rng.js';
import type { ApiMessage } from '../llm/chat-model.js';
import type { RoleName } from '../llm/config.js';

/**
 * The contract of a model-driven synthesis stage (docs/synthesis-stages.md). A stage reads records (JSON Lines,
 * validated by `input`), groups them into units of work, runs each unit with a {@link UnitContext} (the chat model,
 * a seeded random stream, the settings, usage recording) and returns the unit's output records (validated by
 * `output`). The runner (run-stage.ts) writes them, resumes after a kill and writes `summary.json`.
 */

/** The stages cove ships; each is also the `x-cove-role` of its model calls (cove mock-llm answers by it). */
export const STAGE_NAMES = ['questions', 'tools', 'expand', 'schemas', 'sql', 'tasks', 'judge'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** Every record carries its content id. */
export interface StageRecord {
  readonly id: string;
}

/** A unit of work: input records processed together (one model conversation, usually). */
export interface StageUnit<I> {
  /** Content id of the unit (stable across runs for the same input records): what resume keys on. */
  readonly key: string;
  /** A readable name sent as `x-cove-task-id` (a tool name, a question id); cove mock-llm scripts key on it. */
  readonly label: string;
  readonly records: readonly I[];
}

/** A chat reply as a stage sees it. */
export interface StageReply {
  readonly content: string;
  readonly reasoning?: string;
}

/** Options of one model call. */
export interface ChatOptions {
  /** Overrides the unit's label as `x-cove-task-id`. */
  readonly label?: string;
}

/** Options of a call whose reply must be JSON of a schema. */
export interface ChatJsonOptions extends ChatOptions {
  /**
   * Extra check after the schema: returns a reason to send back to the model, or undefined when the value is
   * usable.
   */
  readonly check?: (value: unknown) => string | undefined;
}

/** The result of {@link UnitContext.chatJson}: the value, and the conversation including the accepted reply. */
export interface JsonReply<T> {
  readonly value: T;
  /** The messages sent plus the replies and corrections exchanged, ending with the accepted assistant reply. */
  readonly messages: readonly ApiMessage[];
}

/** What a unit's run function gets. */
export interface UnitContext {
  readonly stage: string;
  /** The stage's settings (validated by the stage's `settings` schema). */
  readonly settings: Readonly<Record<string, unknown>>;
  /** The run's seed (`--seed`). */
  readonly seed: number;
  /** A random stream derived from the seed and the unit's key: same seed, same unit, same draws. */
  readonly rng: Rng;
  /** The unit's label (see {@link StageUnit.label}). */
  readonly label: string;
  /** True when a model is configured (`--model`); `chat` throws otherwise. */
  readonly hasModel: boolean;
  /** One completion; tokens and cost are recorded for the unit. @throws {ConfigError} without a model. */
  chat(messages: readonly ApiMessage[], options?: ChatOptions): Promise<StageReply>;
  /**
   * A completion whose content must be JSON matching `schema` (a ```json fence around it is accepted). When it is
   * not, the reply and the reason go back to the model, up to `json_retries` times (a stage setting, default 2);
   * each retry is counted as `json_retries` in the summary.
   * @throws {StageJsonError} when the retries are used up.
   */
  chatJson<S extends z.ZodType>(
    messages: readonly ApiMessage[],
    schema: S,
    options?: ChatJsonOptions,
  ): Promise<JsonReply<z.output<S>>>;
  /** Adds `n` to the unit's counter `name` (summed into summary.json `counts`). */
  count(name: string, n?: number): void;
  /** Records a note (e.g. why a tool was dropped); kept in summary.json `notes`. */
  note(text: string): void;
}

/** A command-line flag of `cove synth <stage>` that sets one setting (e.g. `--repairs <n>` → `repairs`). */
export interface StageFlag {
  /** Commander syntax, e.g. `--repairs <n>`. */
  readonly flag: string;
  readonly setting: string;
  readonly description: string;
  /** How the flag's text becomes the setting's value. @defaultValue 'string' */
  readonly type?: 'string' | 'int' | 'number';
}

/** A stage: its name, record schemas, settings schema, how it groups records and runs a unit. */
export interface Stage<I extends StageRecord = StageRecord, O extends StageRecord = StageRecord> {
  readonly name: string;
  /** One line for `cove synth --help`. */
  readonly description: string;
  /** Flags of `cove synth <stage>` besides the common ones (settings can always be given with `--set k=v`). */
  readonly flags?: readonly StageFlag[];
  /**
   * Settings that name files (e.g. `db`): in a pipeline file they are read from the pipeline file's folder, like
   * every other path there (on the command line, from the working folder).
   */
  readonly pathSettings?: readonly string[];
  /** The model role whose config (`roles.<role>` of the config file) a stage uses. @defaultValue 'synth' */
  readonly role?: RoleName;
  readonly input: z.ZodType<I>;
  readonly output: z.ZodType<O>;
  /** Validates the stage's settings (flags and the pipeline config's `settings`); defaults filled in. */
  readonly settings: z.ZodType<Record<string, unknown>>;
  /**
   * A stage that can start a pipeline makes its input records from its settings (e.g. `--db` for `questions`)
   * when no input file is given. Settings are the validated ones.
   */
  sourceRecords?(settings: Readonly<Record<string, unknown>>): readonly I[];
  /** Groups input records into units. @defaultValue one unit per record, keyed and labelled by its id. */
  units?(records: readonly I[]): StageUnit<I>[];
  /** Runs one unit: returns its output records (in a deterministic order). */
  run(unit: StageUnit<I>, ctx: UnitContext): Promise<readonly O[]>;
}

/** One record per unit: the default grouping. */
export function unitPerRecord<I extends StageRecord>(records: readonly I[]): StageUnit<I>[] {
  return records.map((r) => ({ key: r.id, label: r.id, records: [r] }));
}

/** Raised when a model's reply stays unusable after the JSON retries. */
export class StageJsonError extends Error {
  readonly stage: string;
  readonly label: string;
  constructor(stage: string, label: string, reason: string) {
    super(`stage ${stage}, ${label}: the model's reply is not usable JSON after the retries: ${reason}`);
    this.name = 'StageJsonError';
    this.stage = stage;
    this.label = label;
  }
}
