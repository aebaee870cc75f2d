import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentContext } from '../../src/domains/agent-context.js';
import { getDomain } from '../../src/domains/registry.js';
import { sftRows } from '../../src/run/sft.js';
import { keptForSft, type TrajectoryRecord } from '../../src/run/trajectory.js';
import { createMockLlmApp } from '../../src/server/mock-llm/app.js';
import { RoleSessions } from '../../src/server/mock-llm/sessions.js';
import { serveApp } from '../../src/server/serve.js';
import { agentApiMessages } from '../../src/sim/llm-agent.js';
import type { ChatMessage } from '../../src/sim/messages.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { type CliResult, runCoveAsync } from '../helpers/cli.js';
import {
  type MockLlmProcess,
  type MockLlmStats,
  mockRoleFlags,
  startMockLlm,
} from '../helpers/llm-mock-process.js';
import { conversationKey, countBy, leaksIn, sftConversations } from '../helpers/llm-run-check.js';
import {
  openAiShapeProblems,
  readJson,
  readJsonl,
  readRecords,
  type SftRowView,
} from '../helpers/run-files.js';

// `cove generate` with an LLM agent and an LLM user, both played by `cove mock-llm` (a child process on
// 127.0.0.1) over 20 tasks: once with a fifth of the requests faulty (every fault kind), once without faults.

const N = 20;
const PRICE = { prompt_per_mtok: 2.5, completion_per_mtok: 10 };

interface Summary {
  tasks: number;
  episodes: number;
  sft_trajectories: number;
  mean_score: number;
  termination_reasons: Record<string, number>;
  failures: Record<string, number>;
  leaks: number;
  invalid_tool_arguments: number;
  unknown_tool_calls: number;
  usage: { prompt_tokens: number; completion_tokens: number; cost_usd: number; retries: number };
}

const root = mkdtempSync(join(tmpdir(), 'cove-mock-llm-e2e-'));
const tasksFile = join(root, 'tasks.json');
const configFile = join(root, 'cove.json');
const faultyDir = join(root, 'faulty');
const cleanDir = join(root, 'clean');
const servers: MockLlmProcess[] = [];
let faulty: CliResult;
let clean: CliResult;
let faultyStats: MockLlmStats;
let cleanStats: MockLlmStats;
let tasks: CoveTask[];
let wallS = 0;

const generateArgs = (baseUrl: string, out: string) => [
  'generate',
  '--tasks',
  tasksFile,
  ...mockRoleFlags(baseUrl),
  '--config',
  configFile,
  '--out',
  out,
];

beforeAll(async () => {
  const started = performance.now();
  const made = await runCoveAsync([
    'tasks',
    '--domain',
    'retail',
    '--sandbox-seed',
    '1',
    '--n',
    String(N),
    '--out',
    tasksFile,
  ]);
  if (made.status !== 0) throw new Error(`cove tasks failed: ${made.stderr}`);
  tasks = readJson<CoveTask[]>(tasksFile);
  // a client timeout (4 s) far above any real answer on a busy machine and far below a `timeout` fault (held
  // 12 s), so that only injected faults time out; one retry only, so that a few episodes meet two faults in a row
  // and end with infrastructure_error
  const role = { timeout_ms: 4000, max_retries: 1 };
  writeFileSync(configFile, JSON.stringify({ roles: { agent: role, user: role }, prices: { mock: PRICE } }));
  const [withFaults, withoutFaults] = await Promise.all([
    startMockLlm([
      '--tasks',
      tasksFile,
      '--fault-rate',
      '0.2',
      '--faults',
      'all',
      '--hang-ms',
      '12000',
      '--slow-ms',
      '100',
    ]),
    startMockLlm(['--tasks', tasksFile]),
  ]);
  servers.push(withFaults, withoutFaults);
  [faulty, clean] = await Promise.all([
    runCoveAsync(generateArgs(withFaults.baseUrl, faultyDir), { timeoutMs: 150_000 }),
    runCoveAsync(generateArgs(withoutFaults.baseUrl, cleanDir), { timeoutMs: 150_000 }),
  ]);
  [faultyStats, cleanStats] = await Promise.all([withFaults.stats(), withoutFaults.stats()]);
  await Promise.all(servers.splice(0).map((s) => s.close()));
  wallS = (performance.now() - started) / 1000;
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(root, { recursive: true, force: true });
});

const hiddenIds = (r: TrajectoryRecord) =>
  (tasks.find((t) => t.id === r.task_id)?.cove.fuzz.hidden_ids as string[] | undefined) ?? [];

