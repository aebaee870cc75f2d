import { afterAll, describe, expect, it } from 'vitest';
import { createMockLlmApp, type MockScript } from '../../src/server/mock-llm/app.js';
import { type RunningServer, serveApp } from '../../src/server/serve.js';

// cove mock-llm --mode script answers every synthesis stage by its x-cove-role, per task id under by_task, and
// still reads an older script's `tasks` object as replies per task id; the tool model's role (`tool_outputs`) and
// the `tools` stage are two roles.

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function ask(
  script: MockScript,
  role: string,
  taskId: string,
  assistants = 0,
  mode: 'oracle' | 'script' = 'script',
): Promise<{ status: number; text: string }> {
  const server = await serveApp(createMockLlmApp({ mode, script }).app, { port: 0 });
  servers.push(server);
  const messages = [
    { role: 'user', content: 'go' },
    ...Array.from({ length: assistants }, () => [
      { role: 'assistant', content: 'earlier' },
      { role: 'user', content: 'again' },
    ]).flat(),
  ];
  const r = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-cove-role': role, 'x-cove-task-id': taskId },
    body: JSON.stringify({ model: 'm', messages }),
  });
  const body = (await r.json()) as {
    choices?: { message: { content: string } }[];
    error?: { message: string };
  };
  return { status: r.status, text: body.choices?.[0]?.message.content ?? body.error?.message ?? '' };
}

describe('mock-llm script roles', () => {
  const script: MockScript = {
    sql: [{ content: 'sql 0' }, { content: 'sql 1' }],
    tasks: [{ content: 'descriptive task' }],
    by_task: { get_track: { sql: [{ content: 'get_track sql' }] } },
  };

  it('answers a stage by its role, the n-th reply of a conversation by its assistant messages', async () => {
    expect(await ask(script, 'sql', 'other')).toEqual({ status: 200, text: 'sql 0' });
    expect(await ask(script, 'sql', 'other', 1)).toEqual({ status: 200, text: 'sql 1' });
    expect(await ask(script, 'sql', 'other', 5)).toEqual({ status: 200, text: 'sql 1' });
    expect(await ask(script, 'sql', 'get_track')).toEqual({ status: 200, text: 'get_track sql' });
    expect(await ask(script, 'tasks', 'any')).toEqual({ status: 200, text: 'descriptive task' });
  });

  it('reads an older script’s tasks object as replies per task id, and refuses an unknown role', async () => {
    const old: MockScript = {
      agent: [{ content: 'default' }],
      tasks: { '7': { agent: [{ content: 'task 7' }] } },
    };
    expect(await ask(old, 'agent', '7', 1)).toEqual({ status: 200, text: 'task 7' });
    expect(await ask(old, 'agent', '8', 1)).toEqual({ status: 200, text: 'default' });
    const bad = await ask(old, 'planner', '7');
    expect(bad.status).toBe(400);
    expect(bad.text).toBe(
      "x-cove-role must be one of agent, user, tool_outputs, questions, tools, expand, schemas, sql, tasks, judge, not 'planner'",
    );
  });

  it('keeps the tool model (tool_outputs) and the tools stage apart', async () => {
    const both: MockScript = {
      tool_outputs: [{ content: '{"output": {"order_id": "#W1"}}' }],
      tools: [{ content: '{"tools": []}' }],
    };
    expect(await ask(both, 'tool_outputs', 'get_order')).toEqual({
      status: 200,
      text: '{"output": {"order_id": "#W1"}}',
    });
    expect(await ask(both, 'tools', 'any')).toEqual({ status: 200, text: '{"tools": []}' });
    // oracle mode plays no stage: the old name of the tool model's role is refused there
    expect(await ask(both, 'tools', 'any', 0, 'oracle')).toEqual({
      status: 400,
      text: "x-cove-role must be one of agent, user, tool_outputs in oracle mode (a judge or synthesis stage needs script mode), not 'tools'",
    });
  });
});
