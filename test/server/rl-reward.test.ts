import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/sim/messages.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { RETAIL_TASKS, TAU2 } from '../helpers/paths.js';
import { call, referenceRecord, startService, writeTasksFile } from '../helpers/rl-service.js';

/** The conversation in the ChatML template with Hermes tool calls (Qwen's), as a trainer would decode it. */
function chatMl(system: string, messages: readonly ChatMessage[]): string {
  const turn = (role: string, content: string) => `<|im_start|>${role}\n${content}<|im_end|>\n`;
  let out = turn('system', system);
  let responses: string[] = [];
  const flush = () => {
    if (responses.length > 0) out += turn('user', responses.join('\n'));
    responses = [];
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      responses.push(`<tool_response>\n${m.content}\n</tool_response>`);
      continue;
    }
    flush();
    if (m.role === 'assistant') {
      const calls = (m.tool_calls ?? []).map(
        (c) =>
          `<tool_call>\n{"name": "${c.function.name}", "arguments": ${c.function.arguments}}\n</tool_call>`,
      );
      out += turn('assistant', [m.content ?? '', ...calls].filter((s) => s !== '').join('\n'));
    } else out += turn(m.role, m.content);
  }
  flush();
  return out;
}

describe('POST /reward and /openrlhf/reward on cove tasks', () => {
  let files: Awaited<ReturnType<typeof writeTasksFile>>;
  let svc: Awaited<ReturnType<typeof startService>>;
  beforeAll(async () => {
    files = await writeTasksFile(3);
    svc = await startService({ tasks: files.file });
  });
  afterAll(async () => {
    await svc.close();
    files.cleanup();
  });

  it('replays a conversation made elsewhere: the same reward as the in-process evaluator, mismatching outputs reported', async () => {
    const system = { role: 'system', content: 'any system prompt' };
    for (const [i, t] of files.tasks.entries()) {
      const task = t as CoveTask;
      const record = await referenceRecord(svc.service, task, 7 + i);
      expect(record.evaluation?.reward).toBe(1);
      const r = await call(`${svc.url}/reward`, 'POST', {
        task_id: task.id,
        messages: [system, ...record.messages],
      });
      expect(r.status).toBe(200);
      expect(r.body.reward).toBe(record.evaluation?.reward);
      const report = r.body.report as Record<string, unknown>;
      expect(report.tool_output_differences).toEqual([]);
      expect(report.replayed_tool_calls).toBe(record.messages.filter((m) => m.role === 'tool').length);
      expect(report.termination).toBe('user_stop');

      // the task given inline instead of by id
      const inline = await call(`${svc.url}/reward`, 'POST', { task, messages: record.messages });
      expect(inline.body.reward).toBe(1);

      // a recorded tool output that the replay does not give is reported; the replayed state decides
      const toolAt = record.messages.findIndex((m) => m.role === 'tool');
      const tampered = record.messages.map((m, j) => (j === toolAt ? { ...m, content: 'made up' } : m));
      const t2 = await call(`${svc.url}/reward`, 'POST', { task_id: task.id, messages: tampered });
      const diffs = (t2.body.report as { tool_output_differences: { recorded: string; replayed: string }[] })
        .tool_output_differences;
      expect(diffs).toHaveLength(1);
      expect(diffs[0]?.recorded).toBe('made up');
      expect(diffs[0]?.replayed).toBe((record.messages[toolAt] as { content: string }).content);

      // without the user's stop the conversation is not terminated: 0 by the gate
      const open = record.messages.slice(0, -1);
      const t3 = await call(`${svc.url}/reward`, 'POST', { task_id: task.id, messages: open });
      expect(t3.body.reward).toBe(0);
      expect((t3.body.report as { termination: unknown }).termination).toBeNull();

      // OpenRLHF: the decoded ChatML text, the task id as label
      const text = chatMl('policy…', record.messages);
      const o = await call(`${svc.url}/openrlhf/reward`, 'POST', {
        query: [text, 'no chatml here'],
        prompts: ['', ''],
        labels: [task.id, task.id],
      });
      expect(o.status).toBe(200);
      expect(o.body).toEqual({
        rewards: [1, 0],
        scores: [1, 0],
        extra_logs: { unreadable: [0, 1], not_evaluated: [0, 0] },
      });
    }
  });

  it('refuses what it cannot grade with a 4xx', async () => {
    const msgs = [{ role: 'user', content: 'hi' }];
    expect((await call(`${svc.url}/reward`, 'POST', { task_id: 'nope', messages: msgs })).status).toBe(404);
    const both = await call(`${svc.url}/reward`, 'POST', { messages: msgs });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/exactly one of task_id and task/);
    const badRole = await call(`${svc.url}/reward`, 'POST', {
      task_id: files.tasks[0]?.id,
      messages: [{ role: 'robot' }],
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error).toMatch(/^\$\.messages\[0\]/);
    const lengths = await call(`${svc.url}/openrlhf/reward`, 'POST', { query: ['a'], labels: [] });
    expect(lengths.status).toBe(400);
  });
});

describe('POST /reward on τ² tasks (τ²’s evaluator)', () => {
  it('gold actions replayed give τ²’s reward 1; leaving out the write gives 0', async () => {
    const svc = await startService({ tasks: RETAIL_TASKS, tau2Data: TAU2 });
    try {
      const tasks = JSON.parse(readFileSync(RETAIL_TASKS, 'utf8')) as {
        id: string;
        evaluation_criteria: { actions: { name: string; arguments: unknown }[] };
      }[];
      const task = tasks.find((t) => t.id === '0') as (typeof tasks)[number];
      const actions = task.evaluation_criteria.actions;
      const conversation = (upTo: number): unknown[] => [
        { role: 'assistant', content: 'Hi! How can I help you today?' },
        { role: 'user', content: 'I want to exchange some items.' },
        ...actions.slice(0, upTo).flatMap((a, i) => [
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `g${i}`,
                type: 'function',
                function: { name: a.name, arguments: JSON.stringify(a.arguments) },
              },
            ],
          },
        ]),
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'Thanks. ###STOP###' },
      ];
      // reward basis DB + NL_ASSERTION without assertions: the DB check decides (τ²'s rules)
      const full = await call(`${svc.url}/reward`, 'POST', {
        task_id: '0',
        messages: conversation(actions.length),
      });
      expect(full.status).toBe(200);
      expect(full.body.reward).toBe(1);
      expect((full.body.report as { evaluator: string }).evaluator).toBe('tau2');
      const partial = await call(`${svc.url}/reward`, 'POST', {
        task_id: '0',
        messages: conversation(actions.length - 1),
      });
      expect(partial.body.reward).toBe(0);
      expect((partial.body.report as { db_check: unknown }).db_check).toEqual({
        db_match: false,
        db_reward: 0,
      });
      // the tool messages were not recorded: every replayed call is reported as without a recorded output
      expect(
        (full.body.report as { tool_output_differences: unknown[] }).tool_output_differences,
      ).toHaveLength(actions.length);
      // the scripted user cannot play a τ² task
      const scripted = await call(`${svc.url}/episodes`, 'POST', { task_id: '0', user: 'scripted' });
      expect(scripted.status).toBe(422);
      expect(scripted.body.error).toMatch(/no cove block/);
    } finally {
      await svc.close();
    }
  });
});
