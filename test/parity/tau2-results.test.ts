import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPyDict, type PyDict, type PyValue } from '../../src/core/py-value.js';
import type { LoadedDb } from '../../src/domains/load-db.js';
import { readJsonFile } from '../../src/domains/load-db.js';
import { replayCalls } from '../../src/env/replay.js';
import { parseTau2Tasks } from '../../src/tasks/tau2-task.js';
import { tau2AirlineBase } from '../helpers/airline-base.js';
import { TAU2 } from '../helpers/paths.js';
import { tau2RetailBase } from '../helpers/retail-base.js';

/**
 * Real model trajectories recorded by τ² (GPT-4.1 and GPT-4.1-mini runs of τ²-bench, `results/<domain>__*.json`):
 * every tool call of every simulation is replayed, in order, on a fresh episode of τ²'s DB; each must give the
 * output and error flag τ² recorded, and the episode's end state must get the `db_check` verdict τ² recorded
 * (same τ² hash as the gold actions' end state, or not).
 */

const RESULTS = join(TAU2, 'results');
const BASES: Record<string, () => LoadedDb> = { airline: tau2AirlineBase, retail: tau2RetailBase };

const get = (d: PyValue | undefined, key: string): PyValue | undefined =>
  isPyDict(d ?? null) ? (d as PyDict).get(key) : undefined;

interface RecordedCall {
  readonly name: string;
  readonly arguments: PyValue;
  readonly content: string;
  readonly error: boolean;
}

/** The tool calls of a simulation in order, each with the tool message that answered it. */
function recordedCalls(messages: PyValue[]): RecordedCall[] {
  const answers = new Map<string, PyDict>();
  for (const m of messages) if (get(m, 'role') === 'tool') answers.set(String(get(m, 'id')), m as PyDict);
  const out: RecordedCall[] = [];
  for (const m of messages) {
    const calls = get(m, 'tool_calls');
    if (!Array.isArray(calls)) continue;
    for (const c of calls) {
      const answer = answers.get(String(get(c, 'id')));
      if (answer === undefined) throw new Error(`tool call ${String(get(c, 'id'))} has no answer`);
      out.push({
        name: String(get(c, 'name')),
        arguments: get(c, 'arguments') ?? new Map(),
        content: String(get(answer, 'content')),
        error: get(answer, 'error') === true,
      });
    }
  }
  return out;
}

/** Tool messages per file, counted in the files themselves (so the replay is known to cover them all). */
const EXPECTED_CALLS: Record<string, number> = {
  'airline__gpt-4.1-mini__user-gpt-4.1-mini__1sim__pr170.json': 1,
  'airline__gpt-4.1__user-gpt-4.1__sierra-feature-gym.json': 148,
  'retail__gpt-4.1-mini__user-gpt-4.1-mini__1sim__pr170.json': 5,
  'retail__gpt-4.1__user-gpt-4.1__sierra-feature-gym.json': 299,
};

const files = readdirSync(RESULTS)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ file: f, domain: f.split('__')[0] as string }));

describe.each(files)('τ² result file $file', ({ file, domain }) => {
  const path = join(RESULTS, file);
  const value = readJsonFile(path);
  const tasks = parseTau2Tasks(get(value, 'tasks') ?? [], path);
  const simulations = (get(value, 'simulations') ?? []) as PyValue[];

  it('replays every tool call with τ²’s output and error flag, and τ²’s db_check verdict', {
    timeout: 120_000,
  }, () => {
    const base = (BASES[domain] as () => LoadedDb)().base;
    let calls = 0;
    for (const sim of simulations) {
      const where = `${file} task ${String(get(sim, 'task_id'))}`;
      const recorded = recordedCalls(get(sim, 'messages') as PyValue[]);
      const { episode, calls: replayed } = replayCalls(base, recorded);
      try {
        recorded.forEach((r, i) => {
          const got = replayed[i];
          expect({ where, i, name: r.name, content: got?.content, error: got?.error }).toEqual({
            where,
            i,
            name: r.name,
            content: r.content,
            error: r.error,
          });
        });
        calls += recorded.length;
        const dbCheck = get(get(sim, 'reward_info'), 'db_check');
        if (dbCheck === null || dbCheck === undefined) continue;
        const task = tasks.find((t) => t.task.id === String(get(sim, 'task_id')));
        const actions = task?.task.evaluation_criteria?.actions;
        let match = true;
        if (actions !== null && actions !== undefined) {
          const gold = replayCalls(
            base,
            actions.map((a) => ({ name: a.name, arguments: a.arguments })),
          );
          match = gold.episode.hashes().db_hash === episode.hashes().db_hash;
          gold.episode.close();
        }
        expect({ where, db_match: match }).toEqual({ where, db_match: get(dbCheck, 'db_match') });
      } finally {
        episode.close();
      }
    }
    expect(calls).toBe(EXPECTED_CALLS[file]);
  });
});
