import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexJsonl, readSpans } from '../../src/view/jsonl-index.js';

const dir = mkdtempSync(join(tmpdir(), 'cove-view-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A record in the writer's key order: head, messages, tools, then the tail from termination_reason on. */
function record(
  id: string,
  taskIndex: number,
  opts: { score?: number; failure?: string; messages?: unknown[] } = {},
) {
  return {
    id,
    run: 'r',
    task_id: `t${taskIndex}`,
    task_index: taskIndex,
    domain: 'retail',
    trial: 0,
    attempt: 0,
    seed: 1,
    agent: 'oracle',
    user: 'scripted',
    settings: { semantics: 'parity', text: 'cove', guidelines: 'scripted' },
    db_sha256: 'x',
    messages: opts.messages ?? [
      { role: 'assistant', content: 'Hi! How can I help you today?' },
      { role: 'user', content: 'cancel my order "#W1" please {"role":"user"}' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'cancel', arguments: '{"role":"tool"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', name: 'cancel', content: '{"role": "tool"}' },
      { role: 'user', content: 'thanks ###STOP###' },
    ],
    tools: [{ type: 'function', function: { name: 'cancel', parameters: { type: 'object' } } }],
    termination_reason: 'user_stop',
    verification: {
      score: opts.score ?? 1,
      stateMatch: (opts.score ?? 1) === 1,
      tau2Reward: 1,
      constraints: [{ id: 'c1', kind: 'cancel_pending_order', satisfied: true, evidence: 'ok' }],
      redundant: [],
      terminationOk: true,
    },
    usage: { prompt_tokens: 10, completion_tokens: 5, cost_usd: 0.25, retries: 2 },
    timing_ms: 1,
    cove_version: '0',
    leaks: 0,
    invalid_tool_arguments: 0,
    unknown_tool_calls: 0,
    ...(opts.failure === undefined ? {} : { failure: opts.failure }),
    benchmark_data: false,
  };
}

describe('indexJsonl', () => {
  const lines = [
    JSON.stringify(record('a', 0)),
    'not json at all',
    JSON.stringify({ hello: 'world' }),
    '',
    // keys in another order: the fallback parser reads it
    JSON.stringify({
      ...record('b', 1, { score: 0.5, failure: 'wrong_write' }),
      messages: undefined,
    }).replace('{', `{"messages":${JSON.stringify(record('b', 1).messages)},`),
    JSON.stringify(record('a', 0, { score: 0, failure: 'max_steps' })),
  ];
  const file = join(dir, 'index.jsonl');
  writeFileSync(file, `${lines.join('\r\n')}\r\n`);

  it('indexes every line, reads records fast or slow alike, and keeps malformed lines with their reason', async () => {
    for (const chunkBytes of [64, 1 << 20]) {
      const index = await indexJsonl(file, [], { chunkBytes });
      expect(index.spans.count).toBe(6);
      // spans by hand: each line's bytes plus CRLF
      let offset = 0;
      lines.forEach((l, i) => {
        const span = index.spans.get(i);
        expect(span.offset).toBe(offset);
        expect(span.length).toBe(Buffer.byteLength(l) + 1); // the \r is inside the span, the \n is not
        offset += Buffer.byteLength(l) + 2;
      });
      expect(index.malformed.map((m) => m.line)).toEqual([1, 2]);
      expect(index.malformed[0]?.reason).toMatch(/^not JSON/);
      expect(index.malformed[1]?.reason).toBe('field id: missing or not a string');
      expect(index.blank).toBe(1);
      // the later line of id 'a' supersedes the first
      expect(index.superseded).toBe(1);
      expect(index.facts.map((f) => [f.id, f.line, f.score, f.failure])).toEqual([
        ['b', 4, 0.5, 'wrong_write'],
        ['a', 5, 0, 'max_steps'],
      ]);
      for (const f of index.facts) {
        // 5 messages: 2 user turns, 1 tool result (quotes inside strings are not keys)
        expect([f.messages, f.userTurns, f.toolCalls]).toEqual([5, 2, 1]);
        expect([f.promptTokens, f.completionTokens, f.costUsd, f.retries]).toEqual([10, 5, 0.25, 2]);
        expect(f.kinds).toEqual(['cancel_pending_order']);
        expect(f.k).toBe(1);
        expect(f.passed).toBe(f.score === 1);
      }
    }
  });

  it('locates the messages array of fast-read lines for text search', async () => {
    const index = await indexJsonl(file, []);
    const span = index.spans.get(5);
    const [text] = await readSpans(file, [span]);
    const messages = (text ?? '').slice(span.messagesStart, span.messagesEnd);
    expect(JSON.parse(messages)).toEqual(record('a', 0).messages);
  });

  it('finds the messages of consecutive records with different tools', async () => {
    const one = record('x', 0);
    const two = {
      ...record('y', 0),
      tools: [{ type: 'function', function: { name: 'other', parameters: {} } }],
    };
    const three = { ...record('z', 0), tools: [] };
    const f4 = join(dir, 'tools.jsonl');
    writeFileSync(f4, [one, two, three, one].map((r) => JSON.stringify(r)).join('\n'));
    const index = await indexJsonl(f4, []);
    expect(index.facts.map((f) => [f.id, f.messages])).toEqual([
      ['y', 5],
      ['z', 5],
      ['x', 5],
    ]);
    const texts = await readSpans(
      f4,
      [0, 1, 2, 3].map((i) => index.spans.get(i)),
    );
    texts.forEach((text, i) => {
      const span = index.spans.get(i);
      expect(span.messagesStart).toBeGreaterThan(0);
      expect(JSON.parse(text.slice(span.messagesStart, span.messagesEnd))).toEqual(one.messages);
    });
  });

  it('takes difficulty and kinds from the tasks when given', async () => {
    const index = await indexJsonl(file, [
      { difficulty: 'easy', kinds: ['x'], k: 1 },
      { difficulty: 'hard', kinds: ['y'], k: 4 },
    ]);
    expect(index.facts.map((f) => [f.id, f.difficulty])).toEqual([
      ['b', 'hard'],
      ['a', 'easy'],
    ]);
  });

  it('reads a record graded by another evaluator (evaluation, no verification)', async () => {
    const { verification: _v, ...rest } = record('e', 0);
    const graded = {
      ...rest,
      evaluation: { evaluator: 'tau2', reward: 1, report: { reward_basis: ['DB'] } },
    };
    const failed = { ...graded, id: 'f', evaluation: { evaluator: 'tau2', reward: null, report: {} } };
    const f3 = join(dir, 'evaluated.jsonl');
    writeFileSync(f3, `${JSON.stringify(graded)}\n${JSON.stringify(failed)}\n`);
    const index = await indexJsonl(f3, []);
    expect(index.malformed).toEqual([]);
    expect(index.facts.map((f) => [f.id, f.score, f.reward, f.passed, f.sft, f.kinds])).toEqual([
      ['e', null, 1, true, true, []],
      ['f', null, null, false, false, []],
    ]);
  });

  it('counts an SFT record only when nothing disqualifies it (keptForSft)', async () => {
    const leak = { ...record('c', 0), leaks: 1 };
    const f2 = join(dir, 'sft.jsonl');
    writeFileSync(f2, `${JSON.stringify(record('d', 0))}\n${JSON.stringify(leak)}`); // no final newline
    const index = await indexJsonl(f2, []);
    expect(index.facts.map((f) => [f.id, f.sft])).toEqual([
      ['d', true],
      ['c', false],
    ]);
  });
});

describe('indexJsonl continued from an earlier index (a file that grew)', () => {
  it('reads only the bytes after the earlier index, numbering lines on, and superseding across the two', async () => {
    const file = join(dir, 'grown.jsonl');
    const a = JSON.stringify(record('a', 0));
    writeFileSync(file, `${a}\n`);
    const earlier = await indexJsonl(file, []);
    // the first line is replaced by one of the same length: a continued index does not read it again
    const b = JSON.stringify(record('b', 0));
    const again = JSON.stringify(record('a', 1, { score: 0 }));
    writeFileSync(file, `${b}\n${JSON.stringify(record('c', 0))}\n${again}\n`);
    const grown = await indexJsonl(file, [], { from: earlier });
    // line 0 is still the earlier 'a' (not re-read), superseded by line 2's 'a'
    expect(grown.facts.map((f) => [f.id, f.line, f.score])).toEqual([
      ['c', 1, 1],
      ['a', 2, 0],
    ]);
    expect([grown.spans.count, grown.superseded]).toEqual([3, 1]);
    // the earlier index is left as it was
    expect(earlier.facts.map((f) => f.id)).toEqual(['a']);
    expect(earlier.spans.count).toBe(1);
  });

  it('reads a file again whole when the earlier index ended in a line still being written', async () => {
    const file = join(dir, 'torn.jsonl');
    const a = JSON.stringify(record('a', 0));
    writeFileSync(file, a.slice(0, 100));
    const earlier = await indexJsonl(file, []);
    expect(earlier.malformed.map((m) => m.line)).toEqual([0]);
    writeFileSync(file, `${a}\n${JSON.stringify(record('b', 0))}\n`);
    const grown = await indexJsonl(file, [], { from: earlier });
    expect(grown.malformed).toEqual([]);
    expect(grown.facts.map((f) => [f.id, f.line])).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
  });
});
