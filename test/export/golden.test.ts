import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { hfRow } from '../../src/export/formats/hf.js';
import { openAiRow } from '../../src/export/formats/openai.js';
import { shareGptRow } from '../../src/export/formats/sharegpt.js';
import { recordRewardInfo, recordSimulation } from '../../src/export/formats/tau2.js';
import { VerlParquetWriter, verlRow } from '../../src/export/formats/verl.js';
import { CANCEL2, ORDER42, order42Record, TEXT_AND_CALL } from './examples.js';
import { tempDir } from './helpers.js';

// Golden rows written by hand from the examples of training-formats §2.1 (OpenAI), §2.2 (TRL), §2.3
// (LLaMA-Factory), §2.4 (verl) and §5 (τ²), adjusted where cove's choices are documented: ids kept on tool calls,
// `weight` on every assistant message, the greeting and the user's stop turn handled per format.
// (compared as compact JSON with the key order of the file, so the files may be formatted freely)
const golden = (name: string) =>
  JSON.stringify(JSON.parse(readFileSync(join(import.meta.dirname, 'golden', name), 'utf8')));

describe('golden rows from the training-formats examples', () => {
  it('hf (TRL): byte for byte', () => {
    expect(JSON.stringify(hfRow(ORDER42))).toBe(golden('order42.hf.json'));
  });

  it('openai: byte for byte, with the parallel-call example', () => {
    expect(JSON.stringify(openAiRow(ORDER42))).toBe(golden('order42.openai.json'));
    expect(JSON.stringify(openAiRow(CANCEL2))).toBe(golden('cancel2.openai.json'));
  });

  it('sharegpt (LLaMA-Factory): byte for byte; parallel calls as a list and one merged observation', () => {
    expect(JSON.stringify(shareGptRow(ORDER42))).toBe(golden('order42.sharegpt.json'));
    expect(JSON.stringify(shareGptRow(CANCEL2))).toBe(golden('cancel2.sharegpt.json'));
  });

  it('sharegpt leaves out a turn with both text and a tool call, hf keeps both', () => {
    expect(shareGptRow(TEXT_AND_CALL)).toEqual({ skip: 'text_with_tool_call' });
    expect(hfRow(TEXT_AND_CALL).messages[2]).toEqual({
      role: 'assistant',
      content: 'Let me look that up.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_order', arguments: { order_id: '42' } } },
      ],
    });
  });

  it('verl: the Parquet row read back by DuckDB equals the golden row', async () => {
    expect(verlRow(ORDER42)).toEqual(JSON.parse(golden('order42.verl.json')));
    const file = join(tempDir(), 'golden.parquet');
    const w = new VerlParquetWriter(file, 'cove test');
    w.add(verlRow(ORDER42));
    expect(w.close()).toBe(1);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const rows = (await c.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRowObjectsJson();
    expect(rows).toEqual([JSON.parse(golden('order42.verl.json'))]);
    c.closeSync();
  });

  it('verl: an empty export is a valid Parquet file with the schema and no rows', async () => {
    const file = join(tempDir(), 'empty.parquet');
    expect(new VerlParquetWriter(file, 'cove test').close()).toBe(0);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    expect(
      (await c.runAndReadAll(`SELECT count(*)::INT AS n FROM read_parquet('${file}')`)).getRowObjects(),
    ).toEqual([{ n: 0 }]);
    c.closeSync();
  });

  it("tau2: the §5 example's messages, turn_idx, flat tool calls and the reward", () => {
    const sim = recordSimulation(order42Record(), Date.UTC(2026, 7, 20, 12, 0, 0));
    const expected = JSON.parse(golden('order42.tau2-messages.json')) as Record<string, unknown>[];
    expect(sim.messages.length).toBe(expected.length);
    sim.messages.forEach((m, i) => {
      expect(m).toMatchObject(expected[i] as object);
    });
    expect([sim.id, sim.task_id, sim.trial, sim.seed, sim.termination_reason]).toEqual([
      'sim-0001',
      't42',
      0,
      300,
      'user_stop',
    ]);
    expect([sim.start_time, sim.end_time, sim.duration]).toEqual([
      '2026-08-20T12:00:00.000',
      '2026-08-20T12:00:09.100',
      9.1,
    ]);
    expect(sim.messages.at(-1)?.timestamp).toBe('2026-08-20T12:00:09.100');
    expect(sim.reward_info).toMatchObject({
      reward: 1,
      db_check: { db_match: true, db_reward: 1 },
      reward_basis: ['DB', 'COMMUNICATE'],
      reward_breakdown: { DB: 1, COMMUNICATE: 1 },
    });
  });

  it("tau2: a τ²-evaluated record carries its evaluator's report; a premature end gets reward 0 and no basis", () => {
    const report = {
      db_check: { db_match: true, db_reward: 1 },
      communicate_checks: [{ info: '42', met: true, justification: 'said' }],
      reward_basis: ['DB', 'COMMUNICATE'],
      reward_breakdown: { DB: 1, COMMUNICATE: 1 },
    };
    expect(recordRewardInfo(order42Record({ evaluation: { evaluator: 'tau2', reward: 1, report } }))).toEqual(
      { reward: 1, ...report },
    );
    const stopped = recordRewardInfo(
      order42Record({
        termination_reason: 'max_steps',
        verification: {
          score: 0,
          stateMatch: false,
          tau2Reward: 0,
          constraints: [],
          redundant: [],
          terminationOk: false,
        },
      }),
    );
    expect([stopped.reward, stopped.reward_basis]).toEqual([0, null]);
  });
});
