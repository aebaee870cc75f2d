/**
 * A port of the part of CPython 3.11's PEG parser (`Grammar/python.gram`) that the characters allowed by τ²'s
 * `calculate` can reach, so that syntax errors carry CPython's exact message:
 *
 * - two passes, the second with the `invalid_*` rules on (`invalid_expression` → "Perhaps you forgot a comma?",
 *   `invalid_group` → "cannot use (double) starred expression here"), sharing CPython's memo and backtracking
 *   order, because which error wins depends on the order in which tokens are first looked at;
 * - tokenizer errors are raised when the parser first asks for the offending token, or after a failed parse;
 * - reaching the end of the input inside `(` raises "'(' was never closed" at once;
 * - the parser stack limit (`MAXSTACK`, a `MemoryError`) is modelled by per-construct stack costs measured on
 *   CPython 3.11 (an approximation: exact for chains of unary operators, `**`, groups and calls).
 */
import { type Tokenized, tokenize } from './calculate-tokens.js';

export type BinOp = '+' | '-' | '*' | '/' | '//' | '**';

/** Expression tree. `depth` is the node's depth as CPython's AST optimizer counts it (for its recursion limit). */
export type Node = { readonly depth: number } & (
  | { readonly k: 'int'; readonly v: bigint }
  | { readonly k: 'float'; readonly v: number }
  | { readonly k: 'tuple' }
  | { readonly k: 'ellipsis' }
  | { readonly k: 'unary'; readonly op: '+' | '-'; readonly a: Node }
  | { readonly k: 'bin'; readonly op: BinOp; readonly a: Node; readonly b: Node }
  | { readonly k: 'star'; readonly double: boolean; readonly a: Node }
  | { readonly k: 'call'; readonly f: Node; readonly arg: Node | null }
);

/** A failed parse: `tokenizer` errors win over `parser` ones; `memory` is CPython's `MemoryError` (no message). */
export class ParseError extends Error {
  readonly kind: 'tokenizer' | 'parser' | 'memory';
  constructor(message: string, kind: 'tokenizer' | 'parser' | 'memory') {
    super(message);
    this.kind = kind;
  }
}

const MAX_STACK = 6000;
/**
 * CPython parser stack levels, [first pass, second pass] (measured on 3.11.7): `atom` is the level of a leaf
 * `atom` at the top, the others what one enclosing construct adds.
 */
const COST = {
  atom: [25, 26],
  group: [28, 30],
  starGroup: [22, 22],
  call: [24, 25],
  callStar: [27, 26],
  callDoubleStar: [27, 28],
} as const;
const MAX_INT_DIGITS = 4300;
const COMMA = 'invalid syntax. Perhaps you forgot a comma?';

const unary = (op: '+' | '-', a: Node): Node => ({ k: 'unary', op, a, depth: a.depth + 1 });
const bin = (op: BinOp, a: Node, b: Node): Node => ({
  k: 'bin',
  op,
  a,
  b,
  depth: Math.max(a.depth, b.depth) + 1,
});
// A `*x` argument is a `Starred` node; a `**x` argument is a keyword, which is no expression node.
const star = (double: boolean, a: Node): Node => ({
  k: 'star',
  double,
  a,
  depth: a.depth + (double ? 0 : 1),
});

class Parser {
  pos = 0;
  invalid = false;
  pass: 0 | 1 = 0;
  stack = 0;
  readonly memo = new Map<string, { node: Node | null; end: number }>();
  readonly t: Tokenized;

  constructor(t: Tokenized) {
    this.t = t;
  }

  /** The kind of token `i`, fetching it as CPython would (which may raise a tokenizer error). */
  kind(i: number): string {
    if (i >= this.t.errorAt) throw new ParseError(this.t.errorMessage, 'tokenizer');
    const tok = this.t.toks[i];
    if (tok) return tok.kind;
    if (this.t.unclosed) throw new ParseError("'(' was never closed", 'tokenizer');
    return i === this.t.toks.length ? 'NEWLINE' : 'ENDMARKER';
  }

  /** CPython's `MAXSTACK` check (a `MemoryError`) for a rule `extra` levels below a leaf `atom`. */
  deeper(extra: number): void {
    if (this.stack + COST.atom[this.pass] + extra > MAX_STACK) throw new ParseError('', 'memory');
  }

  expect(kind: string): boolean {
    if (this.kind(this.pos) !== kind) return false;
    this.pos++;
    return true;
  }

  memoized(rule: string, fn: () => Node | null): Node | null {
    const key = rule + this.pos;
    const hit = this.memo.get(key);
    if (hit) {
      this.pos = hit.end;
      return hit.node;
    }
    const start = this.pos;
    this.kind(start);
    const node = fn();
    if (!node) this.pos = start;
    this.memo.set(key, { node, end: this.pos });
    return node;
  }

