import { describe, expect, it } from 'vitest';
import { pyFloatRepr, pyRound } from './py-float.js';

// Expected strings are CPython 3.11 `repr(x)` / `round(x, n)` outputs.
describe('pyFloatRepr', () => {
  it.each([
    [100, '100.0'],
    [1e18, '1e+18'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [1e16, '1e+16'],
    [1e15, '1000000000000000.0'],
    [123456789012345680, '1.2345678901234568e+17'],
    [50.88, '50.88'],
    [68.92000000000004, '68.92000000000004'],
    [0.04999999999999716, '0.04999999999999716'],
    [-2.5, '-2.5'],
    [-0, '-0.0'],
    [0, '0.0'],
    [1.5e-7, '1.5e-07'],
    [2 ** 0.5, '1.4142135623730951'],
    [1e300 * 10, '1e+301'],
    [Number.POSITIVE_INFINITY, 'inf'],
  ])('repr(%s) is %s', (x, expected) => {
    expect(pyFloatRepr(x)).toBe(expected);
  });
});

describe('pyRound', () => {
  it.each([
    [0.125, 2, 0.12],
    [0.375, 2, 0.38],
    [2.675, 2, 2.67],
    [1.005, 2, 1.0],
    [2.5, 0, 2],
    [3.5, 0, 4],
    [-0.125, 2, -0.12],
    [3.3333333333333335, 2, 3.33],
    [1819.92 - 1000.0001, 2, 819.92],
    [1e18, 2, 1e18],
  ])('round(%s, %s) is %s', (x, n, expected) => {
    expect(pyRound(x, n)).toBe(expected);
  });

  it('keeps the sign of a rounded-away negative value', () => {
    expect(Object.is(pyRound(-0.001, 2), -0)).toBe(true);
  });
});
