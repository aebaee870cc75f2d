import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { type MockLlmProcess, startMockLlm } from '../helpers/llm-mock-process.js';
import { call, oracleAgent, startService, writeTasksFile } from '../helpers/rl-service.js';

describe('cove serve with a model-played user (OpenAI-compatible, here cove mock-llm)', () => {
  let files: Awaited<ReturnType<typeof writeTasksFile>>;
  let mock: MockLlmProcess;
  let svc: Awaited<ReturnType<typeof startService>>;
  beforeAll(async () => {
    files = await writeTasksFile(2);
    mock = await startMockLlm(['--tasks', files.file, '--latency-ms', '400']);
    svc = await startService({ tasks: files.file, userBaseUrl: mock.baseUrl });
  });
  afterAll(async () => {
    await svc.close();
    await mock.close();
    files.cleanup();
  });

  it('an episode created with user "openai:mock" is answered by the model endpoint and reaches reward 1', async () => {
    const task = files.tasks[0] as CoveTask;
    const created = await call(`${svc.url}/episodes`, 'POST', {
      task_id: task.id,
      seed: 1,
      user: 'openai:mock',
    });
    expect(created.status).toBe(200);
    const id = created.body.episode_id as string;
    const messages = [...(created.body.messages as never[])];
    const agent = oracleAgent(task, 1);
    let done = false;
    for (let turns = 0; !done && turns < 100; turns++) {
      const turn = await agent.respond(messages);
      const r = await call(`${svc.url}/episodes/${id}/step`, 'POST', { message: turn.message });
      expect(r.status).toBe(200);
      messages.push(turn.message as never, ...(r.body.messages as never[]));
      done = r.body.done as boolean;
    }
    const reward = await call(`${svc.url}/episodes/${id}/reward`, 'GET');
    expect(reward.body).toMatchObject({ done: true, reward: 1 });
    expect((await call(`${svc.url}/episodes/${id}`, 'GET')).body.user).toBe('openai:mock');
    // every user turn after the first came from the endpoint (the mock counts requests by role)
    const userTurns = messages.filter((m: { role: string }) => m.role === 'user').length;
    expect((await mock.stats()).byRole.user).toBe(userTurns);
  });

  it('a second step while the user simulator is answering is refused with 409; the reward still answers', async () => {
    const task = files.tasks[1] as CoveTask;
    const created = await call(`${svc.url}/episodes`, 'POST', {
      task_id: task.id,
      seed: 2,
      user: 'openai:mock',
    });
    const id = created.body.episode_id as string;
    const first = call(`${svc.url}/episodes/${id}/step`, 'POST', {
      message: { content: 'Could you tell me more?' },
    });
    // the first step waits ≥ 400 ms for the model user: wait until the service says it is under way
    let underWay = false;
    for (let i = 0; i < 400 && !underWay; i++) {
      underWay = (await call(`${svc.url}/episodes/${id}`, 'GET')).body.step_under_way === true;
    }
    expect(underWay).toBe(true);
    const second = await call(`${svc.url}/episodes/${id}/step`, 'POST', { message: { content: 'And?' } });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatch(/step under way/);
    expect((await call(`${svc.url}/episodes/${id}/reward`, 'GET')).status).toBe(200);
    expect((await first).status).toBe(200);
    const view = await call(`${svc.url}/episodes/${id}`, 'GET');
    expect((view.body.messages as { content: string }[]).map((m) => m.content)).not.toContain('And?');
  });
});
