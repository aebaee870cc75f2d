import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputFileError } from '../../src/core/errors.js';
import { jsonNestingExceeds, readJsonlLines } from '../../src/io/read-jsonl.js';
import { loadTrajectoryLog, setAsideDamaged } from '../../src/run/trajectory-log.js';

/**
 * trajectories.jsonl gets the checks every input gets (issue 11): read a line at a time with a bound per line,
 * bytes that are not UTF-8 and nesting deeper than 100 levels found and reported with where they are — never
 * replaced silently, never a stack overflow. Damaged lines are set aside byte for byte, as before.
 */

const root = mkdtempSync(join(tmpdir(), 'cove-trajlog-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// the smallest record a resume accepts
const line = (id: string, note = '') =>
  `${JSON.stringify({
    id,
    note,
    task_index: 0,
    termination_reason: 'user_stop',
    verification: {},
    messages: [],
    usage: { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 },
  })}\n`;

describe('readJsonlLines', () => {
  it('gives each complete line with its number and byte offset; a torn tail is not a line', () => {
    const file = join(root, 'lines.jsonl');
    writeFileSync(file, 'ab\n\nçd\ntail');
    const seen: [number, number, string][] = [];
    const r = readJsonlLines(file, (l) => seen.push([l.line, l.offset, l.bytes.toString('utf8')]));
    // "ab\n" is bytes 0–2, "\n" byte 3, "çd\n" bytes 4–7 (ç is 2 bytes), "tail" bytes 8–11
    expect(seen).toEqual([
      [1, 0, 'ab'],
      [2, 3, ''],
      [3, 4, 'çd'],
    ]);
    expect(r).toEqual({ size: 12, completeBytes: 8 });
  });

  it('joins a line that spans read chunks (8 MiB each)', () => {
    const file = join(root, 'long.jsonl');
    const long = 'x'.repeat(9 * 1024 * 1024);
    writeFileSync(file, `a\n${long}\nb\n`);
    const lengths: number[] = [];
    readJsonlLines(file, (l) => lengths.push(l.bytes.length));
    expect(lengths).toEqual([1, long.length, 1]);
  });

  it('refuses a line over the limit, naming the line, its byte offset and the limit', () => {
    const file = join(root, 'over.jsonl');
    writeFileSync(file, `ok\n${'y'.repeat(2 * 1024 * 1024 + 1)}\n`);
    expect(() => readJsonlLines(file, () => {}, { maxLineBytes: 2 * 1024 * 1024 })).toThrow(InputFileError);
    expect(() => readJsonlLines(file, () => {}, { maxLineBytes: 2 * 1024 * 1024 })).toThrow(
      `${file}: line 2 (byte 3): is longer than 2 MB, the most cove reads in one line`,
    );
  });
});

describe('jsonNestingExceeds', () => {
  it('counts lists and objects, not brackets inside strings', () => {
    expect(jsonNestingExceeds('[[[]]]', 3)).toBe(false);
    expect(jsonNestingExceeds('[[[[]]]]', 3)).toBe(true);
    expect(jsonNestingExceeds('{"a": {"b": [1]}}', 3)).toBe(false);
    expect(jsonNestingExceeds('["[[[[", "\\"[[[["]', 2)).toBe(false);
  });
});

describe('loadTrajectoryLog: bytes that are not UTF-8, deep nesting', () => {
  it('sets such lines aside with the byte offset or the depth, keeping the records around them', () => {
    const file = join(root, 'bad.jsonl');
    const a = line('a');
    const b = Buffer.from(line('b', 'Hi!'));
    b[b.indexOf('Hi!')] = 0xff; // 'H' replaced by a byte that is never UTF-8
    const deep = `{"id": "d", "x": ${'['.repeat(101)}${']'.repeat(101)}}\n`;
    writeFileSync(file, Buffer.concat([Buffer.from(a), b, Buffer.from(deep), Buffer.from(line('c'))]));
    const loaded = loadTrajectoryLog(file);
    expect(loaded.records.map((r) => r.id)).toEqual(['a', 'c']);
    const badAt = Buffer.byteLength(a) + b.indexOf(0xff);
    expect(loaded.corrupt.map((c) => [c.line, c.reason])).toEqual([
      [2, `not valid UTF-8 at byte ${badAt}`],
      [3, 'nests deeper than 100 levels'],
    ]);
    // set aside byte for byte: the 0xff is kept, not replaced by U+FFFD
    const { aside, lines } = setAsideDamaged(file, loaded.corrupt);
    expect(lines).toBe(`line 2 (not valid UTF-8 at byte ${badAt}), line 3 (nests deeper than 100 levels)`);
    expect(readFileSync(aside)).toEqual(Buffer.concat([b, Buffer.from(deep)]));
  });

  it('a trajectories.jsonl that is a folder is an input error, not a crash', () => {
    expect(() => loadTrajectoryLog(root)).toThrow(`${root}: $: is not a regular file`);
  });
});