  run(pass: 0 | 1): Node | null {
    this.pass = pass;
    this.invalid = pass === 1;
    this.memo.clear();
    this.pos = 0;
    this.stack = 0;
    const e = this.expression(); // eval: expressions NEWLINE* ENDMARKER (every `expressions` branch starts so)
    if (!e) return null;
    while (this.expect('NEWLINE'));
    return this.expect('ENDMARKER') ? e : null;
  }

  expression(): Node | null {
    return this.memoized('e', () => {
      const start = this.pos;
      if (this.invalid) {
        // invalid_expression: a=disjunction b=expression_without_invalid, an error only inside parentheses
        if (this.disjunction()) {
          this.invalid = false;
          const b = this.disjunction();
          this.invalid = true;
          if (b && (this.t.toks[this.pos - 1]?.level ?? 0) > 0) throw new ParseError(COMMA, 'parser');
        }
        this.pos = start;
      }
      return this.disjunction();
    });
  }

  /** disjunction … bitwise_or all reduce to `sum` here, so they share one memo entry. */
  disjunction(): Node | null {
    return this.memoized('d', () =>
      this.binary(['+', '-'], () => this.binary(['*', '/', '//'], () => this.factor())),
    );
  }

  /** A left-recursive binary rule (`sum`, `term`), grown the way CPython grows left recursion. */
  binary(ops: readonly string[], operand: () => Node | null): Node | null {
    let a = operand();
    while (a) {
      const mark = this.pos;
      const op = this.kind(mark);
      if (!ops.includes(op)) break;
      this.pos++;
      const b = operand();
      if (!b) {
        this.pos = mark;
        break;
      }
      a = bin(op as BinOp, a, b);
    }
    return a;
  }

  /** `factor: ('+'|'-') factor | power` and `power: primary '**' factor | primary`, unrolled into a loop. */
  factor(): Node | null {
    const start = this.pos;
    const stack0 = this.stack;
    const segments: { ops: ('+' | '-')[]; prim: Node }[] = [];
    let end = start;
    for (;;) {
      const ops: ('+' | '-')[] = [];
      for (;;) {
        this.deeper(-5); // `factor` sits five levels above `atom`; entering it comes before the token
        const k = this.kind(this.pos);
        if (k !== '+' && k !== '-') break;
        ops.push(k);
        this.pos++;
        this.stack++;
      }
      const prim = this.primary();
      if (!prim) break;
      segments.push({ ops, prim });
      end = this.pos;
      if (!this.expect('**')) break;
      this.stack += 2;
    }
    this.stack = stack0;
    this.pos = end;
    let node: Node | null = null;
    for (let i = segments.length - 1; i >= 0; i--) {
      const seg = segments[i] as { ops: ('+' | '-')[]; prim: Node };
      node = node ? bin('**', seg.prim, node) : seg.prim;
      for (let j = seg.ops.length - 1; j >= 0; j--) node = unary(seg.ops[j] as '+' | '-', node);
    }
    return node;
  }

  primary(): Node | null {
    let a = this.atom();
    while (a) {
      const mark = this.pos;
      const k = this.kind(mark);
      if (k === '.') this.kind(mark + 1); // primary '.' NAME looks at the next token, never a NAME here
      // `primary genexp` enters two more levels: '(' (assignment_expression | …), or in pass 2 invalid_comprehension
      if (k === '(' || this.pass === 1) this.deeper(2);
      if (k !== '(') break;
      const next = this.kind(mark + 1);
      const cost = next === '*' ? COST.callStar : next === '**' ? COST.callDoubleStar : COST.call;
      this.stack += cost[this.pass];
      this.genexp(mark); // primary genexp: always fails, but parses (and may raise) first
      this.pos = mark + 1;
      const arg = this.arguments();
      const closed = this.expect(')');
      this.stack -= cost[this.pass];
      if (!closed) {
        this.pos = mark;
        break;
      }
      a = { k: 'call', f: a, arg, depth: Math.max(a.depth, arg?.depth ?? 0) + 1 };
    }
    return a;
  }

  atom(): Node | null {
    this.deeper(0);
    const start = this.pos;
    const k = this.kind(start);
    const tok = this.t.toks[start];
    if (k === 'NUMBER' && tok) {
      this.pos++;
      if (tok.text.includes('.')) return { k: 'float', v: Number(tok.text), depth: 1 };
      const v = BigInt(tok.text);
      if (v !== 0n && tok.text.length > MAX_INT_DIGITS) {
        throw new ParseError(
          `Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion: value has ${tok.text.length} digits; use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge integer literals to avoid decimal conversion limits.`,
          'parser',
        );
      }
      return { k: 'int', v, depth: 1 };
    }
    if (k === '...') {
      this.pos++;
      return { k: 'ellipsis', depth: 1 };
    }
    if (k !== '(') return null;
    this.deeper(4); // _tmp (tuple | group | genexp) → tuple → _tmp → star_named_expression, then a token
    this.stack += COST.group[this.pass];
    const node = this.tuple(start) ?? this.group(start) ?? this.genexp(start);
    this.stack -= COST.group[this.pass];
    return node;
  }

