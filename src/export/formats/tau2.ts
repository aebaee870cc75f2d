import type { OpenAiTool } from '../../env/openai-tools.js';
import type {
  Tau2Info,
  Tau2Message,
  Tau2RewardInfo,
  Tau2Simulation,
  Tau2TerminationReason,
} from '../../tau2/results-file.js';
import { TAU2_TERMINATION_REASONS, tau2RewardInfoSchema } from '../../tau2/results-file.js';
import { type ExportRecord, tau2Evaluated } from '../select.js';

/** τ²'s timestamps: ISO 8601 without a zone (`2025-08-01T16:16:37.295213`, Python's `datetime.isoformat()`). */
function isoNaive(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '');
}

/**
 * τ²'s `RewardInfo` for a cove record: the record's τ² evaluation report when its evaluator is τ²'s; otherwise
 * what cove's verifier knows (`tau2-spec.md` §6): reward = `tau2Reward`, `db_check` from `stateMatch`, basis
 * `[DB, COMMUNICATE]`, the COMMUNICATE part in the breakdown only where it follows from the others, and cove's
 * verification under `info.cove`. A premature termination gets τ²'s reward 0 with no basis and its note.
 */
export function recordRewardInfo(r: ExportRecord): Tau2RewardInfo {
  if (tau2Evaluated(r) && r.evaluation?.report !== undefined) {
    const parsed = tau2RewardInfoSchema.safeParse({
      reward: r.evaluation.reward,
      ...(r.evaluation.report as object),
    });
    if (parsed.success) return parsed.data;
  }
  const v = r.verification;
  if (v === undefined) {
    return {
      reward: r.evaluation?.reward ?? 0,
      reward_basis: null,
      info: { note: 'no τ² reward report was recorded' },
    };
  }
  const cove = {
    cove: { score: v.score, stateMatch: v.stateMatch, constraints: v.constraints, redundant: v.redundant },
  };
  if (!v.terminationOk) {
    return {
      reward: 0,
      reward_basis: null,
      info: {
        note: `Simulation terminated prematurely. Termination reason: ${r.termination_reason}`,
        ...cove,
      },
    };
  }
  const db = v.stateMatch ? 1 : 0;
  return {
    reward: v.tau2Reward ?? 0,
    db_check: { db_match: v.stateMatch, db_reward: db },
    env_assertions: null,
    action_checks: null,
    communicate_checks: null,
    nl_assertions: null,
    reward_basis: ['DB', 'COMMUNICATE'],
    reward_breakdown: v.stateMatch ? { DB: 1, COMMUNICATE: v.tau2Reward ?? 0 } : { DB: 0 },
    info: cove,
  };
}

/** cove's termination reasons in τ²'s vocabulary (cove's `repeated_tool_call` guard is an agent error to τ²). */
function tau2Termination(reason: string): Tau2TerminationReason {
  return (TAU2_TERMINATION_REASONS as readonly string[]).includes(reason)
    ? (reason as Tau2TerminationReason)
    : 'agent_error';
}

/**
 * A cove trajectory record as τ²'s `SimulationRun` (`tau2-spec.md` §7.4): the messages in τ²'s shape (flat tool
 * calls with `requestor`, arguments as objects; tool messages with the call's `id` and an `error` flag for
 * `Error: …` results), `turn_idx` = position, timestamps spread evenly over the episode from `startMs`, per-message
 * cost and usage from `usage.per_message`, agent and user cost summed from them.
 */
export function recordSimulation(r: ExportRecord, startMs: number): Tau2Simulation {
  const perMessage = new Map((r.usage.per_message ?? []).map((u) => [u.message_index, u]));
  const n = r.messages.length;
  let agentCost = 0;
  let userCost = 0;
  const messages = r.messages.map((m, i): Tau2Message => {
    const at = isoNaive(startMs + (n <= 1 ? 0 : (r.timing_ms * i) / (n - 1)));
    if (m.role === 'tool') {
      return {
        role: 'tool',
        id: m.tool_call_id,
        content: m.content,
        requestor: 'assistant',
        error: m.content.startsWith('Error: '),
        turn_idx: i,
        timestamp: at,
      };
    }
    if (m.role === 'system') return { role: 'system', content: m.content, turn_idx: i, timestamp: at };
    const u = perMessage.get(i);
    if (u !== undefined) {
      if (m.role === 'assistant') agentCost += u.cost_usd;
      else userCost += u.cost_usd;
    }
    const toolCalls =
      m.role === 'assistant' && m.tool_calls !== undefined && m.tool_calls.length > 0
        ? m.tool_calls.map((c) => ({
            id: c.id,
            name: c.function.name,
            arguments: parseObject(c.function.arguments),
            requestor: 'assistant' as const,
          }))
        : null;
    return {
      role: m.role,
      content: m.content,
      tool_calls: toolCalls,
      turn_idx: i,
      timestamp: at,
      cost: u?.cost_usd ?? 0,
      usage:
        u === undefined ? null : { completion_tokens: u.completion_tokens, prompt_tokens: u.prompt_tokens },
      raw_data: null,
    };
  });
  return {
    id: r.id,
    task_id: r.task_id,
    timestamp: isoNaive(startMs + r.timing_ms),
    start_time: isoNaive(startMs),
    end_time: isoNaive(startMs + r.timing_ms),
    duration: r.timing_ms / 1000,
    termination_reason: tau2Termination(r.termination_reason),
    agent_cost: agentCost,
    user_cost: userCost,
    reward_info: recordRewardInfo(r),
    messages,
    trial: r.trial,
    seed: r.seed,
    mode: 'half_duplex',
    info: {
      cove: {
        run: r.run,
        attempt: r.attempt,
        agent: r.agent,
        user: r.user,
        termination_reason: r.termination_reason,
        settings: r.settings,
      },
    },
  };
}

/** Arguments text → object; text that is not a JSON object is kept under `__raw__` (such records are never selected). */
function parseObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { __raw__: text };
}

/** τ²'s `Info` for records of one cove run. */
export function recordInfo(parts: {
  record: ExportRecord;
  numTrials: number;
  seed: number | null;
  maxSteps: number;
  maxErrors: number;
  policy: string;
  tools: readonly OpenAiTool[];
  coveVersion: string;
}): Tau2Info {
  const r = parts.record;
  const model = (role: string) => (role.startsWith('openai:') ? role.slice('openai:'.length) : null);
  return {
    git_commit: `cove-${parts.coveVersion}`,
    num_trials: parts.numTrials,
    max_steps: parts.maxSteps,
    max_errors: parts.maxErrors,
    seed: parts.seed,
    user_info: {
      implementation: r.user === 'scripted' ? 'cove_scripted_user' : 'user_simulator',
      llm: model(r.user),
      llm_args: null,
      global_simulation_guidelines: null,
    },
    agent_info: {
      implementation: r.agent === 'oracle' ? 'cove_oracle_agent' : 'llm_agent',
      llm: model(r.agent),
      llm_args: null,
    },
    environment_info: {
      domain_name: r.domain,
      policy: parts.policy,
      tool_defs: Object.fromEntries(
        parts.tools.map((t) => [
          t.function.name,
          {
            name: t.function.name,
            doc: t.function.description,
            params: t.function.parameters,
            returns: null,
          },
        ]),
      ),
    },
  };
}
