import { pyJsonFloat } from './py-float.js';
import { comparePyStr, type PyValue } from './py-value.js';

/** A JSON value as Python's `json.dumps` sees it; plain objects stand for models with fixed field names. */
export type PyJsonInput = PyValue | PyModel | readonly PyJsonInput[] | ReadonlyMap<string, PyJsonInput>;
/** A model dump written as a plain object (field names must not look like array indices). */
export type PyModel = { readonly [field: string]: PyJsonInput };

/** Options of {@link pyJsonDumps}; the defaults are Python's. */
export interface PyJsonOptions {
  /** `indent` of `json.dumps`; with it the item separator becomes `","` and newlines are written. */
  readonly indent?: number;
  /** `sort_keys`: order dict keys by code point. @defaultValue false */
  readonly sortKeys?: boolean;
  /** `ensure_ascii`: escape every character outside `' '..'~'` as `\uXXXX`. @defaultValue true */
  readonly ensureAscii?: boolean;
  /** `separators`: item and key separators. @defaultValue `[', ', ': ']` (`[',', ': ']` with indent) */
  readonly separators?: readonly [string, string];
  /** Write floats with an integral value as ints (`2.0` → `2`), as cove's canonical form does. */
  readonly integralFloatsAsInts?: boolean;
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

const NEEDS_ESCAPE_ASCII = /[^ -~]|["\\]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters
const NEEDS_ESCAPE_RAW = /[\u0000-\u001f"\\]/;

/** Python `json.dumps` string literal (`encode_basestring_ascii` or `encode_basestring`). */
export function pyJsonString(s: string, ensureAscii = true): string {
  if (!(ensureAscii ? NEEDS_ESCAPE_ASCII : NEEDS_ESCAPE_RAW).test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    const code = s.charCodeAt(i);
    const escaped = ESCAPES[ch];
    if (escaped !== undefined) out += escaped;
    else if (code < 0x20 || (ensureAscii && code > 0x7e)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * Serialises a value exactly as CPython's `json.dumps(value, ...)` does: `", "`/`": "` separators, floats by
 * `repr` (`100.0`, `1e+18`, `1e-05`), ints in full, `ensure_ascii` escapes, dict keys in insertion order unless
 * `sortKeys`. Ints are `bigint`s; plain JS numbers are floats.
 */
export function pyJsonDumps(value: PyJsonInput, options: PyJsonOptions = {}): string {
  const indent = options.indent;
  const [itemSep, keySep] = options.separators ?? (indent === undefined ? [', ', ': '] : [',', ': ']);
  return writeValue(value, 0, {
    indent,
    itemSep,
    keySep,
    ensureAscii: options.ensureAscii ?? true,
    sortKeys: options.sortKeys ?? false,
    intFloats: options.integralFloatsAsInts ?? false,
  });
}

/** Resolved writer options (module-level functions, no per-call closures on this hot path). */
interface WriteContext {
  readonly indent: number | undefined;
  readonly itemSep: string;
  readonly keySep: string;
  readonly ensureAscii: boolean;
  readonly sortKeys: boolean;
  readonly intFloats: boolean;
}

function newline(ctx: WriteContext, depth: number): string {
  return ctx.indent === undefined ? '' : `\n${' '.repeat(ctx.indent * depth)}`;
}

function writeValue(v: PyJsonInput, depth: number, ctx: WriteContext): string {
  switch (typeof v) {
    case 'string':
      return pyJsonString(v, ctx.ensureAscii);
    case 'number':
      return ctx.intFloats && Number.isInteger(v) ? BigInt(v).toString() : pyJsonFloat(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      break;
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const inner = newline(ctx, depth + 1);
    let out = `[${inner}${writeValue(v[0] as PyJsonInput, depth + 1, ctx)}`;
    for (let i = 1; i < v.length; i++)
      out += `${ctx.itemSep}${inner}${writeValue(v[i] as PyJsonInput, depth + 1, ctx)}`;
    return `${out}${newline(ctx, depth)}]`;
  }
  const isMap = v instanceof Map;
  const keys = isMap ? [...(v as ReadonlyMap<string, PyJsonInput>).keys()] : Object.keys(v as PyModel);
  if (keys.length === 0) return '{}';
  if (ctx.sortKeys) keys.sort(comparePyStr);
  const inner = newline(ctx, depth + 1);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const item = isMap ? (v as ReadonlyMap<string, PyJsonInput>).get(k) : (v as PyModel)[k];
    out += `${i > 0 ? ctx.itemSep : ''}${inner}${pyJsonString(k, ctx.ensureAscii)}${ctx.keySep}${writeValue(item as PyJsonInput, depth + 1, ctx)}`;
  }
  return `${out}${newline(ctx, depth)}}`;
}
