/**
 * Python values as cove carries them, so that τ²'s Python semantics survive the trip through JavaScript.
 *
 * | Python | JavaScript |
 * |---|---|
 * | `None` | `null` |
 * | `bool` | `boolean` |
 * | `int` (arbitrary precision) | `bigint` |
 * | `float` | `number` |
 * | `str` | `string` |
 * | `list` | `PyValue[]` |
 * | `dict` (insertion-ordered) | `Map<string, PyValue>` |
 *
 * Maps are used for dicts because plain objects reorder array-index-like keys (`"1656367028"` would jump
 * ahead of `"9523456873"`), which would change τ²'s output order.
 */
export type PyValue = null | boolean | bigint | number | string | PyValue[] | PyDict;

/** A Python `dict`: string keys in insertion order. */
export type PyDict = Map<string, PyValue>;

/** True for a Python dict. */
export function isPyDict(value: PyValue | undefined): value is PyDict {
  return value instanceof Map;
}

/** Python's `type(value).__name__` for a value. */
export function pyTypeName(value: PyValue | undefined): string {
  if (value === null || value === undefined) return 'NoneType';
  switch (typeof value) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'str';
    default:
      return Array.isArray(value) ? 'list' : 'dict';
  }
}

/** Builds a dict from entries in order (a convenience for tests and builders). */
export function pyDict(entries: Record<string, PyValue> | [string, PyValue][]): PyDict {
  return new Map(Array.isArray(entries) ? entries : Object.entries(entries));
}

/**
 * Converts plain JSON-ish JavaScript data to a PyValue: objects become dicts, integral numbers become ints
 * unless `floats` is set. Use only on data whose integer/float distinction is not meaningful.
 */
export function toPyValue(value: unknown): PyValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'boolean' || typeof value === 'string' || typeof value === 'bigint') return value;
  if (Array.isArray(value)) return value.map(toPyValue);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [String(k), toPyValue(v)]));
  return new Map(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toPyValue(v)]));
}

/**
 * Converts a PyValue to plain JavaScript data (dicts → objects, ints → numbers when safe, else strings).
 * Loses key order of array-index-like keys and the int/float distinction: for display and schemas only.
 */
export function fromPyValue(value: PyValue): unknown {
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (Array.isArray(value)) return value.map(fromPyValue);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[k] = fromPyValue(v);
    return out;
  }
  return value;
}

/** Python `==` on two values (`1 == 1.0 == True`, dicts by content, lists in order). */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  const na = pyNumeric(a);
  const nb = pyNumeric(b);
  if (na !== undefined && nb !== undefined) {
    if (typeof na === 'bigint' && typeof nb === 'bigint') return na === nb;
    if (typeof na === 'number' && typeof nb === 'number') return na === nb;
    const [i, f] = typeof na === 'bigint' ? [na, nb as number] : [nb as bigint, na as number];
    return Number.isInteger(f) && BigInt(f) === i;
  }
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a === null || b === null) return a === b;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i] as PyValue));
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) {
      if (!b.has(k) || !pyEquals(v, b.get(k) as PyValue)) return false;
    }
    return true;
  }
  return false;
}

function pyNumeric(v: PyValue): bigint | number | undefined {
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  return undefined;
}

/** Compares two strings by Unicode code point, as Python's `sorted()` and `sort_keys` do. */
export function comparePyStr(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) {
      const sa = ca >= 0xd800 && ca <= 0xdfff;
      const sb = cb >= 0xd800 && cb <= 0xdfff;
      if (sa === sb) return ca - cb;
      // a surrogate (astral code point) sorts after every BMP code point
      return sa ? 1 : -1;
    }
  }
  return a.length - b.length;
}
