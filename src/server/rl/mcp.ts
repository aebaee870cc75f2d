import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { COVE_VERSION } from '../../version.js';
import type { RlService } from './service.js';
import { RequestError } from './wire.js';

/** The extra MCP tool that carries a text message of the agent to the user simulator (MCP has only tools). */
export const SEND_MESSAGE_TOOL = 'send_message_to_user';

function text(value: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) };
}

/** The MCP view of one episode's tools: the agent's tools as they are, plus {@link SEND_MESSAGE_TOOL}. */
function listTools(service: RlService): Tool[] {
  const tools: Tool[] = service.options.agentContext.tools.map((t) => ({
    name: t.function.name,
    description: t.function.description,
    inputSchema: { type: 'object', ...t.function.parameters } as Tool['inputSchema'],
  }));
  tools.push({
    name: SEND_MESSAGE_TOOL,
    description:
      "Send a text message to the customer and get the customer's reply. Use it to answer, ask for details or confirm before acting.",
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: 'What to say to the customer.' } },
      required: ['message'],
    },
  });
  return tools;
}

/**
 * An MCP server over one live episode, built per request (stateless Streamable HTTP, JSON responses): the
 * episode is the one named in the URL, so its id never appears in a tool schema. `tools/call` of a domain tool is
 * one agent step with that single tool call (recorded in the trajectory like any step; a failing call comes back
 * with `isError`); {@link SEND_MESSAGE_TOOL} is a text step and returns the user's reply. Once the episode is
 * over, calls return an error result saying so.
 */
function episodeServer(service: RlService, id: string): Server {
  const server = new Server({ name: 'cove-episode', version: COVE_VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    service.registry.get(id);
    return { tools: listTools(service) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    try {
      if (name === SEND_MESSAGE_TOOL) {
        const message = (args as { message?: unknown } | undefined)?.message;
        if (typeof message !== 'string' || message.trim() === '')
          return text(`${SEND_MESSAGE_TOOL} needs a non-empty string "message"`, true);
        const r = await service.step(id, { content: message });
        const reply = r.messages
          .filter((m) => m.role === 'user')
          .map((m) => m.content)
          .join('\n');
        return text(r.done ? `${reply}\n(the conversation is over: ${r.termination_reason})` : reply);
      }
      const live = service.registry.get(id);
      const callId = `mcp_${live.calls++}`;
      const r = await service.step(id, {
        content: null,
        tool_calls: [{ id: callId, function: { name, arguments: JSON.stringify(args ?? {}) } }],
      });
      const result = r.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
      const failed = live.session.toolCalls.find((c) => c.id === callId)?.error ?? true;
      const content = result?.role === 'tool' ? result.content : '';
      return text(r.done ? `${content}\n(the episode is over: ${r.termination_reason})` : content, failed);
    } catch (e) {
      if (e instanceof RequestError) return text(e.message, true);
      throw e;
    }
  });
  return server;
}

/**
 * Answers one HTTP request to `/episodes/{id}/mcp` (MCP Streamable HTTP, stateless): POST carries JSON-RPC
 * messages; GET and DELETE (server-sent streams, sessions) are not offered here and get 405.
 * @throws {RequestError} 404 when the episode is unknown.
 */
export async function handleMcp(service: RlService, id: string, request: Request): Promise<Response> {
  service.registry.get(id);
  if (request.method !== 'POST') {
    return new Response(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this endpoint is stateless, POST only' },
        id: null,
      }),
      { status: 405, headers: { 'content-type': 'application/json', allow: 'POST' } },
    );
  }
  const server = episodeServer(service, id);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
