import { closeSync, existsSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError, InputFileError } from '../core/errors.js';
import { canonicalSha256 } from '../core/hash.js';
import type { PyJsonInput } from '../core/py-json.js';
import { formatIssuePath } from '../core/schema-helpers.js';
import { MAX_JSON_DEPTH, readInputText } from '../io/read-input.js';
import { jsonNestingExceeds } from '../io/read-jsonl.js';

/**
 * Records of the synthesis stages (docs/synthesis-stages.md): JSON Lines files, one JSON object per line, each
 * with an `id` that is a content id (a hash of the record's other fields), so the same content always gets the
 * same id and a record written twice is recognised.
 */

/**
 * A bad record of a stage's input or output: names the stage, the file, the 1-based line and the field (a JSON path
 * such as `$.parameters.properties`). Its message reads `<file>: line <n> $.<field>: <reason> (stage <name>)`.
 */
export class StageRecordError extends InputFileError {
  readonly stage: string;
  readonly line: number;
  constructor(stage: string, file: string, line: number, field: string, reason: string) {
    super(file, `line ${line} ${field}`, `${reason} (stage ${stage})`);
    this.stage = stage;
    this.line = line;
  }
}

/**
 * The content id of a record: `<prefix>-` and the first 16 hex digits of the canonical SHA-256 of `content`
 * (keys sorted, so key order does not change it). `content` must not hold the id itself.
 */
export function contentId(prefix: string, content: unknown): string {
  return `${prefix}-${canonicalSha256(content as PyJsonInput).slice(0, 16)}`;
}

/** One record read from a file, with its 1-based line number. */
export interface ReadRecord<T> {
  readonly line: number;
  readonly value: T;
}

/**
 * Reads a JSON Lines file of records and validates each line against `schema`. Blank lines are skipped; a last line
 * without a newline counts as a line.
 * @throws {ConfigError} for a missing file; {@link StageRecordError} for a line that is not JSON, nests too deep, or does not match the
 *   schema (naming the stage, the file, the line and the field); InputFileError for a file that is not UTF-8.
 */
export function readRecords<S extends z.ZodType>(
  stage: string,
  file: string,
  schema: S,
): ReadRecord<z.output<S>>[] {
  if (!existsSync(file)) throw new ConfigError(`stage ${stage}: no file ${file}`);
  const text = readInputText(file, { what: `records of stage ${stage}` });
  const out: ReadRecord<z.output<S>>[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line !== '') out.push({ line: i + 1, value: parseRecord(stage, file, i + 1, line, schema) });
  });
  return out;
}

/**
 * Parses and validates one record's JSON text.
 * @throws {StageRecordError} naming the stage, file, line and field.
 */
export function parseRecord<S extends z.ZodType>(
  stage: string,
  file: string,
  line: number,
  text: string,
  schema: S,
): z.output<S> {
  if (jsonNestingExceeds(text))
    throw new StageRecordError(stage, file, line, '$', `nests deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new StageRecordError(stage, file, line, '$', `is not JSON (${(e as Error).message})`);
  }
  return validateRecord(stage, file, line, value, schema);
}

/** Validates a parsed record. @throws {StageRecordError} naming the stage, file, line and field. */
export function validateRecord<S extends z.ZodType>(
  stage: string,
  file: string,
  line: number,
  value: unknown,
  schema: S,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new StageRecordError(
    stage,
    file,
    line,
    formatIssuePath(issue?.path ?? []),
    issue === undefined ? 'invalid' : describeJsonIssue(issue),
  );
}

/** A zod issue in JSON's vocabulary: `expected string, got number`; a missing field says `missing`. */
export function describeJsonIssue(issue: z.core.$ZodIssue): string {
  const text = issue.message.replace(/^Invalid input: /, '');
  if (issue.code === 'invalid_type' && / received undefined$/.test(text))
    return `missing (${text.replace(/, received undefined$/, '')})`;
  return text.replace(/, received (\w+)$/, ', got $1');
}

/** Appends lines to a file and flushes them to disk before returning (so a kill loses at most a torn tail). */
export function appendLines(file: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, `${lines.join('\n')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
