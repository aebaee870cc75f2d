import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { call, startService, writeTasksFile } from '../helpers/rl-service.js';

const TOKEN = 'mcp-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

describe('MCP at /episodes/{id}/mcp (official SDK client, Streamable HTTP)', () => {
  let files: Awaited<ReturnType<typeof writeTasksFile>>;
  let svc: Awaited<ReturnType<typeof startService>>;
  beforeAll(async () => {
    files = await writeTasksFile(1);
    svc = await startService({ tasks: files.file }, { token: TOKEN });
  });
  afterAll(async () => {
    await svc.close();
    files.cleanup();
  });

  it('lists the episode’s tools, calls them and changes that episode’s state only', async () => {
    const task = files.tasks[0] as CoveTask;
    const open = async () =>
      (await call(`${svc.url}/episodes`, 'POST', { task_id: task.id, seed: 2 }, AUTH)).body;
    const mine = await open();
    const other = await open();
    const id = mine.episode_id as string;
    const client = new Client({ name: 'cove-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${svc.url}/episodes/${id}/mcp`), {
        requestInit: { headers: AUTH },
      }),
    );
    try {
      const { tools } = await client.listTools();
      const expected = (mine.tools as { function: { name: string } }[]).map((t) => t.function.name);
      expect(tools.map((t) => t.name)).toEqual([...expected, 'send_message_to_user']);
      // the episode id stays out of what the model sees
      expect(JSON.stringify(tools)).not.toContain(id);
      const orderTool = tools.find((t) => t.name === 'get_order_details');
      expect(orderTool?.inputSchema.required).toEqual(['order_id']);

      // find a pending order of the task's user in the base, then cancel it through MCP
      const base = svc.service.options.base.fork();
      const row = base.sql.db
        .prepare("SELECT order_id, user_id FROM orders WHERE status = 'pending' ORDER BY order_id LIMIT 1")
        .get() as { order_id: string; user_id: string };
      base.close();
      const before = (await client.callTool({
        name: 'get_order_details',
        arguments: { order_id: row.order_id },
      })) as TextResult;
      expect(JSON.parse(before.content[0]?.text ?? '{}').status).toBe('pending');
      const cancel = (await client.callTool({
        name: 'cancel_pending_order',
        arguments: { order_id: row.order_id, reason: 'no longer needed' },
      })) as TextResult;
      expect(cancel.isError).toBeUndefined();
      expect(JSON.parse(cancel.content[0]?.text ?? '{}').status).toBe('cancelled');

      // the state change is visible in the episode's trajectory, and only there
      const view = await call(`${svc.url}/episodes/${id}`, 'GET', undefined, AUTH);
      const calls = view.body.tool_calls as {
        name: string;
        changed: { collection: string; key: string }[];
      }[];
      expect(calls.map((c) => c.name)).toEqual(['get_order_details', 'cancel_pending_order']);
      expect(calls[1]?.changed).toContainEqual({ collection: 'orders', key: row.order_id });
      const step = await call(
        `${svc.url}/episodes/${other.episode_id}/step`,
        'POST',
        {
          message: {
            content: null,
            tool_calls: [
              {
                id: 'r',
                function: {
                  name: 'get_order_details',
                  arguments: JSON.stringify({ order_id: row.order_id }),
                },
              },
            ],
          },
        },
        AUTH,
      );
      expect(JSON.parse((step.body.messages as { content: string }[])[0]?.content ?? '{}').status).toBe(
        'pending',
      );

      // a failing call comes back as an error result the model can read
      const wrong = (await client.callTool({
        name: 'get_order_details',
        arguments: { order_id: '#W0' },
      })) as TextResult;
      expect(wrong.isError).toBe(true);
      expect(wrong.content[0]?.text).toBe('Error: Order not found');

      // the user simulator answers through send_message_to_user
      const reply = (await client.callTool({
        name: 'send_message_to_user',
        arguments: { message: 'How can I help?' },
      })) as TextResult;
      expect(reply.isError).toBeUndefined();
      expect(reply.content[0]?.text.length).toBeGreaterThan(0);
      const after = await call(`${svc.url}/episodes/${id}`, 'GET', undefined, AUTH);
      const last = (after.body.messages as { role: string; content: string }[]).at(-1);
      expect(last).toEqual({ role: 'user', content: reply.content[0]?.text });
    } finally {
      await client.close();
    }
  });

  it('an unknown episode or a missing token is refused at the HTTP level', async () => {
    const r = await fetch(`${svc.url}/episodes/ep_none/mcp`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(r.status).toBe(404);
    const noToken = await fetch(`${svc.url}/episodes/ep_none/mcp`, { method: 'POST', body: '{}' });
    expect(noToken.status).toBe(401);
  });
});
