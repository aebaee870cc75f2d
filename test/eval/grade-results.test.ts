import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gradeResultsFile } from '../../src/eval/grade-file.js';
import { runCove } from '../helpers/cli.js';
import { TAU2 } from '../helpers/paths.js';

/**
 * `cove grade` on real τ² results files (GPT-4.1 and GPT-4.1-mini runs recorded by τ²-bench itself): every tool
 * output replays identically and every reward agrees with τ²'s own `reward_info`; a tampered copy is caught.
 * Expected counts were taken from the files themselves (simulations and tool messages counted with python3).
 */

const RESULTS = join(TAU2, 'results');
const EXPECTED: Record<string, { simulations: number; tool_calls: number }> = {
  'airline__gpt-4.1-mini__user-gpt-4.1-mini__1sim__pr170.json': { simulations: 1, tool_calls: 1 },
  'airline__gpt-4.1__user-gpt-4.1__sierra-feature-gym.json': { simulations: 20, tool_calls: 148 },
  'retail__gpt-4.1-mini__user-gpt-4.1-mini__1sim__pr170.json': { simulations: 1, tool_calls: 5 },
  'retail__gpt-4.1__user-gpt-4.1__sierra-feature-gym.json': { simulations: 40, tool_calls: 299 },
};

const tmp = mkdtempSync(join(tmpdir(), 'cove-grade-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('cove grade on τ²’s own results files', () => {
  it.each(
    readdirSync(RESULTS)
      .filter((f) => f.endsWith('.json'))
      .sort(),
  )(
    '%s: 100 % identical tool outputs, every reward and db_check agrees or is explained',
    { timeout: 120_000 },
    async (file) => {
      const g = await gradeResultsFile(join(RESULTS, file));
      const s = g.summary;
      expect({ simulations: s.simulations, tool_calls: s.tool_calls }).toEqual(EXPECTED[file]);
      expect(s.tool_outputs_identical).toBe(s.tool_calls);
      expect(g.divergences).toEqual([]);
      for (const d of s.disagreements) expect(d.reason).not.toMatch(/^unexplained/);
      expect(s.agree_reward + s.disagreements.length).toBe(s.simulations);
      // these four files agree completely (no mislabelled simulation, no reward difference)
      expect(s.agree_reward).toBe(s.simulations);
      expect(s.agree_db).toBe(s.simulations);
      expect(s.mislabelled).toBe(0);
    },
  );

  it('a tampered copy: an edited tool message and a relabelled simulation are found and explained', {
    timeout: 120_000,
  }, () => {
    const name = 'airline__gpt-4.1__user-gpt-4.1__sierra-feature-gym.json';
    const text = readFileSync(join(RESULTS, name), 'utf8');
    const doc = JSON.parse(text) as {
      simulations: { id: string; task_id: string; messages: { role: string; content: string }[] }[];
    };
    const [first, second] = doc.simulations;
    if (first === undefined || second === undefined) throw new Error('fixture has < 2 simulations');
    // 1. the first tool answer of simulation 0 says "Jamie" where τ²'s environment said "James"
    const toolContent = first.messages.find((m) => m.role === 'tool')?.content ?? '';
    const needle = JSON.stringify(toolContent).slice(1, -1);
    expect(text.split(needle).length).toBe(2);
    let tampered = text.replace(needle, needle.replace('"James"'.replaceAll('"', '\\"'), '\\"Jamie\\"'));
    expect(tampered).not.toBe(text);
    // 2. simulation 1 (task 6) relabelled as task 13 (simulation 0's task)
    const label = `"task_id": "${second.task_id}"`;
    expect(tampered.split(label).length).toBe(2);
    tampered = tampered.replace(label, `"task_id": "${first.task_id}"`);
    const file = join(tmp, name);
    writeFileSync(file, tampered);

    const r = runCove(['grade', '--json', '--tau2-data', TAU2, file]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const last = r.stdout.trim().split('\n').at(-1) ?? '';
    const s = JSON.parse(last);
    expect(Object.keys(s)).toEqual([
      'simulations',
      'tool_calls',
      'tool_outputs_identical',
      'agree_reward',
      'agree_db',
      'mislabelled',
      'mislabelled_simulations',
      'disagreements',
    ]);
    expect(s.simulations).toBe(20);
    expect(s.tool_calls).toBe(148);
    expect(s.tool_outputs_identical).toBe(147);
    expect(s.mislabelled).toBe(1);
    expect(s.mislabelled_simulations).toEqual([
      { simulation_id: second.id, task_id: first.task_id, matches_task_id: second.task_id },
    ]);
    for (const d of s.disagreements) {
      expect(d.simulation_id).toBe(second.id);
      expect(d.reason).toMatch(/^mislabelled/);
    }

    const human = runCove(['grade', '--tau2-data', TAU2, file]);
    expect(human.status).toBe(0);
    expect(human.stdout).toContain('tool outputs identical    147 (99.3 %)');
    expect(human.stdout).toContain(
      `replay diverges: simulation ${first.id} (task ${first.task_id}) tool call #0`,
    );
    expect(human.stdout).toContain(`mislabelled: simulation ${second.id} says task ${first.task_id}`);
  });

  it('a file outside any τ² tree without --tau2-data or COVE_TAU2_DATA: an error naming both ways', () => {
    const file = join(tmp, 'outside.json');
    writeFileSync(
      file,
      readFileSync(join(RESULTS, 'retail__gpt-4.1-mini__user-gpt-4.1-mini__1sim__pr170.json')),
    );
    const r = runCove(['grade', file], { env: { COVE_TAU2_DATA: '' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--tau2-data');
    expect(r.stderr).toContain('COVE_TAU2_DATA');
    expect(r.stderr).toContain(file);
  });
});
