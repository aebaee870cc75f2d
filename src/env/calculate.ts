/**
 * τ²-bench's `calculate` tool (retail and airline), re-implemented without `eval`:
 *
 * ```python
 * def calculate(self, expression: str) -> str:
 *     if not all(char in "0123456789+-*\/(). " for char in expression):
 *         raise ValueError("Invalid characters in expression")
 *     return str(round(float(eval(expression, {"__builtins__": None}, {})), 2))
 * ```
 *
 * The allowed characters still reach a fair part of Python: ints of any size, floats, `**`, `//`, calls
 * (`2(3)` is a call of the int 2), the empty tuple `()`, `...` (Ellipsis), `*x` / `**x` call arguments and
 * complex numbers (`(-8) ** 0.5`). All of it is tokenized, parsed and evaluated with CPython 3.11's exact
 * semantics and error messages; see `calculate-parse.ts` for the syntax errors.
 *
 * Documented deviations from CPython 3.11:
 * - An int `*` or `**` whose result would exceed 1,000,000 bits fails with `result too large`. Python computes
 *   it (for hours in cases such as `9**9**9**9`) and usually fails later with `int too large to convert to
 *   float`.
 * - The compile-time recursion limit ("maximum recursion depth exceeded during compilation") depends on how
 *   deep in Python's stack `eval` runs; we assume τ²'s tool sits 2 frames deep (a module calling the
 *   function), i.e. the expression tree may be at most 2994 nodes deep.
 * - The parser's stack limit (`MemoryError`, reported as an empty message) is modelled with per-construct
 *   costs measured on CPython 3.11.7: exact for chains of unary operators, `**`, parentheses and calls,
 *   approximate for unusual mixes.
 * - `float ** float` is correctly rounded. Python uses the C library's `pow()`; glibc's differs by one ulp in
 *   about 0.2% of random cases (exact rounding ties such as `17.0**13`, and results within a few thousandths
 *   of an ulp of a tie), which `round(x, 2)` hides unless the result is large.
 * - Complex values only show up inside error messages (`((-1)**.5)(*1)`); their last digits come from
 *   JavaScript's `Math.cos`/`sin`/`atan2`/`hypot`, which may differ from the C library's.
 */
import { ToolError } from '../core/errors.js';
import { pyFloatRepr, pyRound } from '../core/py-float.js';
import { type PyValue, pyTypeName } from '../core/py-value.js';
import {
  bitLength,
  Complex,
  complexOp,
  floatFloorDiv,
  floatPow,
  intToFloat,
  intTrueDivide,
} from './calculate-math.js';
import { type BinOp, type Node, ParseError, parseExpression } from './calculate-parse.js';

const ALLOWED = '0123456789+-*/(). ';
const MAX_INT_BITS = 1_000_000;
const MAX_AST_DEPTH = 2994;
const MAX_STR_DIGITS = 4300;
const SSIZE_MIN = -(2n ** 63n);
const SSIZE_MAX = 2n ** 63n - 1n;

const TUPLE = { py: 'tuple' } as const;
const ELLIPSIS = { py: 'ellipsis' } as const;
type Value = bigint | number | Complex | typeof TUPLE | typeof ELLIPSIS;
type Num = bigint | number | Complex;

const isNum = (v: Value): v is Num => typeof v === 'bigint' || typeof v === 'number' || v instanceof Complex;

function typeName(v: Value): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'float';
  return v instanceof Complex ? 'complex' : v.py;
}

