import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import type { AssistantMessage, ChatMessage } from '../../src/sim/messages.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { call, playOracle, referenceRecord, startService, writeTasksFile } from '../helpers/rl-service.js';

const WRITES = new Set(retailDomain.tools.filter((t) => t.kind === 'write').map((t) => t.name));

/** The read call that shows what a write changed: the order's or the user's details. */
function readBack(write: { name: string; arguments: string }): { name: string; arguments: string } {
  const args = JSON.parse(write.arguments) as Record<string, unknown>;
  return args.order_id !== undefined
    ? { name: 'get_order_details', arguments: JSON.stringify({ order_id: args.order_id }) }
    : { name: 'get_user_details', arguments: JSON.stringify({ user_id: args.user_id }) };
}

describe('cove serve: episodes played over HTTP', () => {
  let files: Awaited<ReturnType<typeof writeTasksFile>>;
  let svc: Awaited<ReturnType<typeof startService>>;
  beforeAll(async () => {
    files = await writeTasksFile(24);
    svc = await startService({ tasks: files.file });
  });
  afterAll(async () => {
    await svc.close();
    files.cleanup();
  });

  it('24 concurrent episodes: each conversation and reward equal the in-process run, and none sees another’s writes', async () => {
    const tasks = files.tasks;
    // a second, idle episode per task, opened before any write happens
    const watchers = await Promise.all(
      tasks.map(async (t) => (await call(`${svc.url}/episodes`, 'POST', { task_id: t.id, seed: 99 })).body),
    );
    const played = await Promise.all(tasks.map((t, i) => playOracle(svc.url, t, 10 + i)));
    for (const [i, task] of tasks.entries()) {
      const reference = await referenceRecord(svc.service, task as CoveTask, 10 + i);
      const mine = played[i] as (typeof played)[number];
      expect(mine.messages).toEqual(reference.messages);
      // the oracle solves every generated task (each was proven solvable): CoVe's score is 1
      expect(mine.reward.reward).toBe(1);
      expect(mine.reward.reward).toBe(reference.evaluation?.reward);
      expect(mine.reward.done).toBe(true);
      expect((mine.reward.report as Record<string, unknown>).termination).toBe('user_stop');
      const view = await call(`${svc.url}/episodes/${mine.id}`, 'GET');
      expect(view.body.messages).toEqual(reference.messages);
    }
    // isolation: the watcher episodes still read the base's values where the played episodes wrote
    let checked = 0;
    for (const [i, w] of watchers.entries()) {
      const writes = (played[i]?.messages ?? []).flatMap((m: ChatMessage) =>
        m.role === 'assistant' ? (m.tool_calls ?? []).filter((c) => WRITES.has(c.function.name)) : [],
      );
      for (const [j, write] of writes.entries()) {
        const read = readBack(write.function);
        const r = await call(`${svc.url}/episodes/${w.episode_id}/step`, 'POST', {
          message: { content: null, tool_calls: [{ id: `r${j}`, function: read }] },
        });
        expect(r.status).toBe(200);
        const fresh = svc.service.options.base.fork();
        const expected = fresh.call(read.name, parsePyJson(read.arguments)).content;
        fresh.close();
        expect((r.body.messages as { content: string }[])[0]?.content).toBe(expected);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(tasks.length / 2);
  });

  it('a live episode’s reward is 0 until the user stops, with what stopping now would give', async () => {
    const task = files.tasks[0] as CoveTask;
    const created = await call(`${svc.url}/episodes`, 'POST', { task_id: task.id, seed: 1 });
    expect(created.status).toBe(200);
    expect((created.body.messages as ChatMessage[]).map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(created.body.system_prompt).toBe(svc.service.options.agentContext.systemPrompt);
    const id = created.body.episode_id as string;
    const r = await call(`${svc.url}/episodes/${id}/reward`, 'GET');
    expect(r.status).toBe(200);
    expect(r.body.done).toBe(false);
    expect(r.body.reward).toBe(0);
    const report = r.body.report as { termination: unknown; if_user_stopped_now: { constraints: number } };
    expect(report.termination).toBeNull();
    expect(report.if_user_stopped_now.constraints).toBe(task.cove.constraints.length);
    const message: AssistantMessage = { role: 'assistant', content: 'Could you tell me more?' };
    const step = await call(`${svc.url}/episodes/${id}/step`, 'POST', { message });
    expect((step.body.messages as ChatMessage[]).map((m) => m.role)).toEqual(['user']);
    expect((await call(`${svc.url}/episodes/${id}`, 'DELETE')).body).toEqual({ deleted: id, done: false });
    expect((await call(`${svc.url}/episodes/${id}`, 'GET')).status).toBe(404);
  });

  it('lists the tasks', async () => {
    const r = await call(`${svc.url}/tasks`, 'GET');
    const tasks = r.body.tasks as { task_id: string; evaluator: string }[];
    expect(tasks.map((t) => t.task_id)).toEqual(files.tasks.map((t) => t.id));
    expect(new Set(tasks.map((t) => t.evaluator))).toEqual(new Set(['cove']));
  });
});