describe('cove generate against cove mock-llm with faults', () => {
  it('exits 0 with one episode per task', () => {
    process.stdout.write(`[mock-llm e2e] both runs incl. server start-up: ${wallS.toFixed(1)} s\n`);
    expect(faulty.stderr).not.toMatch(/^cove: /m);
    expect(faulty.status).toBe(0);
    const records = readRecords(faultyDir);
    expect(records).toHaveLength(N);
    expect(new Set(records.map((r) => r.task_id)).size).toBe(N);
    for (const r of records) expect(r).toMatchObject({ agent: 'openai:mock', user: 'openai:mock' });
    expect(records[0]?.settings.guidelines).toBe('cove-1');
  });

  it('injected faults of several kinds (counted by GET /stats)', () => {
    expect(faultyStats.byRole.agent).toBeGreaterThan(0);
    expect(faultyStats.byRole.user).toBeGreaterThan(0);
    const kinds = Object.entries(faultyStats.faults).filter(([, n]) => n > 0);
    expect(kinds.length, JSON.stringify(faultyStats.faults)).toBeGreaterThanOrEqual(6);
    for (const kind of ['429', '500', 'timeout', 'leak'])
      expect(faultyStats.faults[kind], `${kind} in ${JSON.stringify(faultyStats.faults)}`).toBeGreaterThan(0);
  });

  it('retries are recorded: every 429, 500 and timeout the server injected was retried or ended its episode', () => {
    const records = readRecords(faultyDir);
    const summary = readJson<Summary>(join(faultyDir, 'summary.json'));
    const retries = records.reduce((a, r) => a + (r.usage.retries ?? 0), 0);
    expect(summary.usage.retries).toBe(retries);
    expect(retries).toBeGreaterThan(0);
    // max_retries 1: a call that failed for good met two faults in a row and ended its episode
    const lost = records.filter((r) => r.termination_reason === 'infrastructure_error').length;
    const f = faultyStats.faults;
    expect(retries + 2 * lost).toBe((f['429'] ?? 0) + (f['500'] ?? 0) + (f.timeout ?? 0));
  });

  it('every episode that did not pass has a failure; error terminations have a termination_detail', () => {
    const records = readRecords(faultyDir);
    for (const r of records) {
      if (!keptForSft(r)) expect(r.failure, r.id).toBeDefined();
      if (/_error$/.test(r.termination_reason)) expect(r.termination_detail, r.id).toMatch(/\S/);
      if (r.termination_reason === 'infrastructure_error') {
        expect(r.failure, r.id).toBe('infrastructure');
        expect(r.termination_detail, r.id).toMatch(/HTTP (429|500)|timed out/i);
      }
    }
    const infra = records.filter((r) => r.termination_reason === 'infrastructure_error').length;
    process.stdout.write(
      `[mock-llm e2e] ${infra} of ${N} faulty-run episodes ended with infrastructure_error\n`,
    );
  });

  it('summary.json failures (and termination reasons, leaks, counters) agree with the records', () => {
    const records = readRecords(faultyDir);
    const summary = readJson<Summary>(join(faultyDir, 'summary.json'));
    expect(summary.failures).toEqual(countBy(records, 'failure'));
    expect(summary.termination_reasons).toEqual(countBy(records, 'termination_reason'));
    expect(summary.episodes).toBe(N);
    expect(summary.leaks).toBe(records.reduce((a, r) => a + r.leaks, 0));
    expect(summary.invalid_tool_arguments).toBe(records.reduce((a, r) => a + r.invalid_tool_arguments, 0));
    expect(summary.unknown_tool_calls).toBe(records.reduce((a, r) => a + r.unknown_tool_calls, 0));
    expect(summary.sft_trajectories).toBe(readJsonl(join(faultyDir, 'sft.jsonl')).length);
  });

  it('sft.jsonl holds exactly the episodes without a failure', () => {
    const sft = sftConversations(faultyDir);
    const records = readRecords(faultyDir);
    const wrong = records
      .filter((r) => sft.has(conversationKey(r.messages)) !== (r.failure === undefined))
      .map(
        (r) => `${r.task_id}: failure ${r.failure ?? 'none'}, in sft ${sft.has(conversationKey(r.messages))}`,
      );
    expect(wrong).toEqual([]);
  });

  it('catches the leaks the server injected; leaking episodes stay out of sft.jsonl', () => {
    const sft = sftConversations(faultyDir);
    const records = readRecords(faultyDir);
    for (const r of records) {
      expect(r.leaks, r.id).toBe(leaksIn(r, hiddenIds(r)));
      if (r.leaks > 0) expect(sft.has(conversationKey(r.messages)), r.id).toBe(false);
    }
    const leaking = records.filter((r) => r.leaks > 0);
    expect(leaking.length).toBeGreaterThan(0);
    // the injected text names the id in a user turn
    expect(
      leaking.some((r) => r.messages.some((m) => m.role === 'user' && /for reference: /.test(m.content))),
    ).toBe(true);
  });

  it('invalid tool arguments get cove’s tool error and keep the episode out of sft.jsonl', () => {
    const sft = sftConversations(faultyDir);
    for (const r of readRecords(faultyDir).filter((x) => x.invalid_tool_arguments > 0)) {
      expect(sft.has(conversationKey(r.messages)), r.id).toBe(false);
      const errors = r.messages.filter(
        (m) =>
          m.role === 'tool' &&
          m.content.startsWith('Error: cove: the tool-call arguments are not a valid JSON'),
      );
      expect(errors.length, r.id).toBe(r.invalid_tool_arguments);
    }
  });

  it('unknown tool names get τ²’s error and keep the episode out of sft.jsonl', () => {
    const sft = sftConversations(faultyDir);
    const records = readRecords(faultyDir).filter((x) => x.unknown_tool_calls > 0);
    for (const r of records) {
      const errors = r.messages.filter(
        (m) => m.role === 'tool' && m.content === "Error: Tool 'lookup_everything' not found.",
      );
      expect(errors.length, r.id).toBe(r.unknown_tool_calls);
    }
    const inSft = records
      .filter((r) => sft.has(conversationKey(r.messages)))
      .map((r) => `${r.task_id} (${r.failure})`);
    expect(inSft, 'episodes with unknown tool calls found in sft.jsonl').toEqual([]);
  });

  it('normalises tool calls: ids for calls without one, arguments as JSON strings, no empty texts beside calls', () => {
    for (const r of readRecords(faultyDir)) {
      const ids = new Set<string>();
      for (const m of r.messages) {
        if (m.role !== 'assistant' || m.tool_calls === undefined) continue;
        expect(m.content, r.id).not.toBe('');
        for (const c of m.tool_calls) {
          expect(c.id, r.id).toMatch(/\S/);
          expect(ids.has(c.id), `${r.id}: ${c.id} twice`).toBe(false);
          ids.add(c.id);
          expect(typeof c.function.arguments, r.id).toBe('string');
        }
      }
    }
    for (const row of readJsonl<SftRowView>(join(faultyDir, 'sft.jsonl')))
      expect(openAiShapeProblems(row.messages)).toEqual([]);
  });

  it('meters tokens per episode and prices them with the config’s price table', () => {
    const records = readRecords(faultyDir);
    // an episode whose first user call failed has no usage; every other one has some
    for (const r of records.filter((x) => x.messages.length > 1)) {
      expect(r.usage.prompt_tokens, r.id).toBeGreaterThan(0);
      expect(r.usage.completion_tokens, r.id).toBeGreaterThan(0);
      const expected =
        (r.usage.prompt_tokens * PRICE.prompt_per_mtok +
          r.usage.completion_tokens * PRICE.completion_per_mtok) /
        1e6;
      expect(r.usage.cost_usd, r.id).toBeCloseTo(expected, 9);
    }
    const summary = readJson<Summary>(join(faultyDir, 'summary.json'));
    expect(summary.usage.prompt_tokens).toBe(records.reduce((a, r) => a + r.usage.prompt_tokens, 0));
    expect(summary.usage.cost_usd).toBeGreaterThan(0);
  });
});

