import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCoveAsync } from '../helpers/cli.js';
import { spawnCove } from '../helpers/llm-mock-process.js';

/**
 * Synthesis is checkpointed: each task is appended to tasks.partial.jsonl as it is made, so a SIGKILL during
 * synthesis loses at most the task under way, and the resume reuses the tasks already there (shown by a mark put
 * into one of them, which a re-synthesis would not reproduce).
 */

const root = mkdtempSync(join(tmpdir(), 'cove-checkpoint-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const completeLines = (file: string) => {
  const text = readFileSync(file, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .slice(0, -1);
};

describe('a kill during synthesis', () => {
  it('keeps every task made so far, and the resume reuses them', async () => {
    const out = join(root, 'run');
    const partial = join(out, 'tasks.partial.jsonl');
    const first = spawnCove(['generate', '--n', '5000', '--out', out, '--quiet']);
    while (!existsSync(partial) || completeLines(partial).length < 9) {
      expect(first.running(), 'synthesis ended before the kill').toBe(true);
      await new Promise((r) => setTimeout(r, 50));
    }
    first.signal('SIGKILL');
    await first.result;
    const lines = completeLines(partial);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      run: expect.stringMatching(/^run-[0-9a-f]{12}$/),
    });
    const saved = lines.slice(1).map((l) => JSON.parse(l) as { id: string; cove: { index: number } });
    for (const [i, t] of saved.entries()) expect(t.cove.index).toBe(i); // tasks 0..m-1, in order, none torn
    expect(saved.length).toBeGreaterThanOrEqual(8);
    expect(existsSync(join(out, 'tasks.json'))).toBe(false);

    // mark task 3: a resume that synthesized it again would lose the mark
    const marked = JSON.parse(lines[4] as string) as { description: { notes: string } };
    marked.description.notes = 'reused from the checkpoint';
    lines[4] = JSON.stringify(marked);
    writeFileSync(partial, `${lines.join('\n')}\n`);

    const resumed = await runCoveAsync(['generate', '--n', '12', '--out', out, '--quiet']);
    expect(resumed.status, resumed.stderr).toBe(0);
    const tasks = JSON.parse(readFileSync(join(out, 'tasks.json'), 'utf8')) as {
      description: { notes: string };
      cove: { index: number };
    }[];
    expect(tasks).toHaveLength(12);
    expect(tasks[3]?.description.notes).toBe('reused from the checkpoint');
    for (const [i, t] of tasks.entries()) expect(t.cove.index).toBe(i);
    expect(existsSync(partial)).toBe(false); // tasks.json holds them now
  }, 900_000);
});
