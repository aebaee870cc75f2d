import { Hono } from 'hono';
import { Rng } from '../../core/rng.js';
import { type ChatMessage, hasStopToken, STOP_TOKENS, type ToolMessage } from '../../sim/messages.js';
import type { VisibleMessage } from '../../sim/roles.js';
import { STAGE_NAMES } from '../../synth/stage.js';
import type { CoveTask } from '../../tasks/cove-task.js';
import { type Fault, pickFault } from './faults.js';
import type { RoleSessions } from './sessions.js';
import { toolRequest } from './tool-oracle.js';

/** A scripted reply of `--mode script`. */
export interface ScriptTurn {
  readonly content?: string | null;
  readonly tool_calls?: readonly {
    readonly id?: string;
    readonly name: string;
    readonly arguments: unknown;
  }[];
}

/**
 * The roles a script answers: the agent, the user, the judge, and every synthesis stage (`x-cove-role` is the
 * stage's name, docs/synthesis-stages.md).
 */
export const SCRIPT_ROLES = ['agent', 'user', 'tools', ...STAGE_NAMES] as const;
export type ScriptRole = (typeof SCRIPT_ROLES)[number];

/** Replies per role. */
export type ScriptTurns = { readonly [R in ScriptRole]?: readonly ScriptTurn[] };

/**
 * A script file (`--script`): replies per role, served in order — the n-th reply of a conversation is the n-th
 * entry (the last one repeats) — optionally per task id under `by_task` (a synthesis stage sends its unit's label,
 * e.g. a tool name, as the task id). The judge role (τ²'s NL-assertion judge) gets one request per episode: its
 * n-th reply goes to the n-th judge request of a task id. The `tools` role (the tool model of `--tool-outputs model`):
 * entry n answers attempt n of every tool call (the first try, then the retries; the last entry repeats). `tasks` is both a stage and, in older scripts, the key of
 * the replies per task id: a list under `tasks` is the `tasks` stage's replies, an object is read as `by_task`.
 */
export type MockScript = Omit<ScriptTurns, 'tasks'> & {
  readonly tasks?: readonly ScriptTurn[] | Readonly<Record<string, ScriptTurns>>;
  readonly by_task?: Readonly<Record<string, ScriptTurns>>;
};

/** The replies a script has for `role` in the conversation of `taskId` (per task id first, then the role's). */
export function scriptTurns(
  script: MockScript | undefined,
  taskId: string,
  role: ScriptRole,
): readonly ScriptTurn[] {
  if (script === undefined) return [];
  const perTask = Array.isArray(script.tasks) ? undefined : (script.tasks as MockScript['by_task']);
  const own = script.by_task?.[taskId]?.[role] ?? perTask?.[taskId]?.[role];
  if (own !== undefined) return own;
  if (role === 'tasks') return Array.isArray(script.tasks) ? (script.tasks as readonly ScriptTurn[]) : [];
  return (script as ScriptTurns)[role] ?? [];
}

/** Options of the mock server. */
export interface MockLlmOptions {
  readonly mode: 'oracle' | 'script';
  /** In oracle mode, how the scripted user answers: plain text (default) or the JSON user's
   * `{"user_message", "is_task_complete"}` (`--user-style json`). */
  readonly userStyle?: 'stop-token' | 'json';
  readonly sessions?: RoleSessions;
  readonly script?: MockScript;
  /** Delay before every answer, in milliseconds. @defaultValue 0 */
  readonly latencyMs?: number;
  /** Share of requests that get a fault. @defaultValue 0 */
  readonly faultRate?: number;
  readonly faults?: readonly Fault[];
  /** How long a `timeout` fault holds the request, in milliseconds. @defaultValue 65000 */
  readonly hangMs?: number;
  /** Extra delay of a `slow` fault, in milliseconds. @defaultValue 1500 */
  readonly slowMs?: number;
  /** Seed of the fault choices. @defaultValue 1 */
  readonly seed?: number;
}

/** Request and fault counters (`GET /stats`). */
export interface MockStats {
  requests: number;
  byRole: Record<string, number>;
  faults: Record<string, number>;
}

