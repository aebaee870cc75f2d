import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { call, oracleAgent, startService, writeTasksFile } from '../helpers/rl-service.js';

const TOKEN = 'test-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };

describe('cove serve: every client mistake is a clear 4xx, nothing is lost, the server keeps serving', () => {
  let files: Awaited<ReturnType<typeof writeTasksFile>>;
  let svc: Awaited<ReturnType<typeof startService>>;
  let task: CoveTask;
  beforeAll(async () => {
    files = await writeTasksFile(2);
    task = files.tasks[0] as CoveTask;
    svc = await startService(
      { tasks: files.file, maxEpisodes: 3, idleTimeoutMs: 60_000 },
      { token: TOKEN, maxBodyBytes: 64 * 1024 },
    );
  });
  afterAll(async () => {
    await svc.close();
    files.cleanup();
  });

  async function newEpisode(): Promise<string> {
    const r = await call(`${svc.url}/episodes`, 'POST', { task_id: task.id, seed: 4 }, AUTH);
    expect(r.status).toBe(200);
    return r.body.episode_id as string;
  }
  async function messageCount(id: string): Promise<number> {
    return ((await call(`${svc.url}/episodes/${id}`, 'GET', undefined, AUTH)).body.messages as unknown[])
      .length;
  }

  it('401 without a token or with a wrong one; /health stays open', async () => {
    const none = await call(`${svc.url}/episodes`, 'POST', { task_id: task.id });
    expect(none.status).toBe(401);
    expect(none.body.error).toMatch(/missing bearer token/);
    const wrong = await call(`${svc.url}/tasks`, 'GET', undefined, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('wrong bearer token');
    expect((await call(`${svc.url}/health`, 'GET')).status).toBe(200);
    expect(svc.service.registry.size).toBe(0); // nothing was created by the refused request
  });

  it('400 for malformed JSON and for a field of the wrong shape, naming it; the episode is unchanged', async () => {
    const id = await newEpisode();
    const before = await messageCount(id);
    const bad = await call(`${svc.url}/episodes/${id}/step`, 'POST', '{"message": {"content": "hi"', AUTH);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^malformed JSON body/);
    const objectArgs = await call(
      `${svc.url}/episodes/${id}/step`,
      'POST',
      {
        message: {
          tool_calls: [{ id: 'a', function: { name: 'get_user_details', arguments: { user_id: 'x' } } }],
        },
      },
      AUTH,
    );
    expect(objectArgs.status).toBe(400);
    expect(objectArgs.body.error).toMatch(
      /^\$\.message\.tool_calls\[0\]\.function\.arguments: must be a string/,
    );
    const extra = await call(`${svc.url}/episodes`, 'POST', { task_id: task.id, sed: 1 }, AUTH);
    expect(extra.status).toBe(400);
    expect(extra.body.error).toMatch(/sed/);
    expect(await messageCount(id)).toBe(before);
    // arguments that are JSON but wrong for the tool are the model's mistake: τ²'s tool error, in the conversation
    const wrongArgs = await call(
      `${svc.url}/episodes/${id}/step`,
      'POST',
      {
        message: {
          content: null,
          tool_calls: [{ id: 'b', function: { name: 'get_user_details', arguments: '{"id": 1}' } }],
        },
      },
      AUTH,
    );
    expect(wrongArgs.status).toBe(200);
    expect((wrongArgs.body.messages as { content: string }[])[0]?.content).toMatch(/^Error: /);
    expect(await messageCount(id)).toBe(before + 2);
    await call(`${svc.url}/episodes/${id}`, 'DELETE', undefined, AUTH);
  });

  it('404 for an unknown episode or task, 405-free JSON 404 for an unknown route', async () => {
    const step = await call(`${svc.url}/episodes/ep_nope/step`, 'POST', { message: { content: 'x' } }, AUTH);
    expect(step.status).toBe(404);
    expect(step.body.error).toMatch(/no live episode 'ep_nope'/);
    expect((await call(`${svc.url}/episodes/ep_nope/reward`, 'GET', undefined, AUTH)).status).toBe(404);
    const unknownTask = await call(`${svc.url}/episodes`, 'POST', { task_id: 'nope' }, AUTH);
    expect(unknownTask.status).toBe(404);
    expect((await call(`${svc.url}/nothing`, 'GET', undefined, AUTH)).status).toBe(404);
  });

  it('413 for an oversized body; the server keeps serving', async () => {
    const id = await newEpisode();
    const huge = { message: { content: 'x'.repeat(200 * 1024) } };
    const r = await call(`${svc.url}/episodes/${id}/step`, 'POST', huge, AUTH);
    expect(r.status).toBe(413);
    expect(r.body.error).toBe(`request body over ${64 * 1024} bytes`);
    expect(await messageCount(id)).toBe(2);
    expect((await call(`${svc.url}/health`, 'GET')).body.ok).toBe(true);
    await call(`${svc.url}/episodes/${id}`, 'DELETE', undefined, AUTH);
  });

  it('409 for a step after done; the finished trajectory and its reward stay', async () => {
    const id = await newEpisode();
    const agent = oracleAgent(task, 4);
    const messages = [
      ...((await call(`${svc.url}/episodes/${id}`, 'GET', undefined, AUTH)).body.messages as never[]),
    ];
    let done = false;
    while (!done) {
      const turn = await agent.respond(messages);
      const r = await call(`${svc.url}/episodes/${id}/step`, 'POST', { message: turn.message }, AUTH);
      messages.push(turn.message as never, ...(r.body.messages as never[]));
      done = r.body.done as boolean;
    }
    const count = await messageCount(id);
    const late = await call(
      `${svc.url}/episodes/${id}/step`,
      'POST',
      { message: { content: 'one more' } },
      AUTH,
    );
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/is over \(user_stop\)/);
    expect(await messageCount(id)).toBe(count);
    const reward = await call(`${svc.url}/episodes/${id}/reward`, 'GET', undefined, AUTH);
    expect(reward.body).toMatchObject({ done: true, reward: 1 });
    await call(`${svc.url}/episodes/${id}`, 'DELETE', undefined, AUTH);
  });

  it('429 past --max-episodes; deleting one makes room', async () => {
    const ids = [await newEpisode(), await newEpisode(), await newEpisode()];
    const over = await call(`${svc.url}/episodes`, 'POST', { task_id: task.id }, AUTH);
    expect(over.status).toBe(429);
    expect(over.body.error).toMatch(/--max-episodes 3/);
    await call(`${svc.url}/episodes/${ids[0]}`, 'DELETE', undefined, AUTH);
    const again = await newEpisode();
    for (const id of [...ids.slice(1), again])
      await call(`${svc.url}/episodes/${id}`, 'DELETE', undefined, AUTH);
    expect(svc.service.registry.size).toBe(0);
  });

  it('422 for the scripted user on a model spec it cannot serve', async () => {
    const r = await call(`${svc.url}/episodes`, 'POST', { task_id: task.id, user: 'gpt' }, AUTH);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/scripted.*openai:<model>/);
  });
});

describe('cove serve: idle episodes expire', () => {
  it('an episode untouched past the idle timeout is closed and answers 404', async () => {
    const files = await writeTasksFile(1);
    const svc = await startService({ tasks: files.file, idleTimeoutMs: 300 });
    try {
      const created = await call(`${svc.url}/episodes`, 'POST', { task_id: files.tasks[0]?.id });
      const id = created.body.episode_id as string;
      expect((await call(`${svc.url}/episodes/${id}`, 'GET')).status).toBe(200);
      // wait on the registry's own state, not the clock: the sweep closes it
      for (let i = 0; i < 200 && svc.service.registry.size > 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(svc.service.registry.expired).toBe(1);
      expect((await call(`${svc.url}/episodes/${id}`, 'GET')).status).toBe(404);
    } finally {
      await svc.close();
      files.cleanup();
    }
  });
});
