import type { PyDict, PyValue } from './py-value.js';

/** A JSON text that Python's `json.loads` would reject, with Python's message and position. */
export class JsonSyntaxError extends Error {
  /** 0-based character offset of the problem. */
  readonly position: number;
  readonly line: number;
  readonly column: number;
  constructor(reason: string, text: string, position: number) {
    const line = countLines(text, position);
    const column = position - text.lastIndexOf('\n', position - 1);
    super(`${reason}: line ${line} column ${column} (char ${position})`);
    this.name = 'JsonSyntaxError';
    this.position = position;
    this.line = line;
    this.column = column;
  }
}

function countLines(text: string, end: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: strings may not contain raw control characters
const SIMPLE_STRING = /[^"\\\u0000-\u001f]*/y;

/**
 * Parses JSON losslessly, with the semantics of Python's `json.loads`:
 * ints become `bigint` (any size), numbers with a fraction or exponent become `number` (floats), objects become
 * insertion-ordered `Map`s (a repeated key keeps its first position and its last value), and `NaN`, `Infinity`,
 * `-Infinity` are accepted. Control characters inside strings are rejected, as `strict=True` does.
 *
 * @throws {JsonSyntaxError} with CPython 3.11's message (`Expecting value: line 1 column 1 (char 0)`).
 */
export function parsePyJson(text: string): PyValue {
  let pos = 0;

  const skipWs = (): void => {
    while (pos < text.length && WS.has(text.charCodeAt(pos))) pos++;
  };
  const fail = (reason: string, at = pos): never => {
    throw new JsonSyntaxError(reason, text, at);
  };

  const parseString = (): string => {
    const start = pos; // at the opening quote
    pos++;
    let out = '';
    for (;;) {
      SIMPLE_STRING.lastIndex = pos;
      SIMPLE_STRING.test(text);
      out += text.slice(pos, SIMPLE_STRING.lastIndex);
      pos = SIMPLE_STRING.lastIndex;
      if (pos >= text.length) fail('Unterminated string starting at', start);
      const ch = text[pos];
      if (ch === '"') {
        pos++;
        return out;
      }
      if (ch !== '\\') fail('Invalid control character at');
      const esc = text[pos + 1];
      switch (esc) {
        case '"':
        case '\\':
        case '/':
          out += esc;
          pos += 2;
          break;
        case 'b':
          out += '\b';
          pos += 2;
          break;
        case 'f':
          out += '\f';
          pos += 2;
          break;
        case 'n':
          out += '\n';
          pos += 2;
          break;
        case 'r':
          out += '\r';
          pos += 2;
          break;
        case 't':
          out += '\t';
          pos += 2;
          break;
        case 'u': {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('Invalid \\uXXXX escape', pos + 1);
          out += String.fromCharCode(Number.parseInt(hex, 16));
          pos += 6;
          break;
        }
        default:
          if (esc === undefined) fail('Unterminated string starting at', start);
          fail('Invalid \\escape', pos);
      }
    }
  };

  const parseValue = (): PyValue => {
    skipWs();
    const code = text.charCodeAt(pos);
    if (code === 0x22) return parseString();
    if (code === 0x7b) return parseObject();
    if (code === 0x5b) return parseArray();
    if (text.startsWith('null', pos)) {
      pos += 4;
      return null;
    }
    if (text.startsWith('true', pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith('false', pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith('NaN', pos)) {
      pos += 3;
      return Number.NaN;
    }
    if (text.startsWith('Infinity', pos)) {
      pos += 8;
      return Number.POSITIVE_INFINITY;
    }
    if (text.startsWith('-Infinity', pos)) {
      pos += 9;
      return Number.NEGATIVE_INFINITY;
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m === null) return fail('Expecting value');
    pos = NUMBER.lastIndex;
    if (m[1] === undefined && m[2] === undefined) return BigInt(m[0]);
    return Number(m[0]);
  };

  const parseObject = (): PyDict => {
    const dict: PyDict = new Map();
    pos++;
    skipWs();
    if (text[pos] === '}') {
      pos++;
      return dict;
    }
    for (;;) {
      skipWs();
      if (text[pos] !== '"') fail('Expecting property name enclosed in double quotes');
      const key = parseString();
      skipWs();
      if (text[pos] !== ':') fail("Expecting ':' delimiter");
      pos++;
      dict.set(key, parseValue());
      skipWs();
      const ch = text[pos];
      if (ch === '}') {
        pos++;
        return dict;
      }
      if (ch !== ',') fail("Expecting ',' delimiter");
      pos++;
    }
  };

  const parseArray = (): PyValue[] => {
    const list: PyValue[] = [];
    pos++;
    skipWs();
    if (text[pos] === ']') {
      pos++;
      return list;
    }
    for (;;) {
      list.push(parseValue());
      skipWs();
      const ch = text[pos];
      if (ch === ']') {
        pos++;
        return list;
      }
      if (ch !== ',') fail("Expecting ',' delimiter");
      pos++;
    }
  };

  const value = parseValue();
  skipWs();
  if (pos !== text.length) fail('Extra data');
  return value;
}
