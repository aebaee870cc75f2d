import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { beforeAll, describe, expect, it } from 'vitest';
import { hfRow } from '../../src/export/formats/hf.js';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import { readJsonl, readRecords } from '../helpers/run-files.js';
import { CANCEL2, ORDER42 } from './examples.js';
import { expectedTraining, exportRun, makeRun, tempDir } from './helpers.js';

// The hf rows go through a chat template the way TRL feeds them (`tools` json-loaded, passed beside the
// messages), rendered by @huggingface/jinja; then the tool calls are parsed back out of the text the way a Hermes
// tool parser does (`<tool_call>(.*?)</tool_call>`), and must equal the trajectory's calls.
const template = new Template(readFileSync(join(import.meta.dirname, 'hermes-tools.jinja'), 'utf8'));

function render(row: { messages: readonly unknown[]; tools: string }): string {
  return template.render({
    messages: row.messages,
    tools: JSON.parse(row.tools),
    add_generation_prompt: false,
  });
}

const TOOL_CALL = /<tool_call>\n(.*?)\n<\/tool_call>/gs;
const ASSISTANT_TURN = /<\|im_start\|>assistant\n(.*?)<\|im_end\|>/gs;
/** The tool calls a Hermes parser finds in the assistant turns (the model's output) of a rendered text. */
const parsedCalls = (text: string) =>
  [...text.matchAll(ASSISTANT_TURN)].flatMap((turn) =>
    [...(turn[1] as string).matchAll(TOOL_CALL)].map((m) => JSON.parse(m[1] as string)),
  );

describe('hf rows through a Hermes chat template', () => {
  it('renders the training-formats example exactly', () => {
    const tool =
      '{"type": "function", "function": {"name": "get_order", "description": "Look up an order", "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}}';
    expect(render(hfRow(ORDER42))).toBe(
      [
        '<|im_start|>system',
        'You are a retail support agent.',
        '',
        '# Tools',
        '',
        'You can call the functions below. Each function signature is one line inside <tools></tools>:',
        '<tools>',
        tool,
        '</tools>',
        '',
        'To call a function, write a JSON object with its name and arguments inside <tool_call></tool_call> tags:',
        '<tool_call>',
        '{"name": <function-name>, "arguments": <args-json-object>}',
        '</tool_call><|im_end|>',
        '<|im_start|>user',
        'Where is order 42?<|im_end|>',
        '<|im_start|>assistant',
        '<tool_call>',
        '{"name": "get_order", "arguments": {"order_id": "42"}}',
        '</tool_call><|im_end|>',
        '<|im_start|>user',
        '<tool_response>',
        '{"status":"shipped"}',
        '</tool_response><|im_end|>',
        '<|im_start|>assistant',
        'Order 42 has shipped.<|im_end|>',
        '',
      ].join('\n'),
    );
  });

  it('renders two calls of one turn as two blocks and their results in one user turn', () => {
    const text = render(hfRow(CANCEL2));
    expect(text).toContain(
      [
        '<|im_start|>assistant',
        '<tool_call>',
        '{"name": "cancel_order", "arguments": {"order_id": "1"}}',
        '</tool_call>',
        '<tool_call>',
        '{"name": "cancel_order", "arguments": {"order_id": "2"}}',
        '</tool_call><|im_end|>',
        '<|im_start|>user',
        '<tool_response>',
        'cancelled 1',
        '</tool_response>',
        '<tool_response>',
        'cancelled 2',
        '</tool_response><|im_end|>',
      ].join('\n'),
    );
    expect(parsedCalls(text)).toEqual([
      { name: 'cancel_order', arguments: { order_id: '1' } },
      { name: 'cancel_order', arguments: { order_id: '2' } },
    ]);
  });

  describe('a real run', () => {
    let records: TrajectoryRecord[];
    let rows: { messages: unknown[]; tools: string }[];
    beforeAll(async () => {
      const run = await makeRun(20, 5);
      const out = join(tempDir(), 'hf');
      exportRun(['--in', run, '--format', 'hf', '--out', out]);
      records = readRecords(run).sort((a, b) => a.task_index - b.task_index);
      rows = readJsonl(join(out, 'data.jsonl'));
    });

    it('gives back every tool call, tool, and tool result from the rendered text', () => {
      expect(rows.length).toBe(20);
      rows.forEach((row, i) => {
        const r = records[i] as TrajectoryRecord;
        const text = render(row);
        const kept = expectedTraining(r.messages);
        const calls = kept.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
        expect(calls.length).toBeGreaterThan(0);
        expect(parsedCalls(text)).toEqual(
          calls.map((c) => ({ name: c.function.name, arguments: JSON.parse(c.function.arguments) })),
        );
        const tools = /<tools>\n(.*?)\n<\/tools>/s
          .exec(text)?.[1]
          ?.split('\n')
          .map((l) => JSON.parse(l));
        expect(tools).toEqual(r.tools);
        const results = [...text.matchAll(/<tool_response>\n(.*?)\n<\/tool_response>/gs)].map((m) => m[1]);
        expect(results).toEqual(kept.flatMap((m) => (m.role === 'tool' ? [m.content] : [])));
        expect(text.includes('###STOP###')).toBe(false);
      });
    });
  });
});
