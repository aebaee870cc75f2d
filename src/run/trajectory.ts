import { sha256Hex } from '../core/hash.js';
import type { OpenAiTool } from '../env/openai-tools.js';
import { descriptivePassed, RUBRIC_EVALUATOR } from '../eval/descriptive-verdict.js';
import type { Evaluation } from '../eval/evaluator.js';
import { IDENTICAL_CALL_RUN_LIMIT } from '../sim/call-key.js';
import type { ChatMessage } from '../sim/messages.js';
import type { UserStyle } from '../sim/model-user/user-style.js';
import type { TerminationReason } from '../sim/run-episode.js';
import { checkTrajectory } from '../verify/trajectory-checks.js';
import type { Verification } from '../verify/verification.js';

/** Settings recorded with every trajectory. */
export interface TrajectorySettings {
  readonly semantics: 'parity' | 'fixed';
  readonly text: 'cove' | 'tau2';
  /** Which user guidelines played the user (`scripted`, `cove-1`, `tau2`, `cove-json-1` for the JSON user). */
  readonly guidelines: string;
}

/** One line of `trajectories.jsonl` (docs/design.md §6). */
export interface TrajectoryRecord {
  readonly id: string;
  readonly run: string;
  readonly task_id: string;
  readonly task_index: number;
  readonly domain: string;
  readonly trial: number;
  readonly attempt: number;
  readonly seed: number;
  readonly agent: string;
  readonly user: string;
  /** How the model-played user spoke (`stop-token` or `json`, docs/design.md §5); absent for the scripted user and in
   * records made before cove had styles. */
  readonly user_style?: UserStyle;
  /**
   * `model` when a model played every tool output instead of the database (`--tool-outputs model`, the
   * task-oriented baseline); absent when the database executed the calls. Such a record's state never changed, so
   * its `verification` is not meaningful ({@link verification_meaningful}).
   */
  readonly tool_outputs?: 'model';
  /** The model that played the tool outputs (`openai:<model>`), with `tool_outputs: model`. */
  readonly tool_model?: string;
  /** `false` with `tool_outputs: model`: the verification ran on a state no call changed, so it says nothing. */
  readonly verification_meaningful?: false;
  readonly settings: TrajectorySettings;
  readonly db_sha256: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly OpenAiTool[];
  readonly termination_reason: TerminationReason;
  readonly termination_detail?: string;
  /** CoVe's verdict, for tasks with a `cove` block (docs/design.md §5; unchanged in round 2). */
  readonly verification?: Verification;
  /** The task's evaluator's verdict (CoVe's verifier, or τ²'s reward rules for τ² tasks): docs/design.md §10. */
  readonly evaluation?: Evaluation;
  readonly usage: {
    readonly prompt_tokens: number;
    readonly completion_tokens: number;
    readonly cost_usd: number;
    /** HTTP retries of the episode's model calls (429, 5xx, timeouts, … that a retry overcame). */
    readonly retries?: number;
    /** Per model-generated message (its index in `messages`); empty for scripted roles. */
    readonly per_message?: readonly {
      readonly message_index: number;
      readonly prompt_tokens: number;
      readonly completion_tokens: number;
      readonly cost_usd: number;
      readonly retries?: number;
    }[];
  };
  readonly timing_ms: number;
  readonly cove_version: string;
  /** Fuzzified ids found in user messages (must be 0). */
  readonly leaks: number;
  /** Tool calls whose arguments were not valid JSON (such episodes never enter SFT). */
  readonly invalid_tool_arguments: number;
  /** Tool calls naming a tool the domain does not have (such episodes never enter SFT either). */
  readonly unknown_tool_calls: number;
  /** The longest run of consecutive identical tool calls (name + canonical arguments); ≥ 5 never enters SFT,
   * also when the repeated-call guard was off (`--text tau2`). Absent in records made before cove counted it. */
  readonly identical_call_run?: number;
  /** Behaviour events the scripted user enacted (`partial_info`, `change_of_mind`, …; docs/conversations.md);
   * absent for model-played users. */
  readonly enacted_events?: readonly string[];
  /** Why the episode did not pass, when it did not (failure attribution for summary.json). */
  readonly failure?: string;
  /** Whether the trajectory benefits from τ² benchmark data (DB from τ²'s files). */
  readonly benchmark_data: boolean;
  /** The conversation the episode continued (`--from`): its id and position in the file, and the canonical
   * sha256 of the state after its tool calls; its messages are the first ones, marked `cove_prefix: true`. */
  readonly prefix?: { readonly id: string; readonly index: number; readonly state_sha256: string };
}