describe('cove generate against cove mock-llm without faults', () => {
  it('reaches S = 1 on every task (the oracle mode is competent)', () => {
    expect(clean.stderr).not.toMatch(/^cove: /m);
    expect(clean.status).toBe(0);
    expect(cleanStats.faults).toEqual({});
    const records = readRecords(cleanDir);
    expect(records).toHaveLength(N);
    for (const r of records) {
      expect(r.verification?.score, `${r.task_id}: ${r.failure}`).toBe(1);
      expect(r.verification?.stateMatch, r.task_id).toBe(true);
      expect(r.termination_reason, r.task_id).toBe('user_stop');
      expect(r.failure, r.task_id).toBeUndefined();
      expect(r.usage.cost_usd).toBeGreaterThan(0);
    }
    const summary = readJson<Summary>(join(cleanDir, 'summary.json'));
    expect(summary).toMatchObject({
      episodes: N,
      sft_trajectories: N,
      mean_score: 1,
      leaks: 0,
      failures: {},
    });
  });
});

describe('per-message usage', () => {
  it('records the tokens and cost of the call behind every model-written message', () => {
    for (const r of readRecords(cleanDir)) {
      const perMessage = r.usage.per_message ?? [];
      // every assistant and user message came from one model call, except the agent's fixed greeting (as in
      // τ²); tool messages from none
      expect(r.messages[0]?.role).toBe('assistant');
      const written = r.messages.flatMap((m, i) =>
        i > 0 && (m.role === 'assistant' || m.role === 'user') ? [i] : [],
      );
      expect(
        perMessage.map((u) => u.message_index),
        r.id,
      ).toEqual(written);
      for (const u of perMessage) {
        expect(u.prompt_tokens, r.id).toBeGreaterThan(0);
        expect(u.completion_tokens, r.id).toBeGreaterThan(0);
      }
      const sum = (key: 'prompt_tokens' | 'completion_tokens') => perMessage.reduce((a, u) => a + u[key], 0);
      expect(sum('prompt_tokens'), r.id).toBe(r.usage.prompt_tokens);
      expect(sum('completion_tokens'), r.id).toBe(r.usage.completion_tokens);
      expect(perMessage.reduce((a, u) => a + u.cost_usd, 0)).toBeCloseTo(r.usage.cost_usd, 12);
    }
  });
});

