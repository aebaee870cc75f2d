import { toPyValue } from '../core/py-value.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import type { Episode } from '../env/episode.js';
import { type GoldState, goldKey, goldState, matchesGold } from '../env/gold-state.js';
import type { ToolSpec } from '../env/tool.js';
import { tau2Reward as tau2RewardOf } from '../eval/tau2-evaluator.js';
import { agentTexts, type ChatMessage } from '../sim/messages.js';
import type { ExecutedToolCall, TerminationReason } from '../sim/run-episode.js';
import type { Constraint, ConstraintKind, PredicateResult } from '../tasks/constraint.js';
import type { CoveTask } from '../tasks/cove-task.js';
import type { DomainSynthesis } from '../tasks/synthesis.js';
import { checkGrounding } from './grounding.js';

/** The verifier's verdict on one trajectory (docs/design.md §5; field names fixed). */
export interface Verification {
  /** S = (satisfied/|C|) · γ^redundant, 0 unless the episode ended by a user or agent stop. */
  readonly score: number;
  /** The final DB equals the DB the gold actions produce (compared by row diffs against the shared base). */
  readonly stateMatch: boolean;
  /** What τ²'s evaluator gives by the task's reward basis (DB × COMMUNICATE for generated tasks), 0 unless
   * terminated by a stop; `null` if a basis component could not be evaluated. */
  readonly tau2Reward: number | null;
  readonly constraints: readonly { id: string; kind: string; satisfied: boolean; evidence: string }[];
  readonly redundant: readonly { call_id: string; tool: string; reason: 'outside_footprint' | 'duplicate' }[];
  readonly terminationOk: boolean;
}

/** Inputs of {@link verifyTrajectory}. */
export interface VerifyInput {
  readonly synthesis: DomainSynthesis;
  readonly tools: readonly ToolSpec[];
  readonly task: CoveTask;
  /** The episode after the conversation (still open). */
  readonly final: Episode;
  readonly messages: readonly ChatMessage[];
  readonly toolCalls: readonly ExecutedToolCall[];
  readonly termination: TerminationReason;
  /** Discount per redundant write. @defaultValue 0.5 */
  readonly gamma?: number;
}

/**
 * The grounding verdict of a constraint whose kind declares one (issue 23): a `refusal` kind without a
 * declaration never holds, so no domain's refusals can be collected without the reads its policy requires.
 */
function groundingOf(
  kind: ConstraintKind,
  constraint: Constraint,
  input: VerifyInput,
  userId: string | undefined,
): PredicateResult | undefined {
  if (kind.grounding !== undefined) {
    return checkGrounding(kind.grounding, constraint, {
      messages: input.messages,
      toolCalls: input.toolCalls,
      termination: input.termination,
      userId,
      sanctioned: (call) => servesAnother(call, constraint, input),
    });
  }
  if (kind.category === 'refusal')
    return { satisfied: false, evidence: `not grounded: refusal kind ${kind.name} declares no grounding` };
  return undefined;
}

/**
 * Whether a successful write serves a constraint of the task other than `constraint`: a tool of that
 * constraint's kind, every entity it changed in that constraint's footprint.
 */
function servesAnother(call: ExecutedToolCall, constraint: Constraint, input: VerifyInput): boolean {
  const key = (r: { collection: string; key: string }) => `${r.collection}\u0000${r.key}`;
  return input.task.cove.constraints.some((other) => {
    if (other.id === constraint.id) return false;
    const kind = input.synthesis.kinds.find((k) => k.name === other.kind);
    if (kind?.writeTools.includes(call.name) !== true) return false;
    const footprint = new Set(other.footprint.map(key));
    return call.changed.every((r) => footprint.has(key(r)));
  });
}

/** The gold final state of a task: its gold actions replayed on a fresh episode (remembered per base). */
export function taskGoldState(base: EnvironmentBase, task: CoveTask): GoldState {
  const actions = task.evaluation_criteria.actions;
  return goldState(
    base,
    goldKey(actions, task.cove.semantics),
    actions.map((a) => ({ name: a.name, arguments: toPyValue(a.arguments) })),
    task.cove.semantics,
  );
}