type ApiMessage = {
  role: string;
  content?: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function conversation(messages: readonly ApiMessage[]): ChatMessage[] {
  const names = new Map<string, string>();
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'assistant') {
      for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
      out.push(
        m.tool_calls === undefined || m.tool_calls.length === 0
          ? { role: 'assistant', content: m.content ?? null }
          : {
              role: 'assistant',
              content: m.content ?? null,
              tool_calls: m.tool_calls.map((c) => ({ ...c, type: 'function' as const })),
            },
      );
    } else if (m.role === 'tool') {
      const tool: ToolMessage = {
        role: 'tool',
        tool_call_id: m.tool_call_id ?? '',
        name: names.get(m.tool_call_id ?? '') ?? '',
        content: m.content ?? '',
      };
      out.push(tool);
    } else out.push({ role: 'user', content: m.content ?? '' });
  }
  return out;
}

/** The scripted user's text as a JSON-user turn: stop tokens become `is_task_complete: true`. */
function toJsonTurn(text: string): string {
  const stripped = STOP_TOKENS.reduce((t, token) => t.split(token).join(''), text).trim();
  return JSON.stringify({
    user_message: stripped === '' ? 'Thank you, that is all.' : stripped,
    is_task_complete: hasStopToken(text),
  });
}

/** The text of one of the JSON user's own earlier turns (as sent back in the request). */
function fromJsonTurn(content: string): string {
  try {
    const value = JSON.parse(content) as { user_message?: unknown };
    return typeof value.user_message === 'string' ? value.user_message : content;
  } catch {
    return content;
  }
}

function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/**
 * The mock OpenAI-compatible server (`cove mock-llm`): `POST /v1/chat/completions` answers as the oracle agent or
 * the scripted user of the task named by `x-cove-task-id`, for the role in `x-cove-role` (`oracle` mode), or
 * from a script (`script` mode); it can inject transport faults (429, 500, timeouts, slow answers) and content
 * faults (invalid tool-call JSON, unknown tool names, arguments as objects, missing call ids, empty content with
 * tool calls, a user turn that leaks a fuzzified id). `GET /stats` counts requests and faults.
 */
