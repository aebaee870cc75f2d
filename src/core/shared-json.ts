/** Parsed JSON texts shared by the whole process, keyed by the text (bounded: cleared when full). */
const parsed = new Map<string, unknown>();
const MAX_ENTRIES = 4096;

function deepFreeze(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * `JSON.parse(text)`, parsed once per distinct text and shared: tool outputs repeat across episodes (a read
 * tool returns the same text for the same unchanged entity, and product details are several kB). The value
 * is deeply frozen, so a caller that tried to change it would throw instead of corrupting other episodes.
 * @throws {SyntaxError} when `text` is not JSON.
 */
export function parseSharedJson(text: string): unknown {
  let value = parsed.get(text);
  if (value === undefined) {
    value = deepFreeze(JSON.parse(text));
    if (parsed.size >= MAX_ENTRIES) parsed.clear();
    parsed.set(text, value);
  }
  return value;
}