/**
 * The trajectory id: a hash of the task (id and content), trial, attempt, models and settings, so the same
 * command finds what it already wrote and never writes an episode twice.
 */
export function trajectoryId(parts: {
  taskId: string;
  taskHash: string;
  trial: number;
  attempt: number;
  agent: string;
  user: string;
  settings: TrajectorySettings;
  /** The model playing the tool outputs, when one does (absent otherwise, so older ids stay the same). */
  tools?: string;
}): string {
  return sha256Hex(JSON.stringify(parts)).slice(0, 24);
}

/**
 * The reward of a record: CoVe's score for generated tasks, τ²'s reward for τ² tasks (`null` when a component
 * could not be evaluated).
 */
export function recordReward(r: TrajectoryRecord): number | null {
  if (r.verification !== undefined) return r.verification.score;
  return r.evaluation?.reward ?? null;
}

/**
 * Whether a trajectory is kept for SFT: for generated tasks score 1 and state match, for τ² tasks a τ² reward of
 * exactly 1 (never `null`); and nothing a model should not learn (invalid tool arguments, unknown tool names, a
 * user turn leaking a fuzzified id, a run of {@link IDENTICAL_CALL_RUN_LIMIT} identical calls — recorded as the
 * failure `identical_call_run`). A descriptive task's record (evaluator `rubric_judge`, docs/descriptive-tasks.md)
 * needs a judge that ran and passed it, and its deterministic checks (tool-call validity, a stop) are run again
 * here on the record itself: no recorded verdict can let a failing trajectory in.
 * failure `identical_call_run`). A trajectory whose tool outputs a model played is never kept here (see
 * {@link sftFilter} for `--allow-simulated-tools`).
 */
export function keptForSft(r: TrajectoryRecord): boolean {
  return keptWith(r, false);
}

/** Which trajectories a run keeps for SFT beyond the default rule (see {@link keptForSft}). */
export interface SftOptions {
  /**
   * Keep trajectories whose tool outputs a model played (`--allow-simulated-tools`) when they ended normally
   * (`user_stop` or `agent_stop`) and cleanly; their verification means nothing, so it is not asked. @defaultValue false
   */
  readonly allowSimulatedTools?: boolean;
}

/**
 * The SFT rule of a run as a predicate: {@link keptForSft}, except that with `allowSimulatedTools` a trajectory
 * whose tool outputs a model played is kept when it ended normally (`user_stop` or `agent_stop`) and cleanly (its
 * verification means nothing, so it is not asked).
 */
export function sftFilter(options: SftOptions = {}): (r: TrajectoryRecord) => boolean {
  const allow = options.allowSimulatedTools === true;
  return (r) => keptWith(r, allow);
}

function keptWith(r: TrajectoryRecord, allowSimulatedTools: boolean): boolean {
  const passed =
    r.tool_outputs === 'model'
      ? allowSimulatedTools && (r.termination_reason === 'user_stop' || r.termination_reason === 'agent_stop')
      : r.verification !== undefined
        ? r.verification.score === 1 && r.verification.stateMatch
        : r.evaluation?.evaluator === RUBRIC_EVALUATOR
          ? descriptivePassed(r.evaluation) &&
            checkTrajectory({ messages: r.messages, tools: r.tools, termination: r.termination_reason })
              .passed
          : r.evaluation?.reward === 1;
  return (
    passed &&
    r.invalid_tool_arguments === 0 &&
    (r.unknown_tool_calls ?? 0) === 0 &&
    r.leaks === 0 &&
    (r.identical_call_run ?? 0) < IDENTICAL_CALL_RUN_LIMIT
  );
}
