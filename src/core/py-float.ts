/**
 * Python float formatting and rounding, bit-exact with CPython.
 *
 * - `pyFloatRepr(x)` equals Python's `repr(x)` / `str(x)`: the shortest round-trip digits (which is what
 *   `Number.prototype.toExponential()` without an argument yields), written in fixed notation when the decimal
 *   exponent is in [-4, 16), else as `d.ddde±XX` with at least two exponent digits (`1e+18`, `1e-05`).
 * - `pyRound(x, n)` equals Python's `round(x, n)` for a float: round the exact binary value half-to-even.
 */
export function pyFloatRepr(x: number): string {
  const abs = Math.abs(x);
  if (abs >= 1e-4 && abs < 1e16) {
    // both JS and Python write these in fixed notation with the same shortest digits
    const s = String(x);
    return Number.isInteger(x) ? `${s}.0` : s;
  }
  if (Number.isNaN(x)) return 'nan';
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa, expPart] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exp = Number(expPart);
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
    return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
  const expSign = exp < 0 ? '-' : '+';
  const expDigits = String(Math.abs(exp)).padStart(2, '0');
  return `${sign}${digits[0]}${frac}e${expSign}${expDigits}`;
}

/** Python's JSON text for a float: `repr`, except `NaN`, `Infinity`, `-Infinity`. */
export function pyJsonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'Infinity';
  if (x === Number.NEGATIVE_INFINITY) return '-Infinity';
  return pyFloatRepr(x);
}

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/** Splits a finite double into an exact `mantissa * 2**exponent` with a bigint mantissa (sign included). */
export function exactBinary(x: number): { mantissa: bigint; exponent: number } {
  F64[0] = x;
  const bits = U64[0] as bigint;
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  let mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  if (negative) mantissa = -mantissa;
  return { mantissa, exponent };
}

/**
 * Python's `round(x, ndigits)` for a float `x`: the exact binary value of `x` is rounded to `ndigits`
 * decimal places with ties to even, then converted back to the nearest double. Keeps the sign of zero.
 */
export function pyRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const { mantissa, exponent } = exactBinary(x);
  const negative = mantissa < 0n;
  const m = negative ? -mantissa : mantissa;
  // value = m * 2**exponent; scaled = value * 10**ndigits = num / den
  let num = m;
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  if (ndigits >= 0) num *= 10n ** BigInt(ndigits);
  else den *= 10n ** BigInt(-ndigits);
  let q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && q % 2n === 1n)) q += 1n;
  const text = ndigits >= 0 ? `${q}e-${ndigits}` : `${q}e${-ndigits}`;
  const result = Number(text);
  return negative ? -result : result;
}
