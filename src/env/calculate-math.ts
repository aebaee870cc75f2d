/**
 * CPython 3.11 float and complex arithmetic for `calculate`: `float_pow`, `float_floor_div`, `int / int`, and
 * the `complex` operations reachable from `(-8) ** 0.5`.
 *
 * CPython's `float ** float` ends in the C library's `pow()`. Ours is correctly rounded (exactly for integer
 * exponents, else a BigInt `exp(y·ln x)` with Ziv's retry). glibc's `pow` agrees except when the exact result
 * is a rounding tie (`17.0 ** 13`, rounded either way) or within ~0.005 ulp of one: about 0.2% of random
 * operands, one ulp apart, rarely visible after `round(x, 2)`.
 */
import { ToolError } from '../core/errors.js';
import { exactBinary } from '../core/py-float.js';

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/** Exactly `2 ** k` for -1074 <= k <= 1023. */
function pow2(k: number): number {
  U64[0] = k >= -1022 ? BigInt(k + 1023) << 52n : 1n << BigInt(k + 1074);
  return F64[0] as number;
}

/** Number of bits of `x > 0`. */
export function bitLength(x: bigint): number {
  const hex = x.toString(16);
  return hex.length * 4 - (Math.clz32(Number.parseInt(hex[0] ?? '0', 16)) - 28);
}

/** `e * 2 ** sh` (e > 0) rounded half-even to a double; `Infinity` on overflow. */
export function scaledToFloat(e: bigint, sh: number): number {
  const top = bitLength(e) - 1 + sh;
  if (top > 1023) return Number.POSITIVE_INFINITY;
  const lsb = Math.max(top - 52, -1074);
  const drop = lsb - sh;
  let m = e;
  if (drop < 0) m = e << BigInt(-drop);
  else if (drop > 0) {
    m = e >> BigInt(drop);
    const rem = e - (m << BigInt(drop));
    const half = 1n << BigInt(drop - 1);
    if (rem > half || (rem === half && (m & 1n) === 1n)) m += 1n;
  }
  if (m === 0n) return 0;
  if (lsb + bitLength(m) - 1 > 1023) return Number.POSITIVE_INFINITY;
  return Number(m) * pow2(lsb);
}

/** `num / den * 2 ** sh` (num, den > 0) correctly rounded; `Infinity` on overflow. */
export function ratioToFloat(num: bigint, den: bigint, sh = 0): number {
  const s = bitLength(den) - bitLength(num) + 55;
  const n = s >= 0 ? num << BigInt(s) : num;
  const d = s >= 0 ? den : den << BigInt(-s);
  const q = n / d;
  return scaledToFloat((q << 1n) | (n % d === 0n ? 0n : 1n), sh - s - 1);
}

/** Python `float(int)`. */
export function intToFloat(v: bigint): number {
  const f = Number(v);
  if (!Number.isFinite(f)) throw new ToolError('int too large to convert to float');
  return f;
}

/** Python `int / int` (long_true_divide: exactly rounded). */
export function intTrueDivide(a: bigint, b: bigint): number {
  if (b === 0n) throw new ToolError('division by zero');
  const negative = a < 0n !== b < 0n;
  if (a === 0n) return negative ? -0 : 0;
  const q = ratioToFloat(a < 0n ? -a : a, b < 0n ? -b : b);
  if (q === Number.POSITIVE_INFINITY) throw new ToolError('integer division result too large for a float');
  return negative ? -q : q;
}

const copysignZero = (x: number): number => (x < 0 || Object.is(x, -0) ? -0 : 0);

/** Python `float // float` (`_float_div_mod`), `w` non-zero. */
export function floatFloorDiv(v: number, w: number): number {
  let mod = v % w;
  let div = (v - mod) / w;
  if (mod !== 0 && w < 0 !== mod < 0) {
    mod += w;
    div -= 1;
  }
  if (div !== 0) {
    let floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1;
    return floordiv;
  }
  return copysignZero(v / w);
}

const isOddInteger = (x: number): boolean => Math.abs(x) % 2 === 1;

