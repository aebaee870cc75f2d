import { ToolError } from '../core/errors.js';
import { pyFloatRepr } from '../core/py-float.js';
import { comparePyStr, type PyValue, pyEquals, pyTypeName } from '../core/py-value.js';

/**
 * The few Python operations that τ² tool bodies apply to raw, unvalidated arguments, with Python's results
 * and exception messages, so ill-typed arguments fail (or succeed) exactly where τ² does.
 */

/** `repr(value)` for the value kinds JSON can carry. */
export function pyRepr(value: PyValue): string {
  if (typeof value === 'string') return reprStr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (value instanceof Map)
    return `{${[...value].map(([k, v]) => `${reprStr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  return pyStr(value);
}

/** `str(value)`. */
export function pyStr(value: PyValue): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return pyFloatRepr(value);
  return pyRepr(value);
}

function reprStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** `iter(value)` as a list: a str yields its characters, a dict its keys. */
export function pyIter(value: PyValue): PyValue[] {
  if (typeof value === 'string') return [...value];
  if (Array.isArray(value)) return value;
  if (value instanceof Map) return [...value.keys()];
  throw new ToolError(`'${pyTypeName(value)}' object is not iterable`);
}

/** `len(value)`. */
export function pyLen(value: PyValue): number {
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (value instanceof Map) return value.size;
  throw new ToolError(`object of type '${pyTypeName(value)}' has no len()`);
}

/** `container.count(item)` for a list or str receiver. */
export function pyCount(container: PyValue, item: PyValue): number {
  if (Array.isArray(container)) return container.filter((x) => pyEquals(x, item)).length;
  if (typeof container === 'string') {
    if (typeof item !== 'string') throw new ToolError(`must be str, not ${pyTypeName(item)}`);
    if (item === '') return [...container].length + 1;
    return container.split(item).length - 1;
  }
  throw new ToolError(`'${pyTypeName(container)}' object has no attribute 'count'`);
}

/**
 * The string key for `key in some_dict` / `some_dict[key]` on a dict with str keys: a str is itself, an
 * unhashable value raises `unhashable type: '<type>'`, anything else matches no key (`undefined`).
 */
export function pyDictKey(key: PyValue): string | undefined {
  if (typeof key === 'string') return key;
  if (Array.isArray(key) || key instanceof Map) throw new ToolError(`unhashable type: '${pyTypeName(key)}'`);
  return undefined;
}

/** `value in {...}` for a set of strings. */
export function pyInStrSet(value: PyValue, set: readonly string[]): boolean {
  const key = pyDictKey(value);
  return key !== undefined && set.includes(key);
}

/** `sorted(iterable)` for iterables of strings (code-point order, duplicates kept). */
export function pySortedStrings(value: PyValue): string[] {
  const items = pyIter(value);
  const strings = items.filter((x): x is string => typeof x === 'string');
  if (strings.length !== items.length) {
    const other = items.find((x) => typeof x !== 'string') ?? null;
    if (strings.length > 0) {
      throw new ToolError(`'<' not supported between instances of '${pyTypeName(other)}' and 'str'`);
    }
    throw new ToolError(`cove cannot sort values of type '${pyTypeName(other)}' here`);
  }
  return strings.sort(comparePyStr);
}

const STRING_TYPE_URL = 'https://errors.pydantic.dev/2.13/v/string_type';

/** pydantic's abbreviated `input_value` repr (long values are cut in the middle). */
export function pydanticInputRepr(value: PyValue): string {
  const r = pyRepr(value);
  return r.length > 50 ? `${r.slice(0, 25)}...${r.slice(-24)}` : r;
}

/**
 * Builds a pydantic model whose fields are all `str`, as τ² does with `UserAddress(...)`: a non-str field
 * raises pydantic 2.13's `ValidationError` text (all failing fields, in model order). Long `input_value`s are
 * abbreviated more simply than pydantic does (a documented deviation; the first line is exact).
 */
export function pyStrModel(
  modelName: string,
  fields: readonly string[],
  values: Readonly<Record<string, PyValue>>,
) {
  const errors: string[] = [];
  const out: Record<string, string> = {};
  for (const field of fields) {
    const v = values[field] ?? null;
    if (typeof v === 'string') out[field] = v;
    else {
      errors.push(
        `${field}\n  Input should be a valid string [type=string_type, input_value=${pydanticInputRepr(v)}, ` +
          `input_type=${pyTypeName(v)}]\n    For further information visit ${STRING_TYPE_URL}`,
      );
    }
  }
  if (errors.length > 0) {
    const n = errors.length;
    throw new ToolError(`${n} validation error${n === 1 ? '' : 's'} for ${modelName}\n${errors.join('\n')}`);
  }
  return out;
}