/**
 * Verifies a trajectory deterministically, with no LLM: every constraint's predicate on the final state (and,
 * for kinds that declare a grounding, the reads the policy requires before a refusal: `grounding.ts`),
 * redundant writes (a successful write whose changed entities fall outside every constraint's footprint, or a
 * second write by the same tool on the same entity for one constraint), the state match against the gold
 * replay, and τ²'s reward. A disagreement between `score = 1` and `stateMatch` on an oracle run is a bug.
 */
export function verifyTrajectory(input: VerifyInput): Verification {
  const { task, final } = input;
  const gamma = input.gamma ?? 0.5;
  // what the agent of a conversation prefix (`--from`) said was given, not achieved: it tells the user nothing
  const texts = agentTexts(input.messages.filter((m) => m.cove_prefix !== true));
  const semantics = task.cove.semantics;
  const terminationOk = input.termination === 'user_stop' || input.termination === 'agent_stop';
  const constraints = task.cove.constraints.map((c) => {
    const kind = input.synthesis.kinds.find((k) => k.name === c.kind);
    const r = kind?.predicate(c, { final, semantics, agentTexts: texts }) ?? {
      satisfied: false,
      evidence: 'unknown kind',
    };
    const g = kind === undefined ? undefined : groundingOf(kind, c, input, task.cove.user_id);
    const satisfied = r.satisfied && (g?.satisfied ?? true);
    const evidence = g === undefined ? r.evidence : `${r.evidence}; ${g.evidence}`;
    return { id: c.id, kind: c.kind, satisfied, evidence };
  });

  const writes = new Set(input.tools.filter((t) => t.kind === 'write').map((t) => t.name));
  const servedBy = (c: CoveTask['cove']['constraints'][number], tool: string) =>
    input.synthesis.kinds.find((k) => k.name === c.kind)?.writeTools.includes(tool) === true;
  const key = (r: { collection: string; key: string }) => `${r.collection}\u0000${r.key}`;
  const counted = new Set<string>();
  const redundant: { call_id: string; tool: string; reason: 'outside_footprint' | 'duplicate' }[] = [];
  for (const call of input.toolCalls) {
    if (!writes.has(call.name) || call.error || call.changed.length === 0) continue;
    const covers = (c: CoveTask['cove']['constraints'][number]) =>
      call.changed.every((r) => c.footprint.some((f) => key(f) === key(r)));
    const owner =
      task.cove.constraints.find((c) => servedBy(c, call.name) && covers(c)) ??
      task.cove.constraints.find(covers);
    const inUnion = call.changed.every((r) =>
      task.cove.constraints.some((c) => c.footprint.some((f) => key(f) === key(r))),
    );
    if (owner === undefined && !inUnion) {
      redundant.push({ call_id: call.id, tool: call.name, reason: 'outside_footprint' });
      continue;
    }
    const entity = key(call.changed[0] as { collection: string; key: string });
    const slot = `${owner?.id ?? '*'}\u0000${call.name}\u0000${entity}`;
    if (counted.has(slot)) redundant.push({ call_id: call.id, tool: call.name, reason: 'duplicate' });
    else counted.add(slot);
  }

  const stateMatch = matchesGold(final, taskGoldState(final.base, task));
  const satisfied = constraints.filter((c) => c.satisfied).length;
  const fraction = constraints.length === 0 ? 1 : satisfied / constraints.length;
  const score = terminationOk ? fraction * gamma ** redundant.length : 0;
  const tau2Reward = tau2RewardOf({
    task,
    messages: input.messages,
    toolCalls: input.toolCalls,
    termination: input.termination,
    env: final,
    dbMatch: stateMatch,
  }).reward;
  return { score, stateMatch, tau2Reward, constraints, redundant, terminationOk };
}