/** Python `float ** float` (`float_pow`); `null` when Python hands over to `complex` (negative ** fraction). */
export function floatPow(v: number, w: number): number | null {
  if (w === 0) return 1;
  if (Number.isNaN(v)) return v;
  if (Number.isNaN(w)) return v === 1 ? 1 : w;
  if (!Number.isFinite(w)) {
    const a = Math.abs(v);
    if (a === 1) return 1;
    return w > 0 === a > 1 ? Math.abs(w) : 0;
  }
  if (!Number.isFinite(v)) {
    if (w > 0) return isOddInteger(w) ? v : Math.abs(v);
    return isOddInteger(w) ? copysignZero(v) : 0;
  }
  if (v === 0) {
    if (w < 0) throw new ToolError('0.0 cannot be raised to a negative power');
    return isOddInteger(w) ? v : 0;
  }
  let x = v;
  let negate = false;
  if (x < 0) {
    if (w !== Math.floor(w)) return null;
    x = -x;
    negate = isOddInteger(w);
  }
  if (x === 1) return negate ? -1 : 1;
  const r = powPositive(x, w);
  if (r === Number.POSITIVE_INFINITY) throw new ToolError("(34, 'Numerical result out of range')");
  return negate ? -r : r;
}

/** Correctly rounded `x ** y` for finite x > 0, x != 1, finite y != 0 (what glibc's `pow` computes). */
function powPositive(x: number, y: number): number {
  const estimate = y * Math.log2(x);
  if (estimate > 1100) return Number.POSITIVE_INFINITY;
  if (estimate < -1100) return 0;
  const { mantissa, exponent } = exactBinary(x);
  if (Number.isInteger(y) && bitLength(mantissa) * Math.abs(y) <= 200_000) {
    const p = mantissa ** BigInt(Math.abs(y));
    const e = exponent * Math.abs(y);
    return y > 0 ? scaledToFloat(p, e) : ratioToFloat(1n, p, -e);
  }
  const yBits = Math.max(0, Math.ceil(Math.log2(Math.abs(y))));
  for (let prec = 128 + yBits; ; prec *= 2) {
    const { value, error } = expTimesLn(mantissa, exponent, y, prec);
    const lo = scaledToFloat(value.fixed - error, value.shift);
    if (lo === scaledToFloat(value.fixed + error, value.shift) || prec > 4096) return lo;
  }
}

const LN2_CACHE = new Map<number, bigint>();

/** `2 * atanh(num / den)` in fixed point with `prec` fractional bits (|num/den| <= 1/3). */
function atanh2(num: bigint, den: bigint, prec: number): bigint {
  const one = 1n << BigInt(prec);
  const z = (num * one) / den;
  const z2 = (z * z) / one;
  let term = z;
  let sum = 0n;
  for (let k = 1n; term !== 0n; k += 2n) {
    sum += term / k;
    term = (term * z2) / one;
  }
  return 2n * sum;
}

function ln2(prec: number): bigint {
  let v = LN2_CACHE.get(prec);
  if (v === undefined) {
    v = atanh2(1n, 3n, prec);
    LN2_CACHE.set(prec, v);
  }
  return v;
}

/** `exp(y * ln(m * 2**e))` as `fixed * 2**shift`, with an absolute error bound on `fixed`. */
function expTimesLn(
  m: bigint,
  e: number,
  y: number,
  prec: number,
): { value: { fixed: bigint; shift: number }; error: bigint } {
  const p = BigInt(prec);
  const LN2 = ln2(prec);
  // m * 2**e = f * 2**k with f = m / 2**b in [1/sqrt2, sqrt2]
  let b = bitLength(m) - 1;
  if (m * m > 1n << BigInt(2 * b + 1)) b += 1;
  const d = 1n << BigInt(b);
  const lnx = atanh2(m - d, m + d, prec) + BigInt(e + b) * LN2;
  const yb = exactBinary(y);
  const prod = yb.mantissa * lnx;
  const t = yb.exponent >= 0 ? prod << BigInt(yb.exponent) : prod >> BigInt(-yb.exponent);
  // exp(t) = exp(r) * 2**k2 with |r| <= ln2 / 2
  let k2 = (t + LN2 / 2n) / LN2;
  if (t + LN2 / 2n < 0n && (t + LN2 / 2n) % LN2 !== 0n) k2 -= 1n;
  const r = t - k2 * LN2;
  const one = 1n << p;
  let sum = one;
  let term = one;
  for (let i = 1n; term !== 0n; i++) {
    term = (term * r) / one / i;
    sum += term;
  }
  const yBits = Math.max(0, Math.ceil(Math.log2(Math.abs(y))) + 1);
  return { value: { fixed: sum, shift: Number(k2) - prec }, error: 1n << BigInt(yBits + 24) };
}