  /** tuple: '(' [star_named_expression ',' [star_named_expressions]] ')' — only `()` without commas. */
  tuple(start: number): Node | null {
    this.pos = start + 1;
    if (this.starNamedExpression()) this.kind(this.pos);
    this.pos = start + 1;
    if (this.expect(')')) return { k: 'tuple', depth: 1 };
    this.pos = start;
    return null;
  }

  starNamedExpression(): Node | null {
    const m = this.pos;
    if (this.expect('*')) {
      const delta = COST.starGroup[this.pass] - COST.group[this.pass];
      this.stack += delta;
      const b = this.disjunction();
      this.stack -= delta;
      if (b) return b;
    }
    this.pos = m;
    return this.namedExpression();
  }

  namedExpression(): Node | null {
    const m = this.pos;
    this.kind(m); // assignment_expression: NAME ':=' …
    if (this.invalid) {
      this.invalidNamedExpression();
      this.pos = m;
    }
    const e = this.expression();
    if (!e) {
      this.pos = m;
      return null;
    }
    this.kind(this.pos); // !':='
    return e;
  }

  invalidNamedExpression(): void {
    this.memoized('n', () => {
      const m = this.pos;
      if (this.expression()) this.kind(this.pos); // a=expression ':=' expression
      this.pos = m;
      // !(list|tuple|genexp|'True'|'None'|'False') a=bitwise_or b='=' …
      if (this.kind(m) === '(' && this.tuple(m)) return null;
      if (this.kind(m) === '(') this.genexp(m);
      this.pos = m;
      if (this.disjunction()) this.kind(this.pos);
      return null;
    });
  }

  group(start: number): Node | null {
    this.pos = start + 1;
    const e = this.namedExpression();
    if (e && this.expect(')')) return e;
    if (this.invalid) {
      this.pos = start + 1;
      if (this.expect('*') && this.expression() && this.expect(')')) {
        throw new ParseError('cannot use starred expression here', 'parser');
      }
      this.pos = start + 1;
      if (this.expect('**') && this.expression() && this.expect(')')) {
        throw new ParseError('cannot use double starred expression here', 'parser');
      }
    }
    this.pos = start;
    return null;
  }

  /** genexp needs `for`, so it always fails; it still parses its element (and, in pass 2, a starred one). */
  genexp(start: number): null {
    this.pos = start + 1;
    this.kind(this.pos);
    if (this.expression()) this.kind(this.pos);
    if (this.invalid) {
      this.pos = start + 1; // invalid_comprehension: '(' starred_expression for_if_clauses
      if (this.expect('*') && this.expression()) this.kind(this.pos);
    }
    this.pos = start;
    return null;
  }

  arguments(): Node | null {
    return this.memoized('a', () => {
      const m = this.pos;
      const a = this.args();
      if (a && this.kind(this.pos) === ')') return a;
      if (this.invalid) {
        // invalid_arguments: every branch starts with args or expression, then needs ',' or 'for'
        this.pos = m;
        this.args();
        this.pos = m;
        this.expression();
      }
      this.pos = m;
      return null;
    });
  }

  args(): Node | null {
    const m = this.pos;
    if (this.expect('*')) {
      const e = this.expression();
      if (e) {
        this.kind(this.pos);
        return star(false, e);
      }
    }
    this.pos = m;
    const e = this.expression();
    if (e) {
      this.kind(this.pos);
      return e;
    }
    // kwargs: kwarg_or_starred (invalid_kwarg | NAME '=' … | '*' expression), then kwarg_or_double_starred
    this.pos = m;
    for (const double of [false, true]) {
      if (this.invalid) {
        this.expression(); // invalid_kwarg: !(NAME '=') a=expression b='='
        this.pos = m;
      }
      if (this.expect(double ? '**' : '*')) {
        const x = this.expression();
        if (x) {
          this.kind(this.pos);
          return star(double, x);
        }
      }
      this.pos = m;
    }
    return null;
  }
}

/**
 * Parses an expression as `eval()` would (the caller strips leading spaces and rejects empty input).
 * @throws {ParseError} with CPython's message (without the ` (<string>, line 1)` suffix).
 */
export function parseExpression(src: string): Node {
  const t = tokenize(src);
  const p = new Parser(t);
  const tokenizerWins = (e: unknown): unknown =>
    e instanceof ParseError && e.kind === 'parser' && Number.isFinite(t.errorAt)
      ? new ParseError(t.errorMessage, 'tokenizer')
      : e;
  try {
    const node = p.run(0);
    if (node) return node;
    p.run(1);
  } catch (e) {
    throw tokenizerWins(e);
  }
  throw tokenizerWins(new ParseError('invalid syntax', 'parser'));
}
