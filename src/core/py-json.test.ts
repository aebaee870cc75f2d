import { describe, expect, it } from 'vitest';
import { canonicalSha256, sha256Hex, tau2DictHash } from './hash.js';
import { pyJsonDumps } from './py-json.js';
import { JsonSyntaxError, parsePyJson } from './py-json-parse.js';
import { pyDict } from './py-value.js';

// Expected strings are CPython 3.11 `json.dumps(...)` outputs for the same values.
describe('pyJsonDumps', () => {
  it('uses Python separators and float repr', () => {
    const v = pyDict({ a: 100, b: 2n, c: 1e18, d: 1e-5, e: [true, false, null], f: 50.88 });
    expect(pyJsonDumps(v)).toBe(
      '{"a": 100.0, "b": 2, "c": 1e+18, "d": 1e-05, "e": [true, false, null], "f": 50.88}',
    );
  });

  it('escapes like ensure_ascii, including DEL and astral characters', () => {
    expect(pyJsonDumps('café "q" \\ \n\t\u0001\u007f😀')).toBe(
      '"caf\\u00e9 \\"q\\" \\\\ \\n\\t\\u0001\\u007f\\ud83d\\ude00"',
    );
    expect(pyJsonDumps('café\u0001', { ensureAscii: false })).toBe('"café\\u0001"');
  });

  it('keeps dict order unless sort_keys, and sorts by code point', () => {
    const v = pyDict([
      ['9523456873', 1n],
      ['1656367028', 2n],
      ['B', 3n],
      ['a', 4n],
    ]);
    expect(pyJsonDumps(v)).toBe('{"9523456873": 1, "1656367028": 2, "B": 3, "a": 4}');
    expect(pyJsonDumps(v, { sortKeys: true })).toBe('{"1656367028": 2, "9523456873": 1, "B": 3, "a": 4}');
  });

  it('writes indent=4 like json.dumps(indent=4)', () => {
    expect(pyJsonDumps(pyDict({ a: [1n, pyDict({})], b: [] }), { indent: 4 })).toBe(
      '{\n    "a": [\n        1,\n        {}\n    ],\n    "b": []\n}',
    );
  });

  it('writes non-finite floats as Python does', () => {
    expect(pyJsonDumps([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])).toBe(
      '[NaN, Infinity, -Infinity]',
    );
  });
});

describe('parsePyJson', () => {
  it('keeps 2 and 2.0 apart, and ints of any size', () => {
    const v = parsePyJson('[2, 2.0, 1e2, -0, 123456789012345678901234567890]') as unknown[];
    expect(v).toEqual([2n, 2, 100, 0n, 123456789012345678901234567890n]);
    expect(typeof v[1]).toBe('number');
  });

  it('round-trips through the writer byte for byte', () => {
    const text = '{"b": [1, 2.5, "x"], "a": {"1656367028": null, "x": true}, "c": 100.0}';
    expect(pyJsonDumps(parsePyJson(text))).toBe(text);
  });

  it('keeps the first position and the last value of a repeated key', () => {
    expect(pyJsonDumps(parsePyJson('{"a": 1, "b": 2, "a": 3}'))).toBe('{"a": 3, "b": 2}');
  });

  it.each([
    ['', 'Expecting value: line 1 column 1 (char 0)'],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['[1, 2', "Expecting ',' delimiter: line 1 column 6 (char 5)"],
    ['[1,]', 'Expecting value: line 1 column 4 (char 3)'],
    ['{"a": 1,}', 'Expecting property name enclosed in double quotes: line 1 column 9 (char 8)'],
    ['{"a": 1} x', 'Extra data: line 1 column 10 (char 9)'],
    ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
    ['{\n  "a": tru}', 'Expecting value: line 2 column 8 (char 9)'],
  ])('rejects %j like json.loads', (text, message) => {
    expect(() => parsePyJson(text)).toThrow(JsonSyntaxError);
    expect(() => parsePyJson(text)).toThrow(message);
  });
});

describe('state hashes', () => {
  // sha256 of the exact bytes below, computed independently with `printf '%s' … | sha256sum`
  it('τ² hash sorts keys and keeps the float type; canonical folds 2.0 into 2', () => {
    const value = pyDict({ b: 2, a: pyDict({ y: 2n, x: 'é' }) });
    expect(pyJsonDumps(value, { sortKeys: true })).toBe('{"a": {"x": "\\u00e9", "y": 2}, "b": 2.0}');
    expect(tau2DictHash(value)).toBe('86cd3ca2c6a8b431ca97f6abb0f016600e1c1e14f3d8d13b24c1432f5727c6d7');
    expect(canonicalSha256(value)).toBe('49289c92b1ee7b122b2cdeb9a3f2096aae1aad36be9b53746f3996e776323dfd');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