function reprPart(x: number): string {
  const s = pyFloatRepr(x);
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

/** Python `str(value)`. */
function pyStr(v: Value): string {
  if (typeof v === 'bigint') {
    const abs = v < 0n ? -v : v;
    if (bitLength(abs || 1n) > 15_000 || abs.toString().length > MAX_STR_DIGITS) {
      throw new ToolError(
        `Exceeds the limit (${MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit`,
      );
    }
    return v.toString();
  }
  if (typeof v === 'number') return pyFloatRepr(v);
  if (v instanceof Complex) {
    if (v.re === 0 && !Object.is(v.re, -0)) return `${reprPart(v.im)}j`;
    const im = reprPart(v.im);
    return `(${reprPart(v.re)}${im.startsWith('-') ? '' : '+'}${im}j)`;
  }
  return v === TUPLE ? '()' : 'Ellipsis';
}

const toFloat = (v: bigint | number): number => (typeof v === 'bigint' ? intToFloat(v) : v);
const toComplex = (v: Num): Complex => (v instanceof Complex ? v : new Complex(toFloat(v), 0));

function checkSize(bits: number): void {
  if (bits > MAX_INT_BITS) throw new ToolError('result too large');
}

function intPow(a: bigint, b: bigint): bigint {
  if (b === 0n) return 1n;
  if (a === 0n || a === 1n) return a;
  if (a === -1n) return b % 2n === 0n ? 1n : -1n;
  const abs = a < 0n ? -a : a;
  const shift = Math.max(0, bitLength(abs) - 53);
  checkSize((Math.log2(Number(abs >> BigInt(shift))) + shift) * Number(b));
  return a ** b;
}

function intOp(op: BinOp, a: bigint, b: bigint): Num {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      if (a !== 0n && b !== 0n) checkSize(bitLength(a < 0n ? -a : a) + bitLength(b < 0n ? -b : b) - 1);
      return a * b;
    case '/':
      return intTrueDivide(a, b);
    case '//': {
      if (b === 0n) throw new ToolError('integer division or modulo by zero');
      const q = a / b;
      return q * b !== a && a < 0n !== b < 0n ? q - 1n : q;
    }
    default:
      return b < 0n ? powFloats(intToFloat(a), intToFloat(b)) : intPow(a, b);
  }
}

function powFloats(x: number, y: number): Num {
  const r = floatPow(x, y);
  return r ?? complexOp('**', new Complex(x, 0), new Complex(y, 0));
}

function numOp(op: BinOp, a: Num, b: Num): Num {
  if (a instanceof Complex || b instanceof Complex) {
    if (op === '//') throw unsupported(op, a, b);
    const x = toComplex(a);
    return complexOp(op, x, toComplex(b));
  }
  if (typeof a === 'bigint' && typeof b === 'bigint') return intOp(op, a, b);
  const x = toFloat(a);
  const y = toFloat(b);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      if (y === 0) throw new ToolError('float division by zero');
      return x / y;
    case '//':
      if (y === 0) throw new ToolError('float floor division by zero');
      return floatFloorDiv(x, y);
    default:
      return powFloats(x, y);
  }
}

function unsupported(op: BinOp, a: Value, b: Value): ToolError {
  const symbol = op === '**' ? '** or pow()' : op;
  return new ToolError(`unsupported operand type(s) for ${symbol}: '${typeName(a)}' and '${typeName(b)}'`);
}

function binaryOp(op: BinOp, a: Value, b: Value): Value {
  if (isNum(a) && isNum(b)) return numOp(op, a, b);
  if (op === '+' && a === TUPLE) {
    if (b === TUPLE) return TUPLE;
    throw new ToolError(`can only concatenate tuple (not "${typeName(b)}") to tuple`);
  }
  if (op === '*' && (a === TUPLE || b === TUPLE)) {
    const n = a === TUPLE ? b : a;
    if (typeof n !== 'bigint') {
      throw new ToolError(`can't multiply sequence by non-int of type '${typeName(n)}'`);
    }
    if (n < SSIZE_MIN || n > SSIZE_MAX) throw new ToolError("cannot fit 'int' into an index-sized integer");
    return TUPLE;
  }
  throw unsupported(op, a, b);
}

