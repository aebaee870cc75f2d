import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLibraryDb } from '../../src/testing/tiny-domain/index.js';
import { runCove, runCoveAsync } from '../helpers/cli.js';
import { type MockLlmProcess, startMockLlm } from '../helpers/llm-mock-process.js';
import { readRecords } from '../helpers/run-files.js';

// The JSON user on sessions of several goals (`--goals 2`, docs/sql-domains.md), on Retail and on a SQL domain:
// `cove mock-llm --user-style json` plays the scripted user as JSON turns over a real socket; the oracle agent
// serves every goal, so every session passes and ends by is_task_complete.

const dir = mkdtempSync(join(tmpdir(), 'cove-json-user-goals-'));
const servers: MockLlmProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function runJsonUser(tasksFile: string, out: string, spec?: string) {
  const specArgs = spec === undefined ? [] : ['--domain-spec', spec];
  const mock = await startMockLlm(['--tasks', tasksFile, ...specArgs, '--user-style', 'json']);
  servers.push(mock);
  const r = await runCoveAsync(
    [
      'generate',
      ...specArgs,
      '--tasks',
      tasksFile,
      '--user',
      'openai:mock',
      '--user-base-url',
      mock.baseUrl,
      '--user-style',
      'json',
      '--out',
      out,
      '--quiet',
    ],
    { timeoutMs: 150_000 },
  );
  await mock.close();
  return r;
}

describe('the JSON user with --goals 2', () => {
  it('Retail: every two-goal session passes and ends by is_task_complete', async () => {
    const file = join(dir, 'retail.json');
    const made = runCove([
      'tasks',
      '--domain',
      'retail',
      '--sandbox-seed',
      '1',
      '--n',
      '3',
      '--goals',
      '2',
      '--out',
      file,
    ]);
    expect(made.status, made.stderr).toBe(0);
    const run = await runJsonUser(file, join(dir, 'retail-run'));
    expect(run.status, run.stderr).toBe(0);
    const records = readRecords(join(dir, 'retail-run'));
    expect(records).toHaveLength(3);
    for (const r of records) {
      expect(r).toMatchObject({ user_style: 'json', termination_reason: 'user_stop' });
      expect(r.verification?.score).toBe(1);
    }
  }, 200_000);

  it('a SQL domain: every two-goal session passes and ends by is_task_complete', async () => {
    const db = join(dir, 'library.sqlite');
    createLibraryDb(db, { seed: 9, members: 25 });
    const spec = join(dir, 'library.json');
    expect(runCove(['synth', 'tools', '--db', db, '--out', spec]).status).toBe(0);
    const file = join(dir, 'library.tasks.json');
    const made = runCove(['tasks', '--domain-spec', spec, '--n', '3', '--goals', '2', '--out', file]);
    expect(made.status, made.stderr).toBe(0);
    const run = await runJsonUser(file, join(dir, 'library-run'), spec);
    expect(run.status, run.stderr).toBe(0);
    const records = readRecords(join(dir, 'library-run'));
    expect(records).toHaveLength(3);
    for (const r of records) {
      expect(r).toMatchObject({ domain: 'library', user_style: 'json', termination_reason: 'user_stop' });
      expect(r.verification?.score).toBe(1);
      for (const m of r.messages) if (m.role === 'user') expect(m.content).not.toContain('###');
    }
  }, 200_000);
});
