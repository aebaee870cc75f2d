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

/** Nesting depth of lists and objects {@link parsePyJson} accepts unless told otherwise. */
export const DEFAULT_MAX_DEPTH = 512;

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: strings may not contain raw control characters
const SIMPLE_STRING = /[^"\\\u0000-\u001f]*/y;

/**
 * Parses JSON losslessly, with the semantics of Python's `json.loads`:
 * ints become `bigint` (any size), numbers with a fraction or exponent become `number` (floats), objects become
 * insertion-ordered `Map`s (a repeated key keeps its first position and its last value), and `NaN`, `Infinity`,
 * `-Infinity` are accepted. Control characters inside strings are rejected, as `strict=True` does.
 *
 * Lists and objects may nest at most `maxDepth` deep (default {@link DEFAULT_MAX_DEPTH}), so a hostile file
 * gives an error naming where, not a stack overflow.
 *
 * @throws {JsonSyntaxError} with CPython 3.11's message (`Expecting value: line 1 column 1 (char 0)`), or
 *   `Nested deeper than N levels` at the list or object that goes past the limit.
 */
export function parsePyJson(text: string, options: { maxDepth?: number } = {}): PyValue {
  const parser = new Parser(text, options.maxDepth ?? DEFAULT_MAX_DEPTH);
  const value = parser.value();
  parser.skipWs();
  if (parser.pos !== text.length) parser.fail('Extra data');
  return value;
}

const ESCAPED: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** A recursive-descent parser over one text (methods, not closures, on this hot path). */
class Parser {
  readonly text: string;
  readonly maxDepth: number;
  pos = 0;
  depth = 0;

  constructor(text: string, maxDepth: number) {
    this.text = text;
    this.maxDepth = maxDepth;
  }

  enter(): void {
    if (++this.depth > this.maxDepth) this.fail(`Nested deeper than ${this.maxDepth} levels`);
  }

  fail(reason: string, at = this.pos): never {
    throw new JsonSyntaxError(reason, this.text, at);
  }

  skipWs(): void {
    const text = this.text;
    let pos = this.pos;
    // Python's JSON whitespace: space, tab, newline, carriage return (compared directly: indented files are
    // mostly whitespace, and this loop runs cold in a short command)
    for (let c = text.charCodeAt(pos); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; ) {
      c = text.charCodeAt(++pos);
    }
    this.pos = pos;
  }

  string(): string {
    const text = this.text;
    const start = this.pos; // at the opening quote
    this.pos++;
    let out = '';
    for (;;) {
      SIMPLE_STRING.lastIndex = this.pos;
      SIMPLE_STRING.test(text);
      out += text.slice(this.pos, SIMPLE_STRING.lastIndex);
      this.pos = SIMPLE_STRING.lastIndex;
      if (this.pos >= text.length) this.fail('Unterminated string starting at', start);
      const ch = text[this.pos];
      if (ch === '"') {
        this.pos++;
        return out;
      }
      if (ch !== '\\') this.fail('Invalid control character at');
      const esc = text[this.pos + 1];
      if (esc === undefined) this.fail('Unterminated string starting at', start);
      const simple = ESCAPED[esc as string];
      if (simple !== undefined) {
        out += simple;
        this.pos += 2;
      } else if (esc === 'u') {
        const hex = text.slice(this.pos + 2, this.pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Invalid \\uXXXX escape', this.pos + 1);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.pos += 6;
      } else this.fail('Invalid \\escape', this.pos);
    }
  }

  value(): PyValue {
    this.skipWs();
    const text = this.text;
    const pos = this.pos;
    const code = text.charCodeAt(pos);
    if (code === 0x22) return this.string();
    if (code === 0x7b) return this.object();
    if (code === 0x5b) return this.array();
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, pos)) {
        this.pos += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m === null) return this.fail('Expecting value');
    this.pos = NUMBER.lastIndex;
    if (m[1] === undefined && m[2] === undefined) return BigInt(m[0]);
    return Number(m[0]);
  }

  object(): PyDict {
    const dict: PyDict = new Map();
    const text = this.text;
    this.enter();
    this.pos++;
    this.skipWs();
    if (text[this.pos] === '}') {
      this.pos++;
      this.depth--;
      return dict;
    }
    for (;;) {
      this.skipWs();
      if (text[this.pos] !== '"') this.fail('Expecting property name enclosed in double quotes');
      const key = this.string();
      this.skipWs();
      if (text[this.pos] !== ':') this.fail("Expecting ':' delimiter");
      this.pos++;
      dict.set(key, this.value());
      this.skipWs();
      const ch = text[this.pos];
      if (ch === '}') {
        this.pos++;
        this.depth--;
        return dict;
      }
      if (ch !== ',') this.fail("Expecting ',' delimiter");
      this.pos++;
    }
  }

  array(): PyValue[] {
    const list: PyValue[] = [];
    const text = this.text;
    this.enter();
    this.pos++;
    this.skipWs();
    if (text[this.pos] === ']') {
      this.pos++;
      this.depth--;
      return list;
    }
    for (;;) {
      list.push(this.value());
      this.skipWs();
      const ch = text[this.pos];
      if (ch === ']') {
        this.pos++;
        this.depth--;
        return list;
      }
      if (ch !== ',') this.fail("Expecting ',' delimiter");
      this.pos++;
    }
  }
}

const LITERALS: readonly [string, PyValue][] = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
];
