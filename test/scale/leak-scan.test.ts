import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseDb } from '../../src/cli/db-source.js';
import { agentContext } from '../../src/domains/agent-context.js';
import { getDomain } from '../../src/domains/registry.js';
import { type RunContext, runTaskEpisode } from '../../src/run/episode-runner.js';
import { scriptedRoles } from '../../src/run/roles.js';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import type { ChatMessage } from '../../src/sim/messages.js';
import type { SynthesisOptions } from '../../src/tasks/sampler.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';
import { scanLeaks } from '../../src/verify/leak-scan.js';
import { COVE_VERSION } from '../../src/version.js';
import { type CliResult, runCoveAsync } from '../helpers/cli.js';
import { RETAIL_DB } from '../helpers/paths.js';
import { readJson, readRecords } from '../helpers/run-files.js';

/** `cove generate` runs, checked from their files: both DB sources, both fuzz levels that hide ids. */
const CLI_RUNS: Record<string, { n: number; args: string[] }> = {
  sandboxFuzz2: { n: 300, args: ['--sandbox-seed', '3', '--seed', '11', '--fuzz', '2'] },
  tau2Fuzz1: { n: 300, args: ['--db', RETAIL_DB, '--seed', '14', '--fuzz', '1'] },
};

/** More episodes run in-process with the same pieces (several trials per task: the user's words vary). */
const TRIALS = 3;
const IN_PROCESS: { name: string; db: 'sandbox' | 'tau2'; options: Partial<SynthesisOptions>; n: number }[] =
  [
    {
      name: 'sandbox hard fuzz 2',
      db: 'sandbox',
      options: { seed: 21, fuzz: 2, difficulty: 'hard' },
      n: 120,
    },
    { name: 'sandbox mixed fuzz 1', db: 'sandbox', options: { seed: 22, fuzz: 1 }, n: 120 },
    { name: 'τ² DB mixed fuzz 2', db: 'tau2', options: { seed: 23, fuzz: 2 }, n: 120 },
    {
      name: 'τ² DB hard fuzz 2 fixed',
      db: 'tau2',
      options: { seed: 24, fuzz: 2, difficulty: 'hard', semantics: 'fixed' },
      n: 120,
    },
  ];

interface TaskView {
  id: string;
  cove: { fuzz: { level: number; hidden_ids?: string[] } };
}

