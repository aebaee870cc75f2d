import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTau2Results, writeTau2Results } from '../../src/tau2/results-file.js';
import { TAU2 } from '../helpers/paths.js';
import { readJsonl } from '../helpers/run-files.js';
import { exportRun, tempDir } from './helpers.js';

// Real results files written by τ²-bench runs (shared/tau2/results); their counts were read with jq.
const RESULTS = join(TAU2, 'results');
const file = (name: string) => join(RESULTS, name);
const RETAIL_40 = file('retail__gpt-4.1__user-gpt-4.1__sierra-feature-gym.json');

describe("τ²'s results.json: one reader and writer", () => {
  it('reads every real τ² results file', () => {
    const counts = Object.fromEntries(
      readdirSync(RESULTS)
        .filter((f) => f.endsWith('.json'))
        .map((f) => {
          const r = readTau2Results(file(f));
          return [
            f.split('__')[0] + (f.includes('1sim') ? '-1' : '-n'),
            [r.tasks.length, r.simulations.length],
          ];
        }),
    );
    expect(counts).toEqual({
      'airline-1': [1, 1],
      'airline-n': [20, 20],
      'retail-1': [1, 1],
      'retail-n': [40, 40],
    });
    const r = readTau2Results(RETAIL_40);
    const sim = r.simulations[0];
    expect(sim?.reward_info?.reward_basis).toEqual(['DB', 'COMMUNICATE']);
    expect(sim?.messages[4]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'call_2xzbrH6DkKxcu4GnAB2Rdipb', name: 'find_user_id_by_email', requestor: 'assistant' },
      ],
    });
  });

  it('writes what it reads without losing a field (streamed simulations)', async () => {
    for (const name of readdirSync(RESULTS).filter((f) => f.endsWith('.json'))) {
      const original = readTau2Results(file(name));
      const out = join(tempDir(), 'results.json');
      async function* sims() {
        yield* original.simulations;
      }
      const n = await writeTau2Results(out, {
        timestamp: original.timestamp ?? '',
        info: original.info,
        tasks: original.tasks,
        simulations: sims(),
      });
      expect(n).toBe(original.simulations.length);
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(JSON.parse(readFileSync(file(name), 'utf8')));
      expect(readTau2Results(out)).toEqual(original);
    }
  });

  it('names the file and the JSON path of what is wrong', () => {
    const base = JSON.parse(readFileSync(RETAIL_40, 'utf8'));
    const broken = (edit: (r: typeof base) => void) => {
      const copy = structuredClone(base);
      edit(copy);
      const f = join(tempDir(), 'results.json');
      writeFileSync(f, JSON.stringify(copy));
      return () => readTau2Results(f);
    };
    expect(
      broken((r) => {
        r.simulations[0].messages[4].tool_calls[0].arguments = '{"email": "x"}';
      }),
    ).toThrow(/results\.json: \$\.simulations\[0\]\.messages\[4\]\.tool_calls\[0\]\.arguments: /);
    expect(
      broken((r) => {
        r.simulations[0].messages[5].id = 'call_nobody';
      }),
    ).toThrow(/\$\.simulations\[0\]\.messages\[5\]\.id: tool message answers 'call_nobody'/);
    expect(
      broken((r) => {
        r.simulations[1].task_id = 'nope';
      }),
    ).toThrow(/\$\.simulations\[1\]\.task_id: no task with id 'nope'/);
    expect(
      broken((r) => {
        r.simulations[2].termination_reason = 'gave_up';
      }),
    ).toThrow(/\$\.simulations\[2\]\.termination_reason: /);
    expect(
      broken((r) => {
        delete r.info.environment_info;
      }),
    ).toThrow(/\$\.info\.environment_info: /);
  });

  it('exports τ² simulations with reward 1 as training rows, with τ²’s agent prompt and tools', () => {
    const raw = JSON.parse(readFileSync(RETAIL_40, 'utf8'));
    const passed = raw.simulations.filter(
      (s: { reward_info: { reward: number } }) => s.reward_info.reward === 1,
    );
    const out = join(tempDir(), 'hf');
    exportRun(['--in', RETAIL_40, '--format', 'hf', '--out', out, '--tau2-data', TAU2]);
    const rows = readJsonl<{
      messages: { role: string; content?: string; tool_calls?: unknown[] }[];
      tools: string;
    }>(join(out, 'data.jsonl'));
    expect(rows.length).toBe(passed.length);
    const template = readFileSync(join(TAU2, 'agent_system_prompt.txt'), 'utf8');
    expect(rows[0]?.messages[0]?.content).toBe(
      template.replace('{contents of policy.md, verbatim}', raw.info.environment_info.policy),
    );
    const schemas = JSON.parse(readFileSync(join(TAU2, 'tool_schemas.json'), 'utf8'));
    // the OpenAI part of each entry (the file's extra keys, `tool_type` and `mutates_state`, are not sent to a model)
    expect(JSON.parse(rows[0]?.tools ?? '')).toEqual(
      schemas.retail.agent_tools.map((t: { function: unknown }) => ({
        type: 'function',
        function: t.function,
      })),
    );
    const calls = (msgs: { tool_calls?: unknown[] }[]) =>
      msgs.reduce((a, m) => a + (m.tool_calls?.length ?? 0), 0);
    const sourceCalls = (s: { messages: { tool_calls: unknown[] | null }[] }) =>
      s.messages.reduce((a, m) => a + (m.tool_calls?.length ?? 0), 0);
    expect(rows.reduce((a, r) => a + calls(r.messages), 0)).toBe(
      passed.reduce(
        (a: number, s: { messages: { tool_calls: unknown[] | null }[] }) => a + sourceCalls(s),
        0,
      ),
    );
  });

  it('passes τ² simulations through to --format tau2 unchanged', () => {
    const out = join(tempDir(), 'tau2');
    exportRun(['--in', RETAIL_40, '--format', 'tau2', '--out', out, '--tau2-data', TAU2, '--min-score', '0']);
    const written = readTau2Results(join(out, 'data.json'));
    const original = readTau2Results(RETAIL_40);
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    expect([...written.simulations].sort(byId)).toEqual([...original.simulations].sort(byId));
    expect(written.info).toEqual(original.info);
  });
});
