import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/hash.js';
import { agentContext } from '../../src/domains/agent-context.js';
import { generate } from '../../src/run/generate.js';
import { scriptedRoles } from '../../src/run/roles.js';
import { synthesizeTask } from '../../src/tasks/sampler.js';
import { createLibraryDb, libraryBase, libraryDomain } from '../../src/testing/tiny-domain/index.js';
import { readJsonl, readRecords } from '../helpers/run-files.js';

const dir = mkdtempSync(join(tmpdir(), 'cove-tiny-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a domain over a plain SQLite file, through the run API', () => {
  it('synthesizes, runs and verifies 30 tasks with S = 1, and never writes the SQLite file', async () => {
    const file = join(dir, 'library.sqlite');
    createLibraryDb(file, { seed: 9, members: 25 });
    const before = sha256Hex(readFileSync(file).toString('latin1'));
    const base = libraryBase(file);
    const hashes = base.hashes();
    const tasks = Array.from({ length: 30 }, (_, i) =>
      synthesizeTask(
        libraryDomain.synthesis as NonNullable<typeof libraryDomain.synthesis>,
        base,
        {
          domain: 'library',
          seed: 2,
          difficulty: 'mixed',
          k: 1 + (i % 2),
          fuzz: 2,
          semantics: 'parity',
          db: { path: 'library.sqlite', canonical_sha256: hashes.canonical_sha256, benchmark: false },
          coveVersion: 'test',
        },
        i,
      ),
    );
    const out = join(dir, 'run');
    const context = agentContext(libraryDomain, 'cove');
    const result = await generate({
      domain: libraryDomain,
      out,
      runName: 'tiny',
      command: ['test'],
      coveVersion: 'test',
      seed: 2,
      base,
      dbSha256: hashes.canonical_sha256,
      benchmarkData: false,
      tasks,
      tasksText: `${JSON.stringify(tasks, null, 2)}\n`,
      settings: { semantics: 'parity', text: 'cove', guidelines: 'scripted' },
      agentContext: context,
      roles: scriptedRoles(libraryDomain),
      limits: {},
      concurrency: 4,
      attempts: 1,
      fingerprint: { test: 'tiny' },
    });
    base.close();
    expect(result.summary.episodes).toBe(30);
    expect(result.summary.sft_trajectories).toBe(30);
    expect(result.summary.mean_score).toBe(1);
    const records = readRecords(out);
    expect(records.every((r) => r.verification?.score === 1 && r.verification.stateMatch)).toBe(true);
    expect(records.every((r) => r.evaluation?.evaluator === 'cove' && r.evaluation.reward === 1)).toBe(true);
    // every loan the oracle returned was first listed by a read tool (no id from nowhere)
    for (const r of records) {
      const writes = r.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
      const returned = writes.filter((c) => c.function.name === 'return_loan');
      expect(returned.length).toBe(r.verification?.constraints.length);
    }
    expect(readJsonl(join(out, 'sft.jsonl'))).toHaveLength(30);
    expect(sha256Hex(readFileSync(file).toString('latin1'))).toBe(before);
  }, 120_000);
});
