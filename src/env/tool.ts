import type { PyJsonInput } from '../core/py-json.js';
import type { PyValue } from '../core/py-value.js';
import type { SqlConnection } from './sql.js';

/**
 * How tools behave: `parity` reproduces the reference implementation exactly, bugs included; `fixed` repairs the
 * bugs a domain documents (each domain lists its own differences, e.g. in its tools' docs and the README).
 */
export type Semantics = 'parity' | 'fixed';

/** τ²'s tool types: `read` and `generic` never change state; only `write` tools are replayed by τ²'s DB check. */
export type ToolKind = 'read' | 'write' | 'generic';

/** One parameter of a tool, in τ²'s signature order. */
export interface ToolParam {
  readonly name: string;
  /** JSON Schema of the value (`{type: 'string'}`, `{type: 'array', items: {type: 'string'}}`, …). */
  readonly schema: Readonly<Record<string, unknown>>;
  /** Description in cove's own words (shown with `text: cove`). */
  readonly description: string;
}

/** What a tool body sees: its episode's connection and the run's semantics. */
export interface ToolContext {
  readonly sql: SqlConnection;
  readonly semantics: Semantics;
}

/**
 * A tool's return value: a `string` is sent as is (τ² does not quote strings); anything else is a model dump
 * and is serialised with Python's `json.dumps` (τ²'s `Environment.to_json_str`).
 */
export type ToolOutput = string | PyJsonInput;

/** A domain tool. Bodies throw {@link ToolError} for expected failures; anything else is a bug. */
export interface ToolSpec {
  readonly name: string;
  readonly kind: ToolKind;
  readonly params: readonly ToolParam[];
  /** Description in cove's own words. */
  readonly description: string;
  /** Runs the tool. `args` holds exactly the declared parameters, raw as the model sent them. */
  run(context: ToolContext, args: Readonly<Record<string, PyValue>>): ToolOutput;
}

/** The result of one tool call as τ² records it: the message content and the error flag. */
export interface ToolResult {
  readonly content: string;
  readonly error: boolean;
}
