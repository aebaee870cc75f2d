import { describe, expect, it } from 'vitest';
import { toPyValue } from '../../src/core/py-value.js';
import { agentContext } from '../../src/domains/agent-context.js';
import { baseFromValue } from '../../src/domains/load-db.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { generateRetailSandbox } from '../../src/domains/retail/sandbox/generate.js';
import { type RunContext, runTaskEpisode } from '../../src/run/episode-runner.js';
import { scriptedRoles } from '../../src/run/roles.js';
import { sftRows } from '../../src/run/sft.js';
import { keptForSft } from '../../src/run/trajectory.js';
import { longestIdenticalRun } from '../../src/sim/call-key.js';
import type { Agent } from '../../src/sim/roles.js';
import type { EpisodeLimits } from '../../src/sim/run-episode.js';
import { synthesizeTask } from '../../src/tasks/sampler.js';
import type { DomainSynthesis } from '../../src/tasks/synthesis.js';

// Issue 23: repeated calls are compared by name and canonical arguments (parsed, keys sorted, 2.0 == 2 as in
// Python), so spacing and key order hide no loop; SFT drops a run of ≥ 5 identical calls even with the guard off.

const loaded = baseFromValue(
  retailDomain,
  generateRetailSandbox({ seed: 5, users: 60, orders: 120 }),
  'sandbox',
);
const synthesis = retailDomain.synthesis as DomainSynthesis;
const task = synthesizeTask(
  synthesis,
  loaded.base,
  {
    domain: 'retail',
    seed: 5,
    difficulty: 'easy',
    fuzz: 2,
    semantics: 'parity',
    db: { path: 'x', canonical_sha256: 'y', benchmark: false },
    coveVersion: 'test',
  },
  0,
);
const episode = loaded.base.fork();
const profile = JSON.parse(
  episode.call('get_user_details', toPyValue({ user_id: task.cove.user_id })).content,
) as { name: { first_name: string; last_name: string }; address: { zip: string } };
episode.close();
const { first_name, last_name } = profile.name;
const zip = profile.address.zip;
/** The same lookup five times, spaced and ordered five different ways. */
const LOOP = [
  JSON.stringify({ first_name, last_name, zip }),
  JSON.stringify({ zip, last_name, first_name }),
  `{ "last_name" : ${JSON.stringify(last_name)}, "first_name":${JSON.stringify(first_name)} , "zip": ${JSON.stringify(zip)} }`,
  JSON.stringify({ last_name, zip, first_name }, null, 2),
  JSON.stringify({ first_name, zip, last_name }),
];

/** The oracle, after first looping on the identity lookup (`LOOP`), once the user has spoken. */
function loopingOracle(inner: Agent): Agent {
  let sent = 0;
  return {
    async respond(messages, signal) {
      if (sent < LOOP.length) {
        const args = LOOP[sent++] as string;
        return {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `loop_${sent}`,
                type: 'function',
                function: { name: 'find_user_id_by_name_zip', arguments: args },
              },
            ],
          },
        };
      }
      return inner.respond(messages, signal);
    },
  };
}

function context(limits: EpisodeLimits): RunContext {
  const scripted = scriptedRoles(retailDomain);
  return {
    run: 'test',
    domain: retailDomain,
    base: loaded.base,
    dbSha256: loaded.hashes.canonical_sha256,
    benchmarkData: false,
    seed: 5,
    settings: { semantics: 'parity', text: 'cove', guidelines: 'scripted' },
    agentContext: agentContext(retailDomain, 'cove'),
    roles: { ...scripted, createAgent: (t, rng) => loopingOracle(scripted.createAgent(t, rng)) },
    limits,
    coveVersion: 'test',
  };
}

describe('identical calls by meaning', () => {
  it('longestIdenticalRun compares name and canonical arguments', () => {
    const call = (name: string, args: string) => ({ name, arguments: args });
    expect(longestIdenticalRun([])).toBe(0);
    expect(longestIdenticalRun(LOOP.map((a) => call('find_user_id_by_name_zip', a)))).toBe(5);
    // a, a, b, a, a, a → 3; 2 and 2.0 are the same number to Python's ==, "2" is a string
    const a = call('calculate', '{"expression": "1+1", "n": 2}');
    const a2 = call('calculate', '{"n": 2.0, "expression": "1+1"}');
    const b = call('calculate', '{"expression": "1+1", "n": "2"}');
    expect(longestIdenticalRun([a, a2, b, a, a2, a])).toBe(3);
    expect(longestIdenticalRun([a, call('other', '{"expression": "1+1", "n": 2}')])).toBe(1);
  });

  it('under the guard, five identical calls with reordered keys end the episode (repeated_tool_call)', async () => {
    const record = await runTaskEpisode(context({ repeatedCallLimit: 5 }), { task, index: 0 }, 0, 0);
    expect(record.termination_reason).toBe('repeated_tool_call');
    expect(record.identical_call_run).toBe(5);
    expect(record.verification?.score).toBe(0);
    expect(keptForSft(record)).toBe(false);
  });

  it('with the guard off (--text tau2), the episode passes but SFT drops it, saying why', async () => {
    const record = await runTaskEpisode(context({ repeatedCallLimit: null }), { task, index: 0 }, 0, 0);
    expect(record.termination_reason).toBe('user_stop');
    expect(record.verification).toMatchObject({ score: 1, stateMatch: true });
    // the oracle's own identity lookup may make it one more
    expect(record.identical_call_run).toBeGreaterThanOrEqual(5);
    expect(record.failure).toBe('identical_call_run');
    expect(keptForSft(record)).toBe(false);
    expect(sftRows([record], 'system')).toEqual([]);
    // the same agent without the loop is kept
    const plain = await runTaskEpisode(
      { ...context({ repeatedCallLimit: null }), roles: scriptedRoles(retailDomain) },
      { task, index: 0 },
      0,
      0,
    );
    expect(plain.identical_call_run).toBeLessThan(5);
    expect(keptForSft(plain)).toBe(true);
  });
});
