import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { QualityReport } from '../../src/tasks/quality-report.js';
import { AIRLINE_DB } from '../helpers/airline-base.js';
import { runCove } from '../helpers/cli.js';
import { readJson, readRecords } from '../helpers/run-files.js';

/** `cove tasks --domain airline` and `cove generate --domain airline` through the CLI (issue 14 item 5). */
describe('cove tasks / generate --domain airline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cove-airline-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('cove tasks on a sandbox writes solvable tasks and a report with kind × k × strategy coverage', () => {
    const out = join(dir, 'tasks.json');
    const r = runCove(['tasks', '--domain', 'airline', '--sandbox-seed', '1', '--n', '40', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const report = readJson<QualityReport>(join(dir, 'tasks.report.json'));
    expect(report.tasks).toBe(40);
    expect(report.uniqueness_violations).toBe(0);
    expect(report.solvability).toBe(1);
    expect(report.by_strategy['user:user_id']).toBe(40);
    expect(report.coverage.cells).toBeGreaterThan(20);
    expect(report.coverage.covered).toBeGreaterThan(0);
    const gen = runCove(['generate', '--tasks', out, '--out', join(dir, 'from-tasks'), '--quiet']);
    expect(gen.status, gen.stderr).toBe(0);
    const records = readRecords(join(dir, 'from-tasks'));
    expect(records).toHaveLength(40);
    expect(records.every((x) => x.verification?.score === 1 && x.verification.stateMatch)).toBe(true);
  }, 300_000);

  it("cove generate on τ²'s airline DB: every episode verified, the same bytes on a rerun", () => {
    const args = ['generate', '--db', AIRLINE_DB, '--n', '30', '--seed', '5', '--quiet', '--out'];
    for (const run of ['tau2', 'tau2-again']) {
      const r = runCove([...args, join(dir, run)]);
      expect(r.status, r.stderr).toBe(0);
    }
    const summary = readJson<{ episodes: number; task_yield: number; leaks: number }>(
      join(dir, 'tau2', 'summary.json'),
    );
    expect(summary).toMatchObject({ episodes: 30, task_yield: 1, leaks: 0 });
    for (const f of ['tasks.json', 'sft.jsonl'])
      expect(readFileSync(join(dir, 'tau2', f)).equals(readFileSync(join(dir, 'tau2-again', f))), f).toBe(
        true,
      );
  }, 300_000);
});
