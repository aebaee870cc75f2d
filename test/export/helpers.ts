import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ChatMessage } from '../../src/sim/messages.js';
import { runCove } from '../helpers/cli.js';
import { generateInProcess } from '../helpers/generate-in-process.js';

/** A fresh temporary folder. */
export function tempDir(prefix = 'cove-export-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Makes a real run folder as `cove generate` does (sandbox, oracle agent, scripted user), in this process. */
export async function makeRun(n: number, seed = 3): Promise<string> {
  const dir = join(tempDir('cove-export-run-'), 'run');
  const result = await generateInProcess({ n, seed, out: dir });
  expect(result.summary?.episodes).toBe(n);
  return dir;
}

/** Runs `cove export` and expects success. */
export function exportRun(args: readonly string[]): string {
  const r = runCove(['export', ...args]);
  expect(r.status, r.stderr).toBe(0);
  return r.stderr;
}

/** The messages a training row should hold of a trajectory: all but the trailing non-assistant ones. */
export function expectedTraining(messages: readonly ChatMessage[]): ChatMessage[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1]?.role !== 'assistant') end--;
  return messages.slice(0, end);
}

/**
 * A trajectory's messages reduced to what every training format keeps: role, text, tool calls (name and parsed
 * arguments, in order) and tool results (content and the call they answer).
 */
export function essence(messages: readonly ChatMessage[]): unknown[] {
  return messages.map((m) => {
    if (m.role === 'assistant') {
      return {
        role: 'assistant',
        content: m.content === null || m.content === '' ? null : m.content,
        calls: (m.tool_calls ?? []).map((c) => ({
          id: c.id,
          name: c.function.name,
          arguments: JSON.parse(c.function.arguments),
        })),
      };
    }
    if (m.role === 'tool') return { role: 'tool', id: m.tool_call_id, content: m.content };
    return { role: m.role, content: m.content };
  });
}