describe('SFT selection (deterministic)', () => {
  it('an otherwise passing episode with an unknown tool call is not kept for SFT', () => {
    // a record of the fault-free run (score 1, state match), as it would be had one call named an unknown tool
    const passing = readRecords(cleanDir)[0];
    if (passing === undefined) throw new Error('no records');
    const withUnknown: TrajectoryRecord = { ...passing, unknown_tool_calls: 1, failure: 'unknown_tool' };
    expect(keptForSft(passing)).toBe(true);
    expect(keptForSft(withUnknown), 'keptForSft ignores unknown_tool_calls').toBe(false);
    expect(sftRows([withUnknown], 'system')).toHaveLength(0);
  });
});

describe('cove mock-llm oracle sessions (in-process server)', () => {
  /** What decides an agent turn: its text and its calls (ids aside). */
  const turnKey = (m: Record<string, unknown> | ChatMessage | undefined) => {
    const calls = (
      (m as { tool_calls?: { function: { name: string; arguments: string } }[] })?.tool_calls ?? []
    ).map((c) => [c.function.name, c.function.arguments]);
    const content = (m as { content?: string | null })?.content;
    return JSON.stringify([content === '' || content === undefined ? null : content, calls]);
  };

  it('a client that starts a task over while another is further on does not derail the oracle agent', async () => {
    // the longest conversation of the fault-free run, replayed request by request as LlmAgent sends them
    const record = [...readRecords(cleanDir)].sort((a, b) => b.messages.length - a.messages.length)[0];
    if (record === undefined) throw new Error('no records');
    const messages = record.messages;
    const agentAt = messages.flatMap((m, j) => (j > 0 && m.role === 'assistant' ? [j] : []));
    expect(agentAt.length).toBeGreaterThanOrEqual(5);
    const context = agentContext(getDomain('retail'), 'cove');
    const sessions = new RoleSessions(getDomain('retail'), new Map(tasks.map((t) => [t.id, t])));
    const server = await serveApp(createMockLlmApp({ mode: 'oracle', sessions }).app, { port: 0 });
    try {
      const ask = async (j: number) => {
        const response = await fetch(`${server.url}/v1/chat/completions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-cove-role': 'agent',
            'x-cove-task-id': record.task_id,
          },
          body: JSON.stringify({
            model: 'mock',
            messages: agentApiMessages(context.systemPrompt, messages.slice(0, j)),
            tools: context.tools,
          }),
        });
        const body = (await response.json()) as { choices: { message: Record<string, unknown> }[] };
        return body.choices[0]?.message;
      };
      // client A plays the whole conversation and gets the recorded replies back
      for (const j of agentAt) expect(turnKey(await ask(j)), `A, message ${j}`).toBe(turnKey(messages[j]));
      // client B starts the same task over (its first agent turn) ...
      expect(turnKey(await ask(agentAt[0] as number))).toBe(turnKey(messages[agentAt[0] as number]));
      // ... and client C, between A and B, asks for a later turn of the same conversation
      const j = agentAt[3] as number;
      expect(turnKey(await ask(j)), `C, message ${j}`).toBe(turnKey(messages[j]));
    } finally {
      await server.close();
    }
  });
});