function evaluate(node: Node): Value {
  switch (node.k) {
    case 'int':
    case 'float':
      return node.v;
    case 'tuple':
      return TUPLE;
    case 'ellipsis':
      return ELLIPSIS;
    case 'unary': {
      const v = evaluate(node.a);
      if (typeof v === 'bigint') return node.op === '-' ? -v : v;
      if (typeof v === 'number') return node.op === '-' ? -v : v;
      if (v instanceof Complex) return node.op === '-' ? new Complex(-v.re, -v.im) : v;
      throw new ToolError(`bad operand type for unary ${node.op}: '${typeName(v)}'`);
    }
    case 'bin': {
      const a = evaluate(node.a);
      return binaryOp(node.op, a, evaluate(node.b));
    }
    case 'star':
      return evaluate(node.a);
    case 'call': {
      const f = evaluate(node.f);
      const arg = node.arg;
      const x = arg ? evaluate(arg) : undefined;
      if (arg?.k === 'star' && x !== undefined) {
        // CPython names the callee by its str(): `2 argument after * must be an iterable, not int`
        if (arg.double) {
          throw new ToolError(`${pyStr(f)} argument after ** must be a mapping, not ${typeName(x)}`);
        }
        if (x !== TUPLE) {
          throw new ToolError(`${pyStr(f)} argument after * must be an iterable, not ${typeName(x)}`);
        }
      }
      throw new ToolError(`'${typeName(f)}' object is not callable`);
    }
  }
}

/** `all(char in ALLOWED for char in expression)` and `eval()`'s argument check, for any Python value. */
function checkArgument(expression: PyValue): string {
  if (typeof expression === 'string') {
    for (const ch of expression) {
      if (!ALLOWED.includes(ch)) throw new ToolError('Invalid characters in expression');
    }
    return expression;
  }
  if (!Array.isArray(expression) && !(expression instanceof Map)) {
    throw new ToolError(`'${pyTypeName(expression)}' object is not iterable`);
  }
  // a list's items or a dict's keys: `item in ALLOWED` is a substring test, so `'12'` passes
  for (const item of Array.isArray(expression) ? expression : expression.keys()) {
    if (typeof item !== 'string') {
      throw new ToolError(`'in <string>' requires string as left operand, not ${pyTypeName(item)}`);
    }
    if (!ALLOWED.includes(item)) throw new ToolError('Invalid characters in expression');
  }
  throw new ToolError('eval() arg 1 must be a string, bytes or code object');
}

function run(expression: PyValue): string {
  const source = checkArgument(expression).replace(/^ +/, ''); // eval() strips leading spaces and tabs
  if (source === '') throw new ToolError('invalid syntax (<string>, line 0)');
  let tree: Node;
  try {
    tree = parseExpression(source);
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    throw new ToolError(e.kind === 'memory' ? '' : `${e.message} (<string>, line 1)`);
  }
  if (tree.depth > MAX_AST_DEPTH) throw new ToolError('maximum recursion depth exceeded during compilation');
  const value = evaluate(tree);
  if (typeof value !== 'bigint' && typeof value !== 'number') {
    throw new ToolError(`float() argument must be a string or a real number, not '${typeName(value)}'`);
  }
  return pyFloatRepr(pyRound(toFloat(value), 2));
}

/**
 * τ²-bench's `calculate(expression)`: evaluates an arithmetic expression exactly as CPython 3.11's
 * `str(round(float(eval(expression)), 2))` does, with τ²'s character check first. Nothing is ever `eval`'ed:
 * the expression is tokenized, parsed and evaluated here (big ints, floats, and the odd corners listed above).
 * @returns the result text, e.g. `"4.0"` for `"2+2"`.
 * @throws {ToolError} with `str(e)` of the exception Python would raise (`division by zero`,
 *   `'(' was never closed (<string>, line 1)`, …); never anything else, and never hangs.
 */
export function calculate(expression: PyValue): string {
  try {
    return run(expression);
  } catch (e) {
    if (e instanceof ToolError) throw e;
    // Safety net: BigInt size limits or an unforeseen engine error must still look like a tool failure.
    throw new ToolError(e instanceof RangeError ? 'result too large' : String(e), { cause: e });
  }
}