export function createMockLlmApp(options: MockLlmOptions): { app: Hono; stats: MockStats } {
  const app = new Hono();
  const stats: MockStats = { requests: 0, byRole: {}, faults: {} };
  const rng = new Rng(options.seed ?? 1);
  const enabled = options.faults ?? [];
  let counter = 0;
  const judged = new Map<string, number>();
  // CPU spent serving, not starting up (module loading, reading the tasks)
  const cpuAtStart = process.cpuUsage();

  app.get('/health', (c) => c.json({ ok: true }));
  app.get('/stats', (c) => {
    const cpu = process.cpuUsage(cpuAtStart);
    return c.json({ ...stats, cpu_ms: (cpu.user + cpu.system) / 1000 });
  });
  app.post('/v1/chat/completions', async (c) => {
    const role = c.req.header('x-cove-role') ?? '';
    const taskId = c.req.header('x-cove-task-id') ?? '';
    stats.requests++;
    stats.byRole[role] = (stats.byRole[role] ?? 0) + 1;
    const raw = await c.req.text();
    const body = JSON.parse(raw) as { model?: string; messages?: ApiMessage[] };
    const messages = body.messages ?? [];
    if (options.latencyMs !== undefined && options.latencyMs > 0) await sleep(options.latencyMs);
    const known =
      options.mode === 'script' ? (SCRIPT_ROLES as readonly string[]) : ['agent', 'user', 'tools'];
    if (!known.includes(role)) {
      return c.json(
        {
          error: {
            message: `x-cove-role must be ${options.mode === 'script' ? `one of ${SCRIPT_ROLES.join(', ')}` : 'agent, user or tools (or a judge or synthesis stage in script mode)'}, not '${role}'`,
          },
        },
        400,
        {
          'x-should-retry': 'false',
        },
      );
    }
    let reply: { content: string | null; tool_calls?: Record<string, unknown>[] };
    let task: CoveTask | undefined;
    if (options.mode === 'oracle') {
      task = options.sessions?.task(taskId);
      if (task === undefined || options.sessions === undefined) {
        return c.json({ error: { message: `unknown task id '${taskId}' (x-cove-task-id)` } }, 404, {
          'x-should-retry': 'false',
        });
      }
      if (role === 'tools') {
        const request = toolRequest(messages);
        if (request === undefined) {
          return c.json(
            { error: { message: 'a tools request needs the JSON of a tool call in its user message' } },
            400,
            { 'x-should-retry': 'false' },
          );
        }
        reply = { content: options.sessions.toolTurn(request) };
      } else if (role === 'agent') {
        const m = await options.sessions.agentTurn(taskId, conversation(messages));
        reply =
          m.role === 'assistant' && m.tool_calls !== undefined && m.tool_calls.length > 0
            ? { content: m.content, tool_calls: m.tool_calls.map((t) => ({ ...t })) }
            : { content: m.role === 'assistant' ? m.content : '' };
      } else {
        const json = options.userStyle === 'json';
        const visible: VisibleMessage[] = messages
          .filter((m) => m.role !== 'system')
          .map((m) => ({
            role: m.role === 'user' ? 'agent' : 'user',
            content: json && m.role === 'assistant' ? fromJsonTurn(m.content ?? '') : (m.content ?? ''),
          }));
        const text = await options.sessions.userTurn(taskId, visible);
        reply = { content: json ? toJsonTurn(text) : text };
      }
    } else {
      // the judge gets one request per episode: its n-th reply goes to the n-th judge request of the task
      // the tool model asks once per call, again after an invalid reply: entry n answers attempt n of every call
      // (its request then holds n earlier replies); the other roles count their turns of the conversation
      const own =
        role === 'judge'
          ? (judged.set(taskId, (judged.get(taskId) ?? -1) + 1).get(taskId) ?? 0)
          : messages.filter((m) => m.role === 'assistant').length - (role === 'agent' ? 1 : 0);
      const turns = scriptTurns(options.script, taskId, role as ScriptRole);
      const turn = turns[Math.min(Math.max(own, 0), turns.length - 1)] ?? { content: '' };
      reply = {
        content: turn.content ?? null,
        ...(turn.tool_calls === undefined
          ? {}
          : {
              tool_calls: turn.tool_calls.map((t, i) => ({
                id: t.id ?? `call_script_${own}_${i}`,
                type: 'function',
                function: {
                  name: t.name,
                  arguments: typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments),
                },
              })),
            }),
      };
    }

    const fault = pickFault(rng, options.faultRate ?? 0, enabled, role, (reply.tool_calls ?? []).length > 0);
    if (fault !== undefined) stats.faults[fault] = (stats.faults[fault] ?? 0) + 1;
    switch (fault) {
      case '429':
        return c.json({ error: { message: 'rate limited (injected)' } }, 429, { 'retry-after-ms': '20' });
      case '500':
        return c.json({ error: { message: 'server error (injected)' } }, 500, { 'retry-after-ms': '20' });
      case 'timeout':
        await sleep(options.hangMs ?? 65_000);
        break;
      case 'slow':
        await sleep(options.slowMs ?? 1500);
        break;
      default:
        break;
    }
    const call = reply.tool_calls?.[0] as
      | { id?: string; function: { name: string; arguments: unknown } }
      | undefined;
    if (call !== undefined) {
      if (fault === 'invalid_json') call.function.arguments = String(call.function.arguments).slice(0, -3);
      if (fault === 'unknown_tool') call.function.name = 'lookup_everything';
      if (fault === 'object_args') call.function.arguments = JSON.parse(String(call.function.arguments));
      if (fault === 'missing_id') delete call.id;
      if (fault === 'empty_content_with_tools') reply.content = '';
    }
    if (fault === 'leak' && task !== undefined) {
      const hidden = task.cove.fuzz.hidden_ids;
      const id = hidden.find((h) => !h.includes('_')) ?? hidden[0];
      if (id !== undefined) reply.content = `${reply.content ?? ''} (for reference: ${id})`;
    }
    const promptTokens = tokens(raw);
    const completionTokens = tokens(JSON.stringify(reply));
    return c.json({
      id: `chatcmpl-mock-${++counter}`,
      object: 'chat.completion',
      created: 0,
      model: body.model ?? 'mock',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', ...reply },
          finish_reason: (reply.tool_calls ?? []).length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    });
  });
  return { app, stats };
}
