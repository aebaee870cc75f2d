import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import type { ChatMessage } from '../../src/sim/messages.js';
import { readTau2Results } from '../../src/tau2/results-file.js';
import { readJsonl, readRecords } from '../helpers/run-files.js';
import { essence, expectedTraining, exportRun, makeRun, tempDir } from './helpers.js';

// One real run (30 tasks, all kept by the oracle), exported to every format and read back the way a trainer
// would read it; each row must carry exactly its trajectory, in sft.jsonl's order, with sft.jsonl's system prompt.
let run: string;
let records: TrajectoryRecord[];
let sft: { messages: { role: string; content: string }[] }[];

beforeAll(async () => {
  run = await makeRun(30);
  records = readRecords(run).sort(
    (a, b) => a.task_index - b.task_index || a.trial - b.trial || a.attempt - b.attempt,
  );
  sft = readJsonl(join(run, 'sft.jsonl'));
});

function exported(format: string): string {
  const out = join(tempDir(), format);
  exportRun(['--in', run, '--format', format, '--out', out]);
  return out;
}

describe('every format round-trips to the source trajectories', () => {
  it('selects what sft.jsonl keeps, in its order', () => {
    expect(sft.length).toBe(30);
    expect(records.length).toBe(30);
  });

  it('hf: messages with object arguments, tools as a JSON string', () => {
    const rows = readJsonl<{ messages: Record<string, unknown>[]; tools: string }>(
      join(exported('hf'), 'data.jsonl'),
    );
    expect(rows.length).toBe(records.length);
    rows.forEach((row, i) => {
      const r = records[i] as TrajectoryRecord;
      expect(Object.keys(row)).toEqual(['messages', 'tools']);
      expect(row.messages[0]).toEqual({ role: 'system', content: sft[i]?.messages[0]?.content });
      expect(JSON.parse(row.tools)).toEqual(r.tools);
      const back: ChatMessage[] = row.messages.slice(1).map((m) => {
        if (m.role === 'assistant') {
          const calls = (m.tool_calls ?? []) as {
            id: string;
            function: { name: string; arguments: unknown };
          }[];
          for (const c of calls) expect(typeof c.function.arguments).toBe('object');
          return {
            role: 'assistant',
            content: (m.content as string | undefined) ?? null,
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.function.name, arguments: JSON.stringify(c.function.arguments) },
            })),
          };
        }
        return m as unknown as ChatMessage;
      });
      expect(essence(back)).toEqual(essence(expectedTraining(r.messages)));
      expect(
        row.messages
          .filter((m) => m.role === 'tool')
          .every((m) => typeof m.name === 'string' && typeof m.tool_call_id === 'string'),
      ).toBe(true);
    });
  });

  it('openai: string arguments, weight 0 only on the greeting, parallel_tool_calls', () => {
    const rows = readJsonl<{
      messages: Record<string, unknown>[];
      tools: unknown;
      parallel_tool_calls: boolean;
    }>(join(exported('openai'), 'data.jsonl'));
    expect(rows.length).toBe(records.length);
    rows.forEach((row, i) => {
      const r = records[i] as TrajectoryRecord;
      expect(row.tools).toEqual(r.tools);
      expect(row.parallel_tool_calls).toBe(
        r.messages.some((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 1),
      );
      const assistants = row.messages.filter((m) => m.role === 'assistant');
      expect(assistants.map((m) => m.weight)).toEqual(assistants.map((_, j) => (j === 0 ? 0 : 1)));
      expect(assistants[0]?.content).toBe('Hi! How can I help you today?');
      expect(row.messages.filter((m) => m.role !== 'assistant').some((m) => 'weight' in m)).toBe(false);
      const back = row.messages
        .slice(1)
        .map(({ weight: _w, ...m }) =>
          m.role === 'tool' ? { ...m, name: '' } : m,
        ) as unknown as ChatMessage[];
      expect(essence(back)).toEqual(essence(expectedTraining(r.messages)));
    });
  });

  it('sharegpt: alternating human/gpt/function_call/observation, system column, tools string', () => {
    const out = exported('sharegpt');
    const rows = readJsonl<{
      conversations: { from: string; value: string }[];
      system: string;
      tools: string;
    }>(join(out, 'data.jsonl'));
    expect(rows.length).toBe(records.length);
    const info = JSON.parse(readFileSync(join(out, 'dataset_info.json'), 'utf8'));
    expect(info).toEqual({
      cove_train: {
        file_name: 'data.jsonl',
        formatting: 'sharegpt',
        columns: { messages: 'conversations', system: 'system', tools: 'tools' },
        tags: {
          role_tag: 'from',
          content_tag: 'value',
          user_tag: 'human',
          assistant_tag: 'gpt',
          observation_tag: 'observation',
          function_tag: 'function_call',
        },
      },
    });
    rows.forEach((row, i) => {
      const r = records[i] as TrajectoryRecord;
      expect(row.system).toBe(sft[i]?.messages[0]?.content);
      expect(JSON.parse(row.tools)).toEqual(r.tools.map((t) => t.function));
      // LLaMA-Factory's rule: odd positions human|observation, even gpt|function_call, an even count
      row.conversations.forEach((t, j) => {
        expect(j % 2 === 0 ? ['human', 'observation'] : ['gpt', 'function_call']).toContain(t.from);
      });
      expect(row.conversations.length % 2).toBe(0);
      // back to calls and results, matching results to calls by order
      const expected = expectedTraining(r.messages).slice(1); // the greeting is left out
      const back: unknown[] = [];
      let lastCalls: { name: string; arguments: unknown }[] = [];
      for (const t of row.conversations) {
        if (t.from === 'human') back.push({ role: 'user', content: t.value });
        else if (t.from === 'gpt') back.push({ role: 'assistant', content: t.value, calls: [] });
        else if (t.from === 'function_call') {
          const v = JSON.parse(t.value);
          lastCalls = Array.isArray(v) ? v : [v];
          back.push({ role: 'assistant', content: null, calls: lastCalls });
        } else {
          const parts = t.value.split('\n</tool_response>\n<tool_response>\n');
          expect(parts.length).toBe(lastCalls.length);
          for (const p of parts) back.push({ role: 'tool', content: p });
        }
      }
      const strip = (e: unknown[]) =>
        e.map((m) => {
          const x = m as { role: string; content?: string; calls?: { name: string; arguments: unknown }[] };
          if (x.role === 'tool') return { role: 'tool', content: x.content };
          if (x.calls !== undefined)
            return { ...x, calls: x.calls.map((c) => ({ name: c.name, arguments: c.arguments })) };
          return x;
        });
      expect(back).toEqual(strip(essence(expected)));
    });
  });

  it('verl: Parquet read back by DuckDB with the expected schema and row count', async () => {
    const file = join(exported('verl'), 'data.parquet');
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const schema = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`)).getRowObjects();
    expect(schema.map((s) => [s.column_name, s.column_type])).toEqual([
      [
        'messages',
        'STRUCT("role" VARCHAR, "content" VARCHAR, reasoning_content VARCHAR, tool_calls STRUCT(id VARCHAR, "type" VARCHAR, "function" STRUCT("name" VARCHAR, arguments VARCHAR))[], tool_call_id VARCHAR, "name" VARCHAR)[]',
      ],
      ['tools', 'VARCHAR'],
      ['data_source', 'VARCHAR'],
      ['extra_info', 'VARCHAR'],
    ]);
    const rows = (await c.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRowObjectsJson() as {
      messages: {
        role: string;
        content: string | null;
        tool_calls: { id: string; function: { name: string; arguments: string } }[] | null;
        tool_call_id: string | null;
        name: string | null;
      }[];
      tools: string;
      data_source: string;
      extra_info: string;
    }[];
    expect(rows.length).toBe(records.length);
    rows.forEach((row, i) => {
      const r = records[i] as TrajectoryRecord;
      expect(row.messages[0]?.content).toBe(sft[i]?.messages[0]?.content);
      expect(JSON.parse(row.tools)).toEqual(r.tools);
      expect(row.data_source).toBe('cove/retail/sandbox');
      expect(JSON.parse(row.extra_info)).toMatchObject({ id: r.id, task_id: r.task_id, reward: 1 });
      const back = row.messages.slice(1).map((m) =>
        m.role === 'assistant'
          ? {
              role: 'assistant',
              content: m.content,
              tool_calls: (m.tool_calls ?? []).map((t) => ({ ...t, type: 'function' })),
            }
          : m.role === 'tool'
            ? { role: 'tool', tool_call_id: m.tool_call_id, name: m.name, content: m.content }
            : { role: m.role, content: m.content },
      ) as unknown as ChatMessage[];
      expect(essence(back)).toEqual(essence(expectedTraining(r.messages)));
    });
    c.closeSync();
  });

  it("tau2: τ²'s results file with every message of each trajectory", () => {
    const results = readTau2Results(join(exported('tau2'), 'data.json'));
    expect(results.simulations.length).toBe(records.length);
    expect(results.tasks.map((t) => t.id).sort()).toEqual(records.map((r) => r.task_id).sort());
    expect(results.info.environment_info.domain_name).toBe('retail');
    results.simulations.forEach((s, i) => {
      const r = records[i] as TrajectoryRecord;
      expect([s.id, s.task_id, s.trial, s.seed, s.termination_reason]).toEqual([
        r.id,
        r.task_id,
        r.trial,
        r.seed,
        'user_stop',
      ]);
      expect(s.reward_info?.reward).toBe(1);
      expect(s.reward_info?.db_check).toEqual({ db_match: true, db_reward: 1 });
      expect(s.messages.map((m) => m.turn_idx)).toEqual(s.messages.map((_, j) => j));
      const back = s.messages.map((m) => {
        if (m.role === 'tool') return { role: 'tool', tool_call_id: m.id, name: '', content: m.content };
        if (m.role === 'assistant') {
          return {
            role: 'assistant',
            content: m.content ?? null,
            tool_calls: (m.tool_calls ?? []).map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: JSON.stringify(c.arguments) },
            })),
          };
        }
        return { role: m.role, content: m.content };
      }) as unknown as ChatMessage[];
      expect(essence(back)).toEqual(essence(r.messages));
    });
  });
});