/** C's `pow(x, y)` for x >= 0, as `_Py_c_pow` calls it. */
function cPowReal(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (!Number.isFinite(x) || !Number.isFinite(y) || x === 0) return x ** y;
  return powPositive(x, y);
}

/** A Python `complex`. */
export class Complex {
  readonly re: number;
  readonly im: number;
  constructor(re: number, im: number) {
    this.re = re;
    this.im = im;
  }
}

const prod = (a: Complex, b: Complex): Complex =>
  new Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);

/** `_Py_c_quot`; `null` for division by zero (CPython's EDOM). */
function quot(a: Complex, b: Complex): Complex | null {
  const absRe = Math.abs(b.re);
  const absIm = Math.abs(b.im);
  if (absRe >= absIm) {
    if (absRe === 0) return null;
    const ratio = b.im / b.re;
    const denom = b.re + b.im * ratio;
    return new Complex((a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom);
  }
  if (absIm >= absRe) {
    const ratio = b.re / b.im;
    const denom = b.re * ratio + b.im;
    return new Complex((a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom);
  }
  return new Complex(Number.NaN, Number.NaN);
}

/** `c_powi`: integer powers by repeated squaring (|n| <= 100). */
function powi(x: Complex, n: number): Complex | null {
  let r = new Complex(1, 0);
  let p = x;
  for (let k = Math.abs(n); k > 0; k = Math.floor(k / 2)) {
    if (k % 2 === 1) r = prod(r, p);
    p = prod(p, p);
  }
  return n > 0 ? r : quot(new Complex(1, 0), r);
}

/** `_Py_c_pow`. */
function powGeneral(a: Complex, b: Complex): Complex | null {
  if (b.re === 0 && b.im === 0) return new Complex(1, 0);
  if (a.re === 0 && a.im === 0) return b.im !== 0 || b.re < 0 ? null : new Complex(0, 0);
  const vabs = Math.hypot(a.re, a.im);
  let len = cPowReal(vabs, b.re);
  const at = Math.atan2(a.im, a.re);
  let phase = at * b.re;
  if (b.im !== 0) {
    len /= Math.exp(at * b.im);
    phase += b.im * Math.log(vabs);
  }
  return new Complex(len * Math.cos(phase), len * Math.sin(phase));
}

/** Python `complex` arithmetic (`+ - * / **`). */
export function complexOp(op: string, a: Complex, b: Complex): Complex {
  switch (op) {
    case '+':
      return new Complex(a.re + b.re, a.im + b.im);
    case '-':
      return new Complex(a.re - b.re, a.im - b.im);
    case '*':
      return prod(a, b);
    case '/': {
      const q = quot(a, b);
      if (!q) throw new ToolError('complex division by zero');
      return q;
    }
    default: {
      const smallInt = b.im === 0 && b.re === Math.floor(b.re) && Math.abs(b.re) <= 100;
      const p = smallInt ? powi(a, b.re) : powGeneral(a, b);
      if (!p) throw new ToolError('0.0 to a negative or complex power');
      if (Math.abs(p.re) === Number.POSITIVE_INFINITY || Math.abs(p.im) === Number.POSITIVE_INFINITY) {
        throw new ToolError('complex exponentiation');
      }
      return p;
    }
  }
}
