import type { EpisodeFacts } from './facts.js';
import type { EpisodeDetail, ViewMessage } from './source.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string | null =>
  typeof v === 'string' ? v : v === null || v === undefined ? null : JSON.stringify(v);

/** Numbers of a usage object (tokens, cost, retries). */
function numbers(v: unknown): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const [k, x] of Object.entries(obj(v))) if (typeof x === 'number') out[k] = x;
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * The messages of a cove record for the page: tool calls flattened to `{id, name, arguments}` (arguments kept as
 * the JSON text the model wrote), a tool result flagged as an error when its text starts with `Error:` (τ²'s
 * convention for tool failures), and each model-generated message given its `usage.per_message` entry.
 */
export function coveMessages(record: Obj): ViewMessage[] {
  const perMessage = new Map<number, Record<string, number>>();
  for (const entry of list(obj(record.usage).per_message)) {
    const e = obj(entry);
    const usage = numbers(e);
    if (typeof e.message_index === 'number' && usage !== undefined) perMessage.set(e.message_index, usage);
  }
  return list(record.messages).map((raw, i) => {
    const m = obj(raw);
    const role = typeof m.role === 'string' ? m.role : 'unknown';
    const content = text(m.content);
    const calls = list(m.tool_calls).map((c) => {
      const call = obj(c);
      const fn = obj(call.function);
      return {
        id: String(call.id ?? ''),
        name: String(fn.name ?? call.name ?? ''),
        arguments: text(fn.arguments ?? call.arguments) ?? '',
      };
    });
    const usage = perMessage.get(i);
    return {
      role,
      content,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
      ...(typeof m.tool_call_id === 'string' ? { tool_call_id: m.tool_call_id } : {}),
      ...(typeof m.name === 'string' ? { name: m.name } : {}),
      ...(role === 'tool' ? { error: (content ?? '').startsWith('Error:') } : {}),
      ...(typeof m.reasoning_content === 'string' ? { reasoning_content: m.reasoning_content } : {}),
      ...(usage === undefined ? {} : { usage }),
    };
  });
}

/** The fields of a record the page shows beside the conversation (everything but messages and tools). */
function recordFields(record: Obj): Obj {
  const { messages: _m, tools: _t, ...rest } = record;
  return rest;
}

/** The page's view of a cove trajectory record. */
export function coveDetail(
  line: number,
  record: Obj,
  facts: EpisodeFacts | undefined,
  task: unknown,
  taskNote: string | undefined,
  tasksKnown: boolean,
): EpisodeDetail {
  return {
    line,
    format: 'cove',
    ...(facts === undefined ? {} : { facts }),
    record: recordFields(record),
    messages: coveMessages(record),
    ...(task === undefined ? {} : { task }),
    ...(taskNote === undefined ? {} : { taskNote }),
    stateDiff:
      task !== undefined && tasksKnown
        ? { available: true }
        : { available: false, reason: taskNote ?? 'no tasks: the state diff needs the run folder' },
  };
}

/**
 * The messages of a τ² simulation (`tau2-spec.md` §7.4) in the page's shape: tool calls `{id, name, arguments}`
 * with the arguments object written as JSON text, tool results `{id, content, error}` linked by `tool_call_id`,
 * per-message `usage` and `cost` kept.
 */
export function tau2Messages(simulation: Obj): ViewMessage[] {
  const names = new Map<string, string>();
  return list(simulation.messages).map((raw) => {
    const m = obj(raw);
    const role = typeof m.role === 'string' ? m.role : 'unknown';
    const calls = list(m.tool_calls).map((c) => {
      const call = obj(c);
      const id = String(call.id ?? '');
      const name = String(call.name ?? '');
      names.set(id, name);
      return {
        id,
        name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
      };
    });
    const usage = {
      ...(numbers(m.usage) ?? {}),
      ...(typeof m.cost === 'number' && m.cost > 0 ? { cost_usd: m.cost } : {}),
    };
    const id = typeof m.id === 'string' ? m.id : undefined;
    return {
      role,
      content: text(m.content),
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
      ...(role === 'tool' && id !== undefined ? { tool_call_id: id, name: names.get(id) ?? '' } : {}),
      ...(role === 'tool' ? { error: m.error === true } : {}),
      ...(Object.keys(usage).length > 0 ? { usage } : {}),
    };
  });
}

const BREAKDOWN_CAUSE: Record<string, string> = {
  DB: 'db_mismatch',
  ENV_ASSERTION: 'env_assertion_failed',
  ACTION: 'action_mismatch',
  COMMUNICATE: 'info_not_communicated',
  NL_ASSERTION: 'nl_assertion_failed',
};

/**
 * The facts of a τ² simulation: reward from `reward_info.reward`, passed when it is 1 (τ²'s success test,
 * within 1e-6), the DB match as `stateMatch`, and as failure cause the reward components below 1 (or the
 * termination when it was not a stop).
 */
export function tau2Facts(line: number, simulation: Obj, task: Obj | undefined): EpisodeFacts {
  const info = obj(simulation.reward_info);
  const reward = typeof info.reward === 'number' ? info.reward : null;
  const termination =
    typeof simulation.termination_reason === 'string' ? simulation.termination_reason : 'unknown';
  const passed = reward !== null && Math.abs(reward - 1) <= 1e-6;
  const failed = Object.entries(obj(info.reward_breakdown))
    .filter(([, v]) => typeof v === 'number' && v < 1)
    .map(([k]) => BREAKDOWN_CAUSE[k] ?? k.toLowerCase());
  const failure = passed
    ? null
    : termination !== 'user_stop' && termination !== 'agent_stop'
      ? termination
      : failed.length > 0
        ? failed.join('+')
        : reward === null
          ? 'not_evaluated'
          : 'reward_below_1';
  const messages = list(simulation.messages).map(obj);
  let prompt = 0;
  let completion = 0;
  for (const m of messages) {
    const u = obj(m.usage);
    prompt += typeof u.prompt_tokens === 'number' ? u.prompt_tokens : 0;
    completion += typeof u.completion_tokens === 'number' ? u.completion_tokens : 0;
  }
  const cost =
    (typeof simulation.agent_cost === 'number' ? simulation.agent_cost : 0) +
    (typeof simulation.user_cost === 'number' ? simulation.user_cost : 0);
  const dbCheck = obj(info.db_check);
  const actions = list(obj(task?.evaluation_criteria).actions).map(obj);
  const info2 = obj(obj(task?.user_scenario).instructions);
  return {
    line,
    id: String(simulation.id ?? line),
    taskId: String(simulation.task_id ?? ''),
    taskIndex: null,
    domain: typeof info2.domain === 'string' ? info2.domain : 'unknown',
    trial: typeof simulation.trial === 'number' ? simulation.trial : 0,
    agent: '',
    user: '',
    score: null,
    stateMatch: typeof dbCheck.db_match === 'boolean' ? dbCheck.db_match : null,
    reward,
    passed,
    sft: null,
    termination,
    failure,
    kinds: [],
    k: actions.length > 0 ? actions.length : null,
    difficulty: null,
    userTurns: messages.filter((m) => m.role === 'user').length,
    messages: messages.length,
    toolCalls: messages.filter((m) => m.role === 'tool').length,
    redundant: 0,
    promptTokens: prompt,
    completionTokens: completion,
    costUsd: cost,
    retries: 0,
  };
}
