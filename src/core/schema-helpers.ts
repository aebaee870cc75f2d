import { z } from 'zod';
import { InputFileError, jsonPath } from './errors.js';
import { type PyValue, pyTypeName } from './py-value.js';

/** Lets a zod object schema validate a Python dict (a Map) as well as a plain object. */
export function model<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v instanceof Map ? Object.fromEntries(v) : v), schema);
}

/** A Python `float` field: accepts ints (as pydantic's lax mode does) and stores a float. */
export const pyFloat = z.union([z.number(), z.bigint().transform((v) => Number(v))]);

/** A Python `dict[str, V]` kept as an ordered Map. */
export function pyDictOf<V extends z.ZodType>(value: V) {
  return z.map(z.string(), value);
}

/** Formats a zod issue path as a JSON path (`$.orders["#W1"].items[0].price`). */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) out = jsonPath(out, typeof key === 'number' ? key : String(key));
  return out;
}

/**
 * Validates `value` (read from `file`) against `schema`.
 * @throws {InputFileError} naming the file, the JSON path of the first problem and what was expected.
 */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown, file: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new InputFileError(file, '$', 'invalid');
  throw new InputFileError(file, formatIssuePath(issue.path), describeIssue(issue, value));
}

/** The value found at a zod issue path inside dicts (Maps), objects and lists, if any. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (v instanceof Map) v = v.get(key);
    else if (v !== null && typeof v === 'object') v = (v as Record<PropertyKey, unknown>)[key];
    else return undefined;
  }
  return v;
}

/** A zod issue in Python's vocabulary: `expected string, got int` rather than `received bigint`. */
export function describeIssue(issue: z.core.$ZodIssue, root: unknown): string {
  if (issue.code !== 'invalid_type') return issue.message;
  const v = valueAt(root, issue.path);
  if (v === undefined) return `missing (${issue.message.replace(/, received undefined$/, '')})`;
  return `${issue.message.replace(/, received \w+$/, '')}, got ${pyTypeName(v as PyValue)}`;
}
