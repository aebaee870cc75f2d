/** Base class of every error cove throws on purpose. */
export abstract class CoveError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A user mistake in flags, config or environment (CLI exit code 2). */
export class ConfigError extends CoveError {}

/**
 * A malformed input file: names the file, the record and the field (as a JSON path such as
 * `$.orders["#W123"].items[0].price`), so the user can fix it without guessing.
 */
export class InputFileError extends CoveError {
  readonly file: string;
  readonly path: string;
  readonly reason: string;
  constructor(file: string, path: string, reason: string, options?: { cause?: unknown }) {
    super(`${file}: ${path}: ${reason}`, options);
    this.file = file;
    this.path = path;
    this.reason = reason;
  }
}

/**
 * An expected tool failure. The dispatcher turns it into the tool message `Error: <message>` with the error
 * flag set, exactly as τ² does with the exception it catches (τ²'s `Environment.get_response`).
 */
export class ToolError extends CoveError {}

/** Appends a JSON path segment: `.field` for identifiers, `["key"]` otherwise, `[i]` for indices. */
export function jsonPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** Thrown when an episode (or one of its model calls) is aborted through its `AbortSignal`: nothing is recorded. */
export class AbortedError extends Error {
  constructor(message = 'aborted', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AbortedError';
  }
}