const root = mkdtempSync(join(tmpdir(), 'cove-leaks-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Spellings of a hidden id a user message must not contain: as is, any case, and an order id without '#'. */
function spellings(id: string): string[] {
  const lower = id.toLowerCase();
  return lower.startsWith('#') ? [lower, lower.slice(1)] : [lower];
}

/** Tallies of a scan; `found` lists every leak. */
interface Tally {
  episodes: number;
  userMessages: number;
  hidden: number;
  /** Hidden ids met in tool results (the agent resolves them: the check is not vacuous). */
  seenByAgent: number;
  recordedLeaks: number;
  found: string[];
}

function scan(
  tally: Tally,
  label: string,
  messages: readonly ChatMessage[],
  hidden: readonly string[],
): void {
  tally.episodes++;
  tally.hidden += hidden.length;
  for (const [i, m] of messages.entries()) {
    const text = (m.content ?? '').toLowerCase();
    if (m.role === 'user') {
      tally.userMessages++;
      for (const id of hidden)
        if (spellings(id).some((s) => text.includes(s))) tally.found.push(`${label} #${i}: ${id}`);
    } else if (m.role === 'tool') {
      tally.seenByAgent += hidden.filter((id) => text.includes(id.toLowerCase())).length;
    }
  }
}

const newTally = (): Tally => ({
  episodes: 0,
  userMessages: 0,
  hidden: 0,
  seenByAgent: 0,
  recordedLeaks: 0,
  found: [],
});
const report = (label: string, t: Tally) =>
  process.stdout.write(
    `[leak-scan] ${label}: ${t.episodes} episodes, ${t.userMessages} user messages, ${t.hidden} hidden ids, ` +
      `${t.seenByAgent} hidden-id sightings in tool results, ${t.found.length} leaks\n`,
  );

const cliResults = new Map<string, Promise<CliResult>>();
let inProcess: Tally;
let wallS = 0;

beforeAll(async () => {
  const started = performance.now();
  // The CLI runs go on in child processes while this process runs its own episodes.
  for (const [name, run] of Object.entries(CLI_RUNS)) {
    cliResults.set(
      name,
      runCoveAsync(['generate', ...run.args, '--n', String(run.n), '--out', join(root, name), '--quiet']),
    );
  }
  inProcess = await runInProcess();
  await Promise.all(cliResults.values());
  wallS = (performance.now() - started) / 1000;
}, 180_000);

async function runInProcess(): Promise<Tally> {
  const tally = newTally();
  const domain = getDomain('retail');
  const dbs = { sandbox: chooseDb(domain, { sandboxSeed: 21 }), tau2: chooseDb(domain, { db: RETAIL_DB }) };
  try {
    for (const config of IN_PROCESS) {
      const db = dbs[config.db];
      const options: SynthesisOptions = {
        domain: 'retail',
        seed: 1,
        difficulty: 'mixed',
        fuzz: 2,
        semantics: 'parity',
        db: db.source,
        coveVersion: COVE_VERSION,
        ...config.options,
      };
      const { tasks, problems } = await synthesizeTasks(domain, db.loaded.base, options, config.n);
      expect(problems).toEqual([]);
      const roles = scriptedRoles(domain);
      const context: RunContext = {
        run: 'leak-scan',
        domain,
        base: db.loaded.base,
        dbSha256: db.loaded.hashes.canonical_sha256,
        benchmarkData: db.loaded.isTau2Benchmark,
        seed: options.seed,
        settings: { semantics: options.semantics, text: 'cove', guidelines: 'scripted' },
        agentContext: agentContext(domain, 'cove'),
        roles,
        limits: { maxSteps: 200, maxErrors: 10, repeatedCallLimit: 5 },
        coveVersion: COVE_VERSION,
      };
      for (const task of tasks) {
        const hidden = (task.cove.fuzz.hidden_ids as string[] | undefined) ?? [];
        for (let trial = 0; trial < TRIALS; trial++) {
          const record = await runTaskEpisode(context, { task, index: task.cove.index }, trial, 0);
          scan(tally, `${config.name} ${task.id} trial ${trial}`, record.messages, hidden);
          tally.recordedLeaks += record.leaks;
        }
      }
    }
  } finally {
    dbs.sandbox.loaded.base.close();
    dbs.tau2.loaded.base.close();
  }
  return tally;
}

describe('no user message says a fuzzified id (design.md §7.3)', () => {
  it('holds in cove generate runs, checked from the run files', async () => {
    const tally = newTally();
    for (const [name, run] of Object.entries(CLI_RUNS)) {
      const result = await cliResults.get(name);
      expect(result?.status, `${name}: ${result?.stderr}`).toBe(0);
      const dir = join(root, name);
      const tasks = readJson<TaskView[]>(join(dir, 'tasks.json'));
      const records: TrajectoryRecord[] = readRecords(dir);
      expect(records).toHaveLength(run.n);
      expect(readJson<{ leaks: number; episodes: number }>(join(dir, 'summary.json'))).toMatchObject({
        leaks: 0,
        episodes: run.n,
      });
      for (const r of records) {
        const task = tasks[r.task_index];
        expect(task?.id).toBe(r.task_id);
        scan(tally, `${name} ${r.id}`, r.messages, task?.cove.fuzz.hidden_ids ?? []);
        tally.recordedLeaks += r.leaks;
      }
    }
    report('cove generate runs', tally);
    expect(tally.episodes).toBe(600);
    expect(tally.hidden).toBeGreaterThan(tally.episodes);
    expect(tally.seenByAgent).toBeGreaterThan(tally.episodes);
    expect(tally.found).toEqual([]);
    expect(tally.recordedLeaks).toBe(0);
  });

  it('holds in episodes run in-process (sandbox and τ² DB, several seeds, fuzz 1 and 2)', () => {
    report('in-process', inProcess);
    process.stdout.write(`[leak-scan] all runs: ${wallS.toFixed(1)} s wall\n`);
    expect(inProcess.episodes).toBe(IN_PROCESS.reduce((a, c) => a + c.n * TRIALS, 0));
    expect(inProcess.episodes + 600).toBeGreaterThanOrEqual(2000);
    expect(inProcess.hidden).toBeGreaterThan(inProcess.episodes);
    expect(inProcess.seenByAgent).toBeGreaterThan(inProcess.episodes);
    expect(inProcess.found).toEqual([]);
    expect(inProcess.recordedLeaks).toBe(0);
  });
});

describe('scanLeaks', () => {
  it('reports a planted leak with its message index and id', () => {
    const records = readRecords(join(root, 'sandboxFuzz2'));
    const tasks = readJson<TaskView[]>(join(root, 'sandboxFuzz2', 'tasks.json'));
    const record = records.find(
      (r) =>
        (tasks[r.task_index]?.cove.fuzz.hidden_ids?.length ?? 0) >= 2 &&
        r.messages.filter((m) => m.role === 'user').length >= 3,
    );
    expect(record).toBeDefined();
    if (record === undefined) return;
    const hidden = tasks[record.task_index]?.cove.fuzz.hidden_ids ?? [];
    expect(scanLeaks(record.messages, hidden)).toEqual([]);

    const userIndexes = record.messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
    const at = userIndexes[1] as number;
    const [id, other] = hidden as [string, string];
    const messages: ChatMessage[] = record.messages.map((m, i) =>
      i === at ? { role: 'user', content: `Sure, it is ${id} if that helps.` } : m,
    );
    expect(scanLeaks(messages, hidden)).toEqual([{ messageIndex: at, id }]);

    // Two ids in one message, and another leak later: each reported.
    const last = userIndexes[userIndexes.length - 1] as number;
    const twice: ChatMessage[] = messages.map((m, i) =>
      i === last ? { role: 'user', content: `${other} and ${id}. ###STOP###` } : m,
    );
    expect(scanLeaks(twice, hidden)).toEqual(
      expect.arrayContaining([
        { messageIndex: at, id },
        { messageIndex: last, id },
        { messageIndex: last, id: other },
      ]),
    );
    expect(scanLeaks(twice, hidden)).toHaveLength(3);

    // Only the user's words count: the agent and tools may say the ids.
    const agentSays: ChatMessage[] = record.messages.map((m) =>
      m.role === 'assistant' ? { role: 'assistant', content: `Found ${id}.` } : m,
    );
    expect(scanLeaks(agentSays, hidden)).toEqual([]);
  });
});
