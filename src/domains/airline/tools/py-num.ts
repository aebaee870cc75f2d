import { ToolError } from '../../../core/errors.js';
import { type PyValue, pyTypeName } from '../../../core/py-value.js';

/**
 * Python arithmetic on the raw numbers τ²'s airline tools compute with (`nonfree_baggages - …`, `50 * …`,
 * `amount -= …`): ints stay ints (bigint), a float makes a float, bools count as ints, anything else raises
 * Python's `TypeError` text.
 */

/** A Python number: int (bigint) or float (number). */
export type PyNum = bigint | number;

/** The number a value stands for in arithmetic (`True` is `1`), or undefined for non-numbers. */
export function asNum(v: PyValue): PyNum | undefined {
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  return undefined;
}

function unsupported(op: string, a: PyValue, b: PyValue): ToolError {
  return new ToolError(`unsupported operand type(s) for ${op}: '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

function combine(
  a: PyNum,
  b: PyNum,
  ints: (x: bigint, y: bigint) => bigint,
  floats: (x: number, y: number) => number,
) {
  return typeof a === 'bigint' && typeof b === 'bigint' ? ints(a, b) : floats(Number(a), Number(b));
}

/** `a - b` (`op` names the operator in the error, e.g. `-=`). */
export function pySub(a: PyValue, b: PyValue, op = '-'): PyNum {
  const x = asNum(a);
  const y = asNum(b);
  if (x === undefined || y === undefined) throw unsupported(op, a, b);
  return combine(
    x,
    y,
    (p, q) => p - q,
    (p, q) => p - q,
  );
}

/** `a + b` on numbers (`op` names the operator in the error). */
export function pyAdd(a: PyValue, b: PyValue, op = '+'): PyNum {
  const x = asNum(a);
  const y = asNum(b);
  if (x === undefined || y === undefined) throw unsupported(op, a, b);
  return combine(
    x,
    y,
    (p, q) => p + q,
    (p, q) => p + q,
  );
}

/** `n * v` for an int `n`: numbers multiply, a str or list repeats, anything else raises. */
export function pyMulInt(n: bigint, v: PyValue): PyValue {
  const x = asNum(v);
  if (x !== undefined)
    return combine(
      n,
      x,
      (p, q) => p * q,
      (p, q) => p * q,
    );
  if (typeof v === 'string') return n > 0n ? v.repeat(Number(n)) : '';
  if (Array.isArray(v)) return n > 0n ? Array.from({ length: Number(n) }, () => v).flat() : [];
  throw unsupported('*', n, v);
}

/** `a < b` for numbers (int/float compared by value). */
export function pyLess(a: PyNum, b: PyNum): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b;
  return Number(a) < Number(b);
}

/** `a == 0` for a number. */
export function pyIsZero(a: PyNum): boolean {
  return typeof a === 'bigint' ? a === 0n : a === 0;
}

/** `max(0, x)`: x when it is greater than 0, else the int 0. */
export function pyMax0(x: PyNum): PyNum {
  return pyLess(0n, x) ? x : 0n;
}
